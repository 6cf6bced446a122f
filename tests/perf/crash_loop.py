"""Many worker-controlled revisits of D8 in headless Chromium, counting renderer crashes.

A script, not a test: `.venv/bin/python tests/perf/crash_loop.py --revisits 1000` (it needs a
built dist/). One browser context visits D8 until the service worker controls it, then opens
D8 again and again, each time until "Python is ready." A crashed renderer ("Page crashed")
is counted, with the revisit it came on, and a new tab carries on in the same context.
Chromium's own log (its stderr) goes to --log. A --variant changes one thing, to bisect a
crash: no worker, no early.js, PyScript's IndexedDB unpatched, a reload instead of a new
navigation, or the server gone after the first visits (connections refused); --jspi leaves
JSPI to Pyodide, as it was before boot.js hid it; --chromium-arg
adds a flag (a V8 one through --js-flags, say, for the wasm); --dist takes another build.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests" / "e2e")]
from playwright.sync_api import BrowserContext, Page, expect, sync_playwright  # noqa: E402

from course_build.machine import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from course_build.paths import DIST  # noqa: E402
from course_build.runtime import PYSCRIPT_DIST  # noqa: E402
from course_build.server import make_server  # noqa: E402
from sites import CACHES_WHEN_CONTROLLED, serving  # noqa: E402

SETTLED = re.compile(r"^(Python is ready\.|Python could not start.*)$")

VARIANTS = ("worker", "no-worker", "no-early", "no-idb-patch", "reload", "server-gone")
HIDE_JSPI = "  delete WebAssembly.Suspending;\n  delete WebAssembly.promising;\n"


def staged(variant: str, dist: Path, into: Path, jspi: bool = False) -> Path:
    """Copy a built site into `into`, changed for the variant (and JSPI), and return the copy."""
    site = into / "site"
    shutil.copytree(dist, site)
    if jspi:
        boot = (site / "boot.js").read_text(encoding="utf-8")
        assert HIDE_JSPI in boot, "boot.js no longer hides JSPI as --jspi expects"
        (site / "boot.js").write_text(boot.replace(HIDE_JSPI, ""), encoding="utf-8")
    if variant == "no-early":
        (site / "early.js").write_text('"use strict";\n', encoding="utf-8")
    elif variant == "no-idb-patch":
        for chunk in (site / "pyscript").glob("*.js"):
            shutil.copy2(PYSCRIPT_DIST / chunk.name, chunk)
    return site


class Revisits:
    """One tab at a time in one context; a crashed tab is counted and replaced."""

    def __init__(self, context: BrowserContext) -> None:
        self.context = context
        self.crashes: list[int] = []
        self.failed: list[tuple[int, str]] = []
        self.crashed = False
        self.page = self.new_page()

    def new_page(self) -> Page:
        page = self.context.new_page()
        page.on("crash", lambda _: setattr(self, "crashed", True))
        return page

    def visit(self, number: int, url: str, reload: bool = False) -> None:
        """Open (or reload) the page until Python settles; count a crash or a failure."""
        self.crashed = False
        try:
            if reload:
                self.page.reload()
            else:
                self.page.goto(url)
            status = self.page.locator("#boot-status")
            expect(status).to_have_text(SETTLED, timeout=60_000)
            said = status.inner_text()
            if said != "Python is ready.":
                self.failed.append((number, said))
        except Exception as error:  # a crash surfaces here too, as "Target crashed"
            if not self.crashed:
                self.failed.append((number, str(error).splitlines()[0]))
        if self.crashed:
            self.crashes.append(number)
            print(f"revisit {number}: renderer crashed", flush=True)
            self.page.close()
            self.page = self.new_page()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--revisits", type=int, default=1000)
    parser.add_argument("--variant", choices=VARIANTS, default="worker")
    parser.add_argument("--jspi", action="store_true", help="leave JSPI to Pyodide")
    parser.add_argument("--chromium-arg", action="append", default=[])
    parser.add_argument("--log", type=Path, default=Path("crash-loop-chromium.log"))
    parser.add_argument("--dist", type=Path, default=DIST, help="the built site to use")
    args = parser.parse_args()
    os.environ["DEBUG"] = "pw:browser"  # the driver passes Chromium's stderr on to ours
    log = args.log.open("w", encoding="utf-8")
    os.dup2(log.fileno(), 2)
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as server, \
            sync_playwright() as playwright:
        port = server.enter_context(serving(make_server(
            staged(args.variant, args.dist, Path(tmp), args.jspi))))
        url = f"http://127.0.0.1:{port}/d8/"
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *args.chromium_arg])
        loop = Revisits(browser.new_context(
            service_workers="block" if args.variant == "no-worker" else "allow"))
        loop.visit(0, url)
        if args.variant != "no-worker":
            loop.page.evaluate(CACHES_WHEN_CONTROLLED)
        if args.variant == "server-gone":
            loop.visit(0, url)  # once more with the worker in control, then the server goes
            server.close()
        started = time.monotonic()
        for number in range(1, args.revisits + 1):
            loop.visit(number, url, reload=args.variant == "reload")
            if number % 50 == 0:
                print(f"{number} revisits, {len(loop.crashes)} crashes, {len(loop.failed)} "
                      f"failed, {time.monotonic() - started:.0f} s", flush=True)
        browser.close()
    jspi = ", JSPI left to Pyodide" if args.jspi else ""
    print(f"variant {args.variant}{jspi}: {args.revisits} revisits, {len(loop.crashes)} renderer "
          f"crashes {loop.crashes}, {len(loop.failed)} other failures {loop.failed[:5]}",
          flush=True)
    return 1 if loop.crashes or loop.failed else 0


if __name__ == "__main__":
    sys.exit(main())

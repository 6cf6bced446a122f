"""D8's notebook in our JupyterLite against a bare JupyterLite, beside D8 itself, in one run.

Run it through `python3 build.py bench-notebook [--runs N] [--json PATH]` (it needs a built
dist/). Not a pytest module. It builds the bare JupyterLite (src/course_build/bare_notebook.py:
the same pins, Pyodide's stock standard library, the stock PyPI wheels) and serves it beside
dist/. Each run opens, in an order that turns from run to run, D8, the bare notebook and ours,
each in a browser with a fresh profile (cold) and then in a new tab of that profile (warm).
It records, on the page's own clock from navigation: D8's "Python is ready."; the notebook
shown (its title heading rendered); and, with Run All pressed as soon as it is shown, the
first cell's output (the cells run in milliseconds, so that is the kernel being ready).
Ratios are medians of per-run ratios, with their range.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, BrowserType, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests" / "e2e")]
from probes import RECORD_READY, spread  # noqa: E402

from course_build.bare_notebook import build_bare  # noqa: E402
from course_build.machine import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from course_build.notebook import NOTEBOOK_DIST  # noqa: E402
from course_build.paths import DIST  # noqa: E402
from course_build.server import make_server  # noqa: E402
from sites import CACHES_WHEN_CONTROLLED  # noqa: E402

TIMEOUT_MS = 240_000
NOTEBOOK = "notebook/notebooks/index.html?path=d8.ipynb"
TITLE = "D8 · Two heads of dimension one"
BARE_SITE = ROOT / "build" / "bare-notebook"
# Injected through the DevTools protocol, outside the page's CSP: the times from navigation
# until the notebook's title heading is rendered and until the first output appears.
RECORD_NOTEBOOK = f"const TITLE = {json.dumps(TITLE)};" + """
new MutationObserver((_, observer) => {
  if (window.__benchShownAt === undefined && [...document.querySelectorAll("h1")].some(
      (h) => h.textContent.includes(TITLE))) {
    window.__benchShownAt = performance.now();
  }
  if (document.querySelector(".jp-OutputArea-output")) {
    window.__benchOutputAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
NOTEBOOKS = ("bare", "ours")


def d8_visit(context: BrowserContext, base: str) -> tuple[float, Page]:
    page = context.new_page()
    page.add_init_script(RECORD_READY)
    page.goto(f"{base}d8/")
    expect(page.locator("#boot-status")).to_have_text("Python is ready.", timeout=TIMEOUT_MS)
    return float(page.evaluate("() => window.__benchReadyAt")) / 1000, page


def notebook_visit(context: BrowserContext, base: str) -> tuple[dict[str, float], Page]:
    page = context.new_page()
    page.add_init_script(RECORD_NOTEBOOK)
    page.goto(base + NOTEBOOK)
    page.get_by_role("heading", name=TITLE).wait_for(timeout=TIMEOUT_MS)
    # A warm visit must not find the outputs of the cold one (JupyterLite could have saved
    # the notebook in the browser): they would count as the kernel being ready.
    expect(page.locator(".jp-OutputArea-output")).to_have_count(0)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.locator(".jp-OutputArea-output").first.wait_for(timeout=TIMEOUT_MS)
    shown, output = page.evaluate("() => [window.__benchShownAt, window.__benchOutputAt]")
    return {"shown_s": float(shown) / 1000, "output_s": float(output) / 1000}, page


def cold_and_warm(chromium: BrowserType, visit: Callable[[BrowserContext], tuple[Any, Page]],
                  profile: str,
                  settle: Callable[[Page], object]) -> dict[str, Any]:
    """One visit with a fresh profile, then one in a new tab of that profile."""
    context = chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
    try:
        cold, page = visit(context)
        settle(page)
        page.close()
        warm, page = visit(context)
        page.close()
    finally:
        context.close()
    return {"cold": cold, "warm": warm}


def measure(chromium: BrowserType, name: str, base: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as profile:
        if name == "d8":  # the warm visit is served by the worker the first one installed
            return cold_and_warm(chromium, lambda c: d8_visit(c, base), profile,
                                 lambda page: page.evaluate(CACHES_WHEN_CONTROLLED))
        return cold_and_warm(chromium, lambda c: notebook_visit(c, base), profile,
                             lambda page: None)


def ratios(runs: list[dict[str, Any]], top: tuple[str, str], bottom: tuple[str, str],
           when: str) -> list[float]:
    """Per run: (notebook, field) of top over that of bottom ("d8" has one figure)."""
    def figure(run: dict[str, Any], which: tuple[str, str]) -> float:
        value = run[which[0]][when]
        return float(value if which[0] == "d8" else value[which[1]])

    return [figure(run, top) / figure(run, bottom) for run in runs]


RATIOS = {  # name: (top, bottom), each (page, field)
    "ours / bare, first output": (("ours", "output_s"), ("bare", "output_s")),
    "ours first output / D8 ready": (("ours", "output_s"), ("d8", "")),
    "bare first output / D8 ready": (("bare", "output_s"), ("d8", "")),
    "ours / bare, shown": (("ours", "shown_s"), ("bare", "shown_s")),
}


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for when in ("cold", "warm"):
        summary[f"d8 ready {when}"] = [r["d8"][when] for r in runs]
        for name in NOTEBOOKS:
            for field in ("shown_s", "output_s"):
                summary[f"{name} {field} {when}"] = [r[name][when][field] for r in runs]
        for label, (top, bottom) in RATIOS.items():
            summary[f"{label}, {when}"] = ratios(runs, top, bottom, when)
    return summary


def report(summary: dict[str, Any], runs: int) -> None:
    print(f"\nHeadless Chromium, localhost, {runs} runs; seconds from navigation; "
          "median (min-max).")
    print(f"{'':34}{'cold':>20}{'warm':>20}")
    rows = [("D8, Python ready", "d8 ready {}")]
    for name in NOTEBOOKS:
        rows += [(f"{name} notebook, shown", f"{name} shown_s {{}}"),
                 (f"{name} notebook, first output", f"{name} output_s {{}}")]
    rows += [(label, label + ", {}") for label in RATIOS]
    for label, key in rows:
        print(f"{label:34}{spread(summary[key.format('cold')]):>20}"
              f"{spread(summary[key.format('warm')]):>20}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=DIST / "bench-notebook.json")
    args = parser.parse_args()
    if not (NOTEBOOK_DIST / "jupyter-lite.json").is_file():
        sys.exit("dist/ is not built: run `python3 build.py bench-notebook`")
    build_bare(BARE_SITE, DIST)
    servers = {name: make_server(folder) for name, folder in
               (("ours", DIST), ("bare", BARE_SITE))}
    for server in servers.values():
        threading.Thread(target=server.serve_forever, daemon=True).start()
    bases = {name: f"http://127.0.0.1:{s.server_port}/" for name, s in servers.items()}
    bases["d8"] = bases["ours"]
    order = ("d8", "bare", "ours")
    runs: list[dict[str, Any]] = []
    try:
        with sync_playwright() as playwright:
            for run in range(args.runs):
                turned = order[run % 3:] + order[:run % 3]
                runs.append({name: measure(playwright.chromium, name, bases[name])
                             for name in turned})
                r = runs[-1]
                print(f"run {run + 1}/{args.runs} ({', '.join(turned)}): D8 "
                      f"{r['d8']['cold']:.2f}/{r['d8']['warm']:.2f} s; first output, cold/warm: "
                      f"bare {r['bare']['cold']['output_s']:.2f}/"
                      f"{r['bare']['warm']['output_s']:.2f} s, ours "
                      f"{r['ours']['cold']['output_s']:.2f}/{r['ours']['warm']['output_s']:.2f} s",
                      flush=True)
    finally:
        for server in servers.values():
            server.shutdown()
            server.server_close()
    summary = summarise(runs)
    report(summary, args.runs)
    args.json.write_text(json.dumps({"summary": summary, "runs": runs}, indent=1) + "\n")
    print(f"\nWrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

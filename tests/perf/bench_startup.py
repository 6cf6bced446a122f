"""Start-up benchmark: D8 against a bare PyScript + Pyodide page in headless Chromium.

Run it through `python3 build.py bench [--runs N]` (it needs a built dist/). Not a pytest
module. For each run, interleaved, each page loads cold (a browser with a fresh profile) and
then warm (a second page in that profile: its disk HTTP cache and compiled-code cache; an
incognito context would not do, as its memory cache keeps no 9.6 MB wasm). The time is
from navigation start until #boot-status reads "Python is ready.", taken in the page by a
MutationObserver injected through the DevTools protocol (so the page's CSP does not apply).
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import statistics
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import BrowserType, Page, Request, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (build.py sits at the top of the repository)

READY = "Python is ready."
TIMEOUT_MS = 120_000
RECORD_READY = """
new MutationObserver((_, observer) => {
  const status = document.getElementById("boot-status");
  if (status && status.textContent === "Python is ready.") {
    window.__benchReadyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
BARE_HTML = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Bare PyScript page</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="../pyscript/core.css">
  <script type="module" src="../pyscript/core.js"></script>
</head>
<body>
  <p id="boot-status">Python is starting…</p>
  <script type="py" config="./pyscript.toml">
from pyscript import document
document.getElementById("boot-status").textContent = "Python is ready."
  </script>
</body>
</html>
"""
BARE_CONFIG = 'interpreter = "../pyodide/pyodide.mjs"\n'


@dataclass
class Figures:
    cold_s: list[float] = field(default_factory=list)
    warm_s: list[float] = field(default_factory=list)
    cold_bytes: list[int] = field(default_factory=list)
    python_ms: list[float] = field(default_factory=list)
    gzip_bytes: int = 0


def load(page: Page, url: str) -> tuple[float, int, list[str]]:
    """Open url, wait for Python; return (seconds to ready, bytes received, URLs)."""
    finished: list[Request] = []

    def on_finished(request: Request) -> None:  # Playwright cannot wrap a bound builtin
        finished.append(request)

    page.on("requestfinished", on_finished)
    page.add_init_script(RECORD_READY)
    page.goto(url)
    expect(page.locator("#boot-status")).to_have_text(READY, timeout=TIMEOUT_MS)
    ready_ms = float(page.evaluate("() => window.__benchReadyAt"))
    received = 0
    for request in finished:
        sizes = request.sizes()
        received += sizes["responseHeadersSize"] + max(sizes["responseBodySize"], 0)
    return ready_ms / 1000, received, [r.url for r in finished]


def measure(chromium: BrowserType, url: str, figures: Figures, site: Path) -> None:
    with tempfile.TemporaryDirectory() as profile:
        context = chromium.launch_persistent_context(
            profile, executable_path=build.CHROMIUM, args=list(build.CHROMIUM_ARGS)
        )
        try:
            cold_s, cold_bytes, urls = load(context.new_page(), url)
            warm_page = context.new_page()
            warm_s, _, _ = load(warm_page, url)
            python_ms = warm_page.evaluate(
                "() => document.documentElement.dataset.pythonMs ?? null"
            )
        finally:
            context.close()
    figures.cold_s.append(cold_s)
    figures.warm_s.append(warm_s)
    figures.cold_bytes.append(cold_bytes)
    if python_ms is not None:
        figures.python_ms.append(float(python_ms))
    if not figures.gzip_bytes:  # what a gzip-serving host would send for the same files
        paths = {urlsplit(u).path for u in urls if u.startswith("http")}
        files = [site / p.lstrip("/") for p in paths]
        files = [(f / "index.html" if f.is_dir() else f) for f in files]
        figures.gzip_bytes = sum(len(gzip.compress(f.read_bytes())) for f in files)


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):6.2f}  ({min(values):.2f}-{max(values):.2f})"


def report(runs: int, bare: Figures, d8: Figures) -> None:
    megabytes = 1_000_000
    print(f"\nStart-up in headless Chromium, {runs} runs, median (min-max), seconds to ready:")
    print(f"{'':24}{'cold':>22}{'warm':>22}")
    for name, f in (("bare PyScript + Pyodide", bare), ("D8", d8)):
        print(f"{name:24}{summary(f.cold_s):>22}{summary(f.warm_s):>22}")
    cold_ratio = statistics.median(d8.cold_s) / statistics.median(bare.cold_s)
    warm_ratio = statistics.median(d8.warm_s) / statistics.median(bare.warm_s)
    print(f"{'ratio D8 / bare':24}{cold_ratio:>16.2f}{'':6}{warm_ratio:>16.2f}")
    for name, f in (("bare", bare), ("D8", d8)):
        raw = statistics.median(f.cold_bytes) / megabytes
        packed = f.gzip_bytes / megabytes
        print(f"cold bytes, {name}: {raw:.2f} MB received ({packed:.2f} MB if served gzipped)")
    if d8.python_ms:
        work = statistics.median(d8.python_ms)
        print(f"D8 main.py's own work (data-python-ms on <html>): median {work:.1f} ms")
    else:
        print("D8 main.py's own work: not reported (no data-python-ms on <html>)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if not (build.DIST / "d8" / "index.html").is_file():
        sys.exit("dist/ is not built: run `python3 build.py bench`")
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        shutil.copytree(build.DIST, site)
        (site / "bare").mkdir()
        (site / "bare" / "index.html").write_text(BARE_HTML, encoding="utf-8")
        (site / "bare" / "pyscript.toml").write_text(BARE_CONFIG, encoding="utf-8")
        server = build.make_server(site)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}/"
        bare, d8 = Figures(), Figures()
        try:
            with sync_playwright() as playwright:
                for run in range(args.runs):
                    pages = [("bare/", bare), ("d8/", d8)]
                    for path, figures in pages if run % 2 == 0 else pages[::-1]:
                        measure(playwright.chromium, base + path, figures, site)
                    print(
                        f"run {run + 1}/{args.runs}: bare {bare.cold_s[-1]:.2f} s cold, "
                        f"D8 {d8.cold_s[-1]:.2f} s cold",
                        flush=True,
                    )
        finally:
            server.shutdown()
            server.server_close()
        report(args.runs, bare, d8)
    return 0


if __name__ == "__main__":
    sys.exit(main())

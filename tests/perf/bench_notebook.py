"""Cold start of D8's notebook in JupyterLite beside D8's own cold start, in one run.

Run it through `python3 build.py bench --notebook [--runs N]` (it needs a built dist/). Not a
pytest module. Each run opens D8 and then its notebook, each in a browser with a fresh
profile, and takes the wall-clock seconds from navigation until D8 says "Python is ready.",
and until the notebook is shown and then, with Run All pressed at once, until D8's numbers
are printed: the cells run in milliseconds, so that is the time to a ready kernel (Pyodide,
IPython and the package from the site's own lock).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import BrowserType, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
from course_build.machine import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from course_build.notebook import NOTEBOOK_DIST  # noqa: E402
from course_build.paths import DIST  # noqa: E402
from course_build.server import make_server  # noqa: E402

TIMEOUT_MS = 240_000
NOTEBOOK = "notebook/notebooks/index.html?path=d8.ipynb"


def d8_ready(page: Page) -> None:
    expect(page.locator("#boot-status")).to_have_text("Python is ready.", timeout=TIMEOUT_MS)


def notebook_shown(page: Page) -> None:
    heading = page.get_by_role("heading", name="D8 · Two heads of dimension one")
    expect(heading).to_be_visible(timeout=TIMEOUT_MS)


def numbers_printed(page: Page) -> None:
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    expect(page.get_by_text("concatenated heads 1.3760, 0.8744")).to_be_visible(
        timeout=TIMEOUT_MS)


def cold(chromium: BrowserType, url: str, *marks: Callable[[Page], None]) -> list[float]:
    """Seconds from navigation to each mark, in order, in a browser with a fresh profile."""
    with tempfile.TemporaryDirectory() as profile:
        context = chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        try:
            page = context.new_page()
            started = time.perf_counter()
            page.goto(url)
            seconds = []
            for mark in marks:
                mark(page)
                seconds.append(time.perf_counter() - started)
            return seconds
        finally:
            context.close()


def median(values: list[float]) -> str:
    return f"{statistics.median(values):6.2f} s  ({min(values):.2f}-{max(values):.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not (NOTEBOOK_DIST / "jupyter-lite.json").is_file():
        sys.exit("dist/ is not built: run `python3 build.py bench --notebook`")
    server = make_server(DIST)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    d8: list[float] = []
    ui: list[float] = []
    printed: list[float] = []
    try:
        with sync_playwright() as playwright:
            for run in range(args.runs):
                d8 += cold(playwright.chromium, base + "d8/", d8_ready)
                shown, numbers = cold(playwright.chromium, base + NOTEBOOK, notebook_shown,
                                      numbers_printed)
                ui.append(shown)
                printed.append(numbers)
                print(f"run {run + 1}/{args.runs}: D8 {d8[-1]:.2f} s, notebook shown "
                      f"{shown:.2f} s, numbers printed {numbers:.2f} s", flush=True)
    finally:
        server.shutdown()
        server.server_close()
    print(f"\nCold, headless Chromium, {args.runs} runs, median (min-max):")
    print(f"  D8, Python ready              {median(d8)}")
    print(f"  D8 notebook, shown            {median(ui)}")
    print(f"  D8 notebook, numbers printed  {median(printed)}")
    ratio = statistics.median(printed) / statistics.median(d8)
    print(f"  ratio notebook / D8           {ratio:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

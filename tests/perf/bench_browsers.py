"""Time to Python-ready of D8 in Chromium, Firefox ESR and WebKitGTK, cold and warm.

Run it through `python3 build.py bench-browsers [--runs N]` (it needs a built dist/). Not a
pytest module. In each run the engines take turns, each with a fresh profile: cold is the
first load, warm a reload in that profile. The figure is the page's own "python-ready"
performance mark (boot.js sets it when main.py says Python is ready), so every engine is
timed on its own clock from navigation start, however its driver waits. Prints each
engine's medians and their ratio to Chromium's in the same run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Playwright, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests" / "e2e")]
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from course_build.machine import CHROMIUM, CHROMIUM_ARGS, FIREFOX  # noqa: E402
from course_build.paths import DIST  # noqa: E402
from course_build.server import make_server  # noqa: E402
from cross_browser import webkit_session  # noqa: E402

READY = "Python is ready."
TIMEOUT_S = 120
READ_MARK = "return performance.getEntriesByName('python-ready')[0].startTime / 1000"
Timing = tuple[float, float]  # (cold, warm) seconds


def chromium(playwright: Playwright, url: str) -> Timing:
    # A persistent profile: an incognito context's memory cache keeps no 9.6 MB wasm.
    with tempfile.TemporaryDirectory() as profile:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=list(CHROMIUM_ARGS))
        try:
            page = context.new_page()

            def ready() -> float:
                expect(page.locator("#boot-status")).to_have_text(READY, timeout=TIMEOUT_S * 1000)
                return float(page.evaluate(f"() => {{ {READ_MARK} }}"))

            page.goto(url)
            cold = ready()
            page.reload()
            return cold, ready()
        finally:
            context.close()


def firefox(url: str) -> Timing:
    script = ROOT / "tests" / "perf" / "firefox_ready.mjs"
    done = subprocess.run(["node", str(script), FIREFOX, url], capture_output=True,
                          text=True, check=True, timeout=3 * TIMEOUT_S, cwd=ROOT)
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    return float(figures["cold"]), float(figures["warm"])


def webkit(url: str) -> Timing:
    with webkit_session() as driver:

        def ready() -> float:
            WebDriverWait(driver, TIMEOUT_S, poll_frequency=0.1).until(
                lambda d: d.find_element(By.ID, "boot-status").text == READY)
            return float(driver.execute_script(READ_MARK))

        driver.get(url)
        cold = ready()
        driver.refresh()
        return cold, ready()


def median_line(name: str, timings: list[Timing], baseline: list[Timing]) -> str:
    cold = statistics.median(t[0] for t in timings)
    warm = statistics.median(t[1] for t in timings)
    ratio_cold = cold / statistics.median(t[0] for t in baseline)
    ratio_warm = warm / statistics.median(t[1] for t in baseline)
    return f"{name:<9} {cold:>9.2f} {ratio_cold:>11.2f} {warm:>9.2f} {ratio_warm:>11.2f}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args(argv).runs
    server = make_server(DIST)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/d8/"
    results: dict[str, list[Timing]] = {"chromium": [], "firefox": [], "webkit": []}
    with sync_playwright() as playwright:
        engines: dict[str, Callable[[str], Timing]] = {
            "chromium": lambda u: chromium(playwright, u),
            "firefox": firefox,
            "webkit": webkit,
        }
        for run in range(1, runs + 1):
            for name, measure in engines.items():
                cold, warm = measure(url)
                results[name].append((cold, warm))
                print(f"run {run} {name:<9} cold {cold:6.2f} s  warm {warm:6.2f} s", flush=True)
    server.shutdown()
    print(f"\nD8, seconds to Python-ready, median of {runs} (ratio: to Chromium in this run)")
    print(f"{'engine':<9} {'cold':>9} {'× Chromium':>11} {'warm':>9} {'× Chromium':>11}")
    for name, timings in results.items():
        print(median_line(name, timings, results["chromium"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

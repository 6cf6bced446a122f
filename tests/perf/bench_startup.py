"""Start-up benchmark: D8 against a bare PyScript + Pyodide page in headless Chromium.

Run it through `python3 build.py bench [--runs N] [--json PATH]` (it needs a built dist/).
Not a pytest module. Each run loads, interleaved, the bare page and D8, on localhost and on
a throttled link (Chromium's network emulation, 50 Mbit/s down, 40 ms latency), each cold
(a browser with a fresh profile) and then warm (a new tab in that profile: its HTTP cache,
compiled-code cache and, for D8, its service worker). It records seconds to "Python is
ready.", first contentful paint, the bytes the server sent for the requests that came in
before Python was ready (not the service worker's precache, which starts then), split into
runtime and our own, and, on warm localhost D8, the latency from a key on a projection
slider to the projected numbers changing in the DOM, and from a pointer move dragging
Explore's query to its readout and figure changing, as it is and with the CPU slowed four
times (Lighthouse's mobile profile). Ratios are medians of per-run ratios, with their range.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import IO, Any, ClassVar

from playwright.sync_api import BrowserContext, BrowserType, Page, expect, sync_playwright
from probes import (
    DRAG_LATENCIES,
    FIRST_PAINT,
    LATENCIES,
    RECORD_READY,
    THROTTLED,
    WATCH_DRAG,
    WATCH_SLIDER,
    percentile,
    split_bytes,
    spread,
)

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests" / "e2e")]
from course_build.machine import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from course_build.paths import DIST  # noqa: E402
from course_build.server import QuietHandler, QuietServer  # noqa: E402
from sites import CACHES_WHEN_CONTROLLED  # noqa: E402

READY = "Python is ready."
TIMEOUT_MS = 120_000
KEY_PRESSES = 240
POINTER_MOVES = 240
CPU_SLOWDOWN = 4.0  # Lighthouse's mobile profile: the CPU slowed four times (CDP)
PROFILES = ("localhost", "throttled")
PAGES = ("bare", "d8")
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


class CountingHandler(QuietHandler):
    """Serves the site and logs the body bytes it sends: when the request came in (seconds
    since the epoch), its path and the bytes. What left the server."""

    sent: ClassVar[list[tuple[float, str, int]]] = []  # shared by every request to the one server
    arrived = 0.0

    def do_GET(self) -> None:
        self.arrived = time.time()
        super().do_GET()

    def copyfile(self, source: IO[bytes], outputfile: IO[bytes]) -> None:  # type: ignore[override]
        data = source.read()
        outputfile.write(data)
        self.sent.append((self.arrived, self.path.split("?")[0], len(data)))


@dataclass
class Visit:
    ready_s: float
    first_paint_ms: float
    runtime_bytes: int
    own_bytes: int


def visit(context: BrowserContext, url: str, profile: str) -> tuple[Visit, Page]:
    """Open url in a new tab, wait for Python; return what it took and the tab."""
    page = context.new_page()
    if profile == "throttled":
        session = context.new_cdp_session(page)
        session.send("Network.enable")
        session.send("Network.emulateNetworkConditions", THROTTLED)
    page.add_init_script(RECORD_READY)
    CountingHandler.sent.clear()
    page.goto(url)
    expect(page.locator("#boot-status")).to_have_text(READY, timeout=TIMEOUT_MS)
    ready_ms = float(page.evaluate("() => window.__benchReadyAt"))
    # The server shares this machine's clock: keep what was asked for before Python was ready.
    ready_at = float(page.evaluate("() => performance.timeOrigin + window.__benchReadyAt")) / 1000
    before: Counter[str] = Counter()
    for arrived, path, size in CountingHandler.sent:
        if arrived <= ready_at:
            before[path] += size
    runtime, ours = split_bytes(before)
    first_paint = float(page.evaluate(FIRST_PAINT) or "nan")
    return Visit(ready_ms / 1000, first_paint, runtime, ours), page


def slider_latencies(page: Page) -> list[float]:
    """Milliseconds from each key on a projection slider to the projected numbers changing."""
    page.get_by_label("Clearly different, by more than 0.1.").check()
    page.get_by_role("button", name="Lock in my prediction").click()
    slider = page.get_by_label("Output row 1, head A, slider", exact=True)
    expect(slider).to_be_visible()
    page.evaluate(WATCH_SLIDER, ["w11_range", "after_1", "after_2"])
    slider.focus()
    for press in range(KEY_PRESSES):  # 1 -> 1.1 -> 1 -> ...: every key changes the vector
        page.keyboard.press("ArrowRight" if press % 2 == 0 else "ArrowLeft")
    expect(page.get_by_label("Output row 1, head A", exact=True)).to_have_value("1")
    latencies: list[float] = page.evaluate(LATENCIES)
    return latencies


def drag_latencies(page: Page, slowdown: float = 1) -> list[list[float]]:
    """Milliseconds from a pointer move on Explore's query to its readout and figure changing,
    over POINTER_MOVES moves of one mouse drag (the prediction is locked already), with the
    CPU slowed `slowdown` times by Chromium's emulation."""
    plane = page.locator("#explore_plane")
    plane.scroll_into_view_if_needed()
    handle = page.locator("#explore_query_handle").bounding_box()
    box = plane.bounding_box()
    assert handle is not None
    assert box is not None
    page.evaluate(WATCH_DRAG, ["explore_query_handle", "explore_readout"])
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": slowdown})
    page.evaluate("() => { document.getElementById('announcer').textContent = ''; }")
    page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    page.mouse.down()
    step = box["width"] / 30  # two of the grid's tenths: every move lands somewhere new
    for move in range(POINTER_MOVES):
        across = box["x"] + step * (2 + move % 26)
        page.mouse.move(across, box["y"] + box["height"] * 0.4)
    page.mouse.up()
    expect(page.locator("#announcer")).to_have_text(re.compile(r"^Query at "))
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    cdp.detach()
    latencies: list[list[float]] = page.evaluate(DRAG_LATENCIES)
    return latencies


def measure(chromium: BrowserType, base: str, name: str, profile: str) -> dict[str, Any]:
    """One cold and one warm visit of a page in a fresh browser profile."""
    with tempfile.TemporaryDirectory() as folder:
        context = chromium.launch_persistent_context(
            folder, executable_path=CHROMIUM, args=list(CHROMIUM_ARGS)
        )
        try:
            cold, page = visit(context, f"{base}{name}/", profile)
            if name == "d8":  # a second visit is served by the worker the first installed
                page.evaluate(CACHES_WHEN_CONTROLLED)
            page.close()
            warm, page = visit(context, f"{base}{name}/", profile)
            latencies: list[float] = []
            drags: list[list[float]] = [[], []]
            slowed: list[list[float]] = [[], []]
            if (name, profile) == ("d8", "localhost"):
                latencies, drags = slider_latencies(page), drag_latencies(page)
                slowed = drag_latencies(page, CPU_SLOWDOWN)
        finally:
            context.close()
    return {"cold": asdict(cold), "warm": asdict(warm), "latencies_ms": latencies,
            "drag_ms": drags, "drag_ms_slowed": slowed}


def ratios(runs: list[dict[str, Any]], profile: str, when: str) -> list[float]:
    return [
        r[profile]["d8"][when]["ready_s"] / r[profile]["bare"][when]["ready_s"] for r in runs
    ]


def summarise(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians with their spread, and the ratios D8 / bare as medians of per-run ratios."""
    summary: dict[str, Any] = {}
    for profile in PROFILES:
        for name in PAGES:
            for when in ("cold", "warm"):
                visits = [r[profile][name][when] for r in runs]
                summary[f"{profile} {name} {when}"] = {
                    key: [v[key] for v in visits] for key in visits[0]
                }
        for when in ("cold", "warm"):
            summary[f"{profile} ratio {when}"] = ratios(runs, profile, when)
    latencies = [r["localhost"]["d8"]["latencies_ms"] for r in runs]
    summary["slider p50 ms"] = [percentile(values, 0.50) for values in latencies]
    summary["slider p95 ms"] = [percentile(values, 0.95) for values in latencies]
    summary["slider events"] = [len(values) for values in latencies]
    for key, which, field in (("drag", 0, "drag_ms"), ("drag stamped", 1, "drag_ms"),
                              ("slowed drag", 0, "drag_ms_slowed"),
                              ("slowed drag stamped", 1, "drag_ms_slowed")):
        drags = [r["localhost"]["d8"][field][which] for r in runs]
        summary[f"{key} p50 ms"] = [percentile(values, 0.50) for values in drags]
        summary[f"{key} p95 ms"] = [percentile(values, 0.95) for values in drags]
        summary[f"{key} frames"] = [len(values) for values in drags]
    return summary


def report(summary: dict[str, Any], runs: int) -> None:
    mb = 1_000_000
    print(f"\nStart-up in headless Chromium, {runs} runs; median (min-max).")
    head = f"{'':22}{'ready s':>18}{'first paint ms':>22}{'MB runtime + ours':>22}"
    for profile in PROFILES:
        print(f"\n{profile}\n{head}")
        for name in PAGES:
            for when in ("cold", "warm"):
                f = summary[f"{profile} {name} {when}"]
                runtime = statistics.median(f["runtime_bytes"]) / mb
                ours = statistics.median(f["own_bytes"]) / mb
                paint = statistics.median(f["first_paint_ms"])
                print(f"{name + ' ' + when:22}{spread(f['ready_s']):>18}{paint:>22.0f}"
                      f"{runtime:>14.2f} + {ours:.2f}")
        for when in ("cold", "warm"):
            print(f"{'D8 / bare, ' + when:22}{spread(summary[f'{profile} ratio {when}']):>18}")
    print(f"\nSlider key to projected numbers (D8, warm, localhost; "
          f"{min(summary['slider events'])}+ events a run): "
          f"p50 {spread(summary['slider p50 ms'])} ms, p95 {spread(summary['slider p95 ms'])} ms")
    print(f"Pointer move to Explore's readout and figure (D8, warm, localhost; {POINTER_MOVES} "
          f"moves a run, drawn in {min(summary['drag frames'])}+ frames): "
          f"p50 {spread(summary['drag p50 ms'])} ms, p95 {spread(summary['drag p95 ms'])} ms; "
          f"from the events' timestamps, p50 {spread(summary['drag stamped p50 ms'])} ms, "
          f"p95 {spread(summary['drag stamped p95 ms'])} ms")
    print(f"The same, the CPU slowed {CPU_SLOWDOWN:g}x (drawn in "
          f"{min(summary['slowed drag frames'])}+ frames): "
          f"p50 {spread(summary['slowed drag p50 ms'])} ms, "
          f"p95 {spread(summary['slowed drag p95 ms'])} ms; from the events' timestamps, "
          f"p50 {spread(summary['slowed drag stamped p50 ms'])} ms, "
          f"p95 {spread(summary['slowed drag stamped p95 ms'])} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, default=DIST / "bench.json")
    args = parser.parse_args()
    if not (DIST / "d8" / "index.html").is_file():
        sys.exit("dist/ is not built: run `python3 build.py bench`")
    runs: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        shutil.copytree(DIST, site)
        (site / "bare").mkdir()
        (site / "bare" / "index.html").write_text(BARE_HTML, encoding="utf-8")
        (site / "bare" / "pyscript.toml").write_text(BARE_CONFIG, encoding="utf-8")
        handler = partial(CountingHandler, directory=str(site))
        server = QuietServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}/"
        try:
            with sync_playwright() as playwright:
                for run in range(args.runs):
                    result: dict[str, Any] = {p: {} for p in PROFILES}
                    order = PAGES if run % 2 == 0 else PAGES[::-1]
                    for profile in PROFILES:
                        for name in order:
                            result[profile][name] = measure(
                                playwright.chromium, base, name, profile)
                    runs.append(result)
                    print(f"run {run + 1}/{args.runs}: D8 / bare cold "
                          f"{ratios(runs, 'localhost', 'cold')[-1]:.2f} on localhost, "
                          f"{ratios(runs, 'throttled', 'cold')[-1]:.2f} throttled", flush=True)
        finally:
            server.shutdown()
            server.server_close()
    summary = summarise(runs)
    report(summary, args.runs)
    args.json.write_text(json.dumps({"summary": summary, "runs": runs}, indent=1) + "\n")
    print(f"\nWrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

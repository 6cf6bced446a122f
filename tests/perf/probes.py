"""What the start-up benchmark measures in the page and at the server, as reusable pieces."""

from __future__ import annotations

import statistics
from collections import Counter

# Injected through the DevTools protocol, so the page's CSP does not apply to it: the time
# from navigation start until #boot-status reads "Python is ready.".
RECORD_READY = """
new MutationObserver((_, observer) => {
  const status = document.getElementById("boot-status");
  if (status && status.textContent === "Python is ready.") {
    window.__benchReadyAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
"""
FIRST_PAINT = """() =>
  performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null"""
# From a key's own event time on the slider to the projected numbers changing in the DOM:
# the handler's work, PyScript's dispatch and the DOM update, as the learner meets them.
WATCH_SLIDER = """(ids) => {
  const [slider, ...cells] = ids.map((id) => document.getElementById(id));
  window.__benchLatencies = [];
  let pressedAt = null;
  slider.addEventListener("keydown", (event) => { pressedAt = event.timeStamp; }, true);
  const observer = new MutationObserver(() => {
    if (pressedAt === null) return;
    window.__benchLatencies.push(performance.now() - pressedAt);
    pressedAt = null;
  });
  for (const cell of cells) {
    observer.observe(cell, { subtree: true, childList: true, characterData: true });
  }
}"""
LATENCIES = "() => window.__benchLatencies"
# A drag on Explore's plane: from the first pointer move that the page has not yet drawn to the
# moment the readout beside the plane changes (the page writes it in the same call as the figure,
# and after it). Two
# clocks: from the move's dispatch to the page, and from its event's timestamp, which Chromium
# takes before it holds continuous input back to the next animation frame.
WATCH_DRAG = """([handleId, readoutId]) => {
  window.__benchDragStop?.();  // a drag measured before on this page: its watch ends here
  const handle = document.getElementById(handleId);
  const readout = document.getElementById(readoutId);
  window.__benchDrag = [];
  window.__benchDragStamped = [];
  let movedAt = null;
  let stamp = null;
  // The first event of a move that the page hears: Chromium's pointerrawupdate comes as the
  // move does; pointermove waits for the next animation frame.
  const type = "onpointerrawupdate" in window ? "pointerrawupdate" : "pointermove";
  const heard = (event) => {
    if (movedAt !== null) return;
    movedAt = performance.now();
    stamp = event.timeStamp;
  };
  handle.addEventListener(type, heard, true);
  const observer = new MutationObserver(() => {
    if (movedAt === null) return;
    const now = performance.now();
    window.__benchDrag.push(now - movedAt);
    window.__benchDragStamped.push(now - stamp);
    movedAt = null;
  });
  observer.observe(readout, { childList: true, subtree: true, characterData: true });
  window.__benchDragStop = () => {
    observer.disconnect();
    handle.removeEventListener(type, heard, true);
  };
}"""
DRAG_LATENCIES = "() => [window.__benchDrag, window.__benchDragStamped]"
# Chromium's network emulation for the throttled profile: 50 Mbit/s down, 40 ms latency.
THROTTLED = {
    "offline": False,
    "latency": 40,
    "downloadThroughput": 50_000_000 / 8,
    "uploadThroughput": 20_000_000 / 8,
}
RUNTIME_PREFIXES = ("pyodide/", "pyscript/", "runtime/")


def split_bytes(sent: Counter[str]) -> tuple[int, int]:
    """(runtime bytes, our own bytes) among the bytes sent, by the folder of each path."""
    runtime = ours = 0
    for path, size in sent.items():
        if path.lstrip("/").startswith(RUNTIME_PREFIXES):
            runtime += size
        else:
            ours += size
    return runtime, ours


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of values (share in 0..1)."""
    ordered = sorted(values)
    return ordered[max(0, round(share * len(ordered)) - 1)]


def spread(values: list[float]) -> str:
    """The median with its range: "0.52 (0.48-0.57)"."""
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"

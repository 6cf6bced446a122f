"""What the machine needs beyond Python: Debian's browsers for the tests, and the npm runtime."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from . import runtime
from .paths import run

CHROMIUM = "/usr/bin/chromium"
# The other engines the end-to-end tests drive: Firefox over WebDriver BiDi (puppeteer-core
# from npm), WebKitGTK through WebKitWebDriver and MiniBrowser (Selenium) on a virtual display.
FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
XVFB_RUN = "/usr/bin/xvfb-run"
# What setup() installs with apt, by the file each package brings.
APT_PACKAGES = {
    CHROMIUM: "chromium",
    FIREFOX: "firefox-esr",
    WEBKIT_DRIVER: "webkit2gtk-driver",
    XVFB_RUN: "xvfb",
    "/usr/bin/xauth": "xauth",  # xvfb-run needs it; xvfb only recommends it
}
# Chromium turns its in-process heap profiler on at random in a small share of its launches,
# and then passes --subproc-heap-profiling to some of its renderers. When that profiler samples
# an allocation made while Pyodide's wasm runs on a stack of its own (JSPI), its stack walk reads
# past that stack and the renderer dies with SIGSEGV: Playwright's "Page crashed". Setting the
# feature's probabilities to 0 keeps it off. Chromium keeps only the last --enable-features it
# is given, and Playwright passes one of its own first, so this one repeats Playwright's
# features (tests/e2e/test_launch.py fails if it ever drops one).
PLAYWRIGHT_FEATURES = ("CDPScreenshotNewSurface", "SkipListAccountsWithoutGaiaCookies")
NO_HEAP_PROFILER = "HeapProfilerReporting:stable-probability/0/nonstable-probability/0"
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--enable-features=" + ",".join((*PLAYWRIGHT_FEATURES, NO_HEAP_PROFILER)),
)


def apt_install(packages: list[str]) -> int:
    """Install Debian packages as root; elsewhere say in one line what to run. 0 when done."""
    install = "DEBIAN_FRONTEND=noninteractive apt-get install -y"
    command = f"apt-get update && {install} {' '.join(packages)}"
    if os.geteuid() != 0:
        print(f"{', '.join(packages)} missing. Install as root:\n  sudo sh -c '{command}'")
        return 1
    run(["sh", "-c", command])
    return 0


def command(name: str, args: list[str]) -> int:
    """`setup`: takes no arguments."""
    if args:
        print(f"build.py setup: takes no arguments, not {' '.join(args)!r}", file=sys.stderr)
        return 2
    return setup()


def setup() -> int:
    """Install what a fresh machine lacks: the browsers from apt, the npm runtime."""
    missing = [package for path, package in APT_PACKAGES.items() if not Path(path).exists()]
    if missing and (code := apt_install(missing)) != 0:
        return code
    runtime.ensure_runtime()
    return 0

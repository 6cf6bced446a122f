"""The D8 journey that Firefox and WebKit walk, and how their tests reach each engine."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import build
import pytest
from learner import MIXED_ANSWERS, RIGHT_PREDICTION
from selenium import webdriver
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

# Accessible names match exactly in both drivers, so the reading is named in full.
RIGHT_READING = ("Each head normalises over its own scores, so a key that is strong in one "
                 "coordinate cannot be outvoted by the other coordinate inside that head.")
GRADED = "6 of 6 numbers within tolerance, 5 needed. No reading locked in yet."
GATE_STATUS = "6 of 6 numbers within tolerance, 5 needed. The right reading is locked in."
HEAD_OUTPUTS = {"head A, coordinate 1": "1.3760", "head B, coordinate 2": "0.8744"}
JOURNEY_SECONDS = 480  # two starts and about forty steps, on a machine that may be busy


def journey(d8_url: str) -> dict[str, Any]:
    """What the learner chooses and types on D8, and what the page then shows."""
    return {
        "url": d8_url,
        "prediction": RIGHT_PREDICTION,
        "reading": RIGHT_READING,
        "answers": MIXED_ANSWERS,
        "head_outputs": HEAD_OUTPUTS,
        "graded": GRADED,
        "gate_status": GATE_STATUS,
    }


def require(program: str, package: str) -> str:
    """The path of program, or a failure (never a skip) saying how to install it."""
    found = program if Path(program).is_absolute() else shutil.which(program)
    if found is None or not Path(found).exists():
        pytest.fail(f"{program} is missing, so this engine cannot be tested on this machine: "
                    f"run `python3 build.py setup` (it installs Debian's {package})")
    return found


class XvfbService(Service):
    """WebKitWebDriver started through xvfb-run, so MiniBrowser gets a virtual display."""

    def command_line_args(self) -> list[str]:
        return ["-a", build.WEBKIT_DRIVER, f"--port={self.port}"]


@contextlib.contextmanager
def webkit_session() -> Iterator[WebDriver]:
    """A WebKitGTK MiniBrowser session (fresh profile) on a fresh virtual display."""
    xvfb_run = require(build.XVFB_RUN, "xvfb")
    require(build.WEBKIT_DRIVER, "webkit2gtk-driver")
    # Its own session, so xvfb-run, Xvfb, the driver and MiniBrowser end together.
    service = XvfbService(executable_path=xvfb_run, popen_kw={"start_new_session": True})
    service.start()
    try:
        with warnings.catch_warnings():
            # Selenium 4.51 itself passes this deprecated argument whenever it connects.
            warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
            driver = webdriver.Remote(command_executor=service.service_url, options=Options())
        try:
            yield driver
        finally:
            driver.quit()
    finally:
        group = service.process.pid
        service.stop()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGTERM)

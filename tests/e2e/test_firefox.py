"""D8 in Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core (Node.js)."""

from __future__ import annotations

import json
import subprocess

import build
from cross_browser import JOURNEY_SECONDS, journey, require

SCRIPT = build.ROOT / "tests" / "e2e" / "firefox_journey.mjs"


def test_the_d8_journey_passes_in_firefox(d8_url: str) -> None:
    firefox = require(build.FIREFOX, "firefox-esr")
    node = require("node", "nodejs")
    assert (build.NODE_MODULES / "puppeteer-core").is_dir(), (
        "puppeteer-core is missing: run `python3 build.py setup` (npm ci)")
    command = [node, str(SCRIPT), firefox, json.dumps(journey(d8_url))]
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          timeout=JOURNEY_SECONDS, cwd=build.ROOT)
    said = f"{done.stdout}\n{done.stderr}"
    assert done.returncode == 0, said
    assert "step: a reload brought everything back" in done.stdout, said

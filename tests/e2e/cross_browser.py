"""The D8 journey that Firefox and WebKit walk, and the checks both of their tests share."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from learner import MIXED_ANSWERS, RIGHT_PREDICTION

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

"""The suite's own pytest settings (pyproject.toml): a hanging test fails; the run goes on."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from course_build.paths import PYPROJECT

HANGS = """
import time

def test_hangs():
    time.sleep(60)

def test_after_it():
    pass
"""


def test_a_hanging_test_fails_at_the_timeout_and_the_next_test_still_runs(tmp_path: Path) -> None:
    (tmp_path / "test_hang.py").write_text(HANGS, encoding="utf-8")
    # The project's own configuration, with its timeout shortened from 15 minutes to 2 s. The
    # run must end well before the 60 s sleep: `timeout=50` raises if it does not.
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(PYPROJECT), "--rootdir", str(tmp_path),
         "-o", "timeout=2", "-p", "no:cacheprovider", str(tmp_path)],
        capture_output=True, text=True, timeout=50, check=False)
    assert done.returncode == 1, done.stdout
    assert "Timeout (>2.0s)" in done.stdout
    assert "1 failed, 1 passed" in done.stdout

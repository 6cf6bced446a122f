"""Two workers (tests/workers.py): a test marked `alone` shares the machine with no other test,
and what one worker makes once, the other gets."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from course_build.paths import PYPROJECT

TESTS = Path(__file__).resolve().parent

CONFTEST = """
import os
import pytest
from workers import machine_turn, once_per_run

@pytest.fixture(scope="session")
def made(pytestconfig, tmp_path_factory):
    def make():
        with open(os.environ["MADE"], "a") as log:
            log.write("made\\n")
        return {"answer": 42}
    return once_per_run(pytestconfig, tmp_path_factory, "answer", make)
"""

# Each test writes when it ran; the one marked `alone` also holds on long enough that the other
# worker, unhindered, would start a test beside it.
TIMED = """
import os, time
import pytest

def ran(name, made):
    assert made == {"answer": 42}
    start = time.monotonic()
    time.sleep(0.3 if name != "alone" else 1.0)
    with open(os.environ["RUNS"], "a") as runs:
        runs.write(f"{name} {start} {time.monotonic()}\\n")

@pytest.mark.parametrize("n", range(8))
def test_shared(n, made):
    ran(f"shared{n}", made)

@pytest.mark.alone
def test_alone(made):
    ran("alone", made)

@pytest.mark.parametrize("n", range(8, 16))
def test_shared_after(n, made):
    ran(f"shared{n}", made)
"""


def test_an_alone_test_runs_beside_no_other_and_a_thing_made_once_serves_both_workers(
        tmp_path: Path) -> None:
    made, runs = tmp_path / "made.log", tmp_path / "runs.log"
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_timed.py").write_text(TIMED, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(PYPROJECT), "--rootdir", str(tmp_path),
         "-p", "no:cacheprovider", "-n", "2", "--dist", "worksteal", str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "RUNS": str(runs), "MADE": str(made), "PYTHONPATH": str(TESTS)})
    assert done.returncode == 0, done.stdout
    assert "17 passed" in done.stdout
    assert made.read_text(encoding="utf-8") == "made\n"  # once, though both workers asked
    spans = {name: (float(start), float(end))
             for name, start, end in map(str.split, runs.read_text(encoding="utf-8").splitlines())}
    start, end = spans.pop("alone")
    beside = [name for name, (s, e) in spans.items() if s < end and start < e]
    assert beside == [], f"{beside} ran beside the test marked alone"
    overlapping = [a for a in spans for b in spans
                   if a < b and spans[a][0] < spans[b][1] and spans[b][0] < spans[a][1]]
    assert overlapping, "no two shared tests ran at once: the workers took turns one by one"

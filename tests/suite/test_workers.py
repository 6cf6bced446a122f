"""Two workers (tests/workers.py): a test marked `alone` or `timed` shares the machine with no
other test, a timed test stops what runs in the background of either worker, and what one worker
makes once, the other gets."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from course_build.paths import PYPROJECT

TESTS = Path(__file__).resolve().parents[1]  # where workers.py is

CONFTEST = """
import os
import subprocess
import sys
from pathlib import Path
import pytest
from workers import in_the_background, machine_turn, once_per_run, run_folder

TICK = "import time\\nwhile True:\\n    print(time.monotonic(), flush=True)\\n    time.sleep(0.01)"

@pytest.fixture(scope="session", autouse=True)
def ticking(pytestconfig, tmp_path_factory):
    # In each worker's background, a process that writes the time every 10 ms.
    ticks = Path(os.environ["TICKS"]) / os.environ.get("PYTEST_XDIST_WORKER", "main")
    with ticks.open("w") as out, subprocess.Popen([sys.executable, "-c", TICK], stdout=out,
                                                  start_new_session=True) as process:
        with in_the_background(run_folder(pytestconfig, tmp_path_factory), process.pid):
            yield
            process.kill()

@pytest.fixture(scope="session")
def made(pytestconfig, tmp_path_factory):
    def make():
        with open(os.environ["MADE"], "a") as log:
            log.write("made\\n")
        return {"answer": 42}
    return once_per_run(pytestconfig, tmp_path_factory, "answer", make)
"""

# Each test writes when it ran; those marked `alone` and `timed` also hold on long enough that
# the other worker, unhindered, would start a test beside them.
TIMED = """
import os, time
import pytest

def ran(name, made):
    assert made == {"answer": 42}
    start = time.monotonic()
    time.sleep(1.0 if name in ("alone", "timed") else 0.3)
    with open(os.environ["RUNS"], "a") as runs:
        runs.write(f"{name} {start} {time.monotonic()}\\n")

@pytest.mark.parametrize("n", range(8))
def test_shared(n, made):
    ran(f"shared{n}", made)

@pytest.mark.alone
def test_alone(made):
    ran("alone", made)

@pytest.mark.timed
def test_timed(made):
    ran("timed", made)

@pytest.mark.parametrize("n", range(8, 16))
def test_shared_after(n, made):
    ran(f"shared{n}", made)
"""


def test_alone_and_timed_tests_run_beside_no_other_a_timed_one_stops_the_background_and_one_make_serves_both(  # noqa: E501
        tmp_path: Path) -> None:
    made, runs, ticks = tmp_path / "made.log", tmp_path / "runs.log", tmp_path / "ticks"
    ticks.mkdir()
    (tmp_path / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    (tmp_path / "test_timed.py").write_text(TIMED, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(PYPROJECT), "--rootdir", str(tmp_path),
         "-p", "no:cacheprovider", "-n", "2", "--dist", "worksteal", str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "RUNS": str(runs), "MADE": str(made), "TICKS": str(ticks),
             "PYTHONPATH": str(TESTS)})
    assert done.returncode == 0, done.stdout
    assert "18 passed" in done.stdout
    assert made.read_text(encoding="utf-8") == "made\n"  # once, though both workers asked
    spans = {name: (float(start), float(end))
             for name, start, end in map(str.split, runs.read_text(encoding="utf-8").splitlines())}
    for alone in ("alone", "timed"):
        start, end = spans[alone]
        beside = [name for name, (s, e) in spans.items()
                  if name != alone and s < end and start < e]
        assert beside == [], f"{beside} ran beside the test marked {alone}"
    start, end = spans.pop("timed")
    spans.pop("alone")
    for worker in ("gw0", "gw1"):  # each worker's background stopped for the timed test only
        times = [float(t) for t in (ticks / worker).read_text(encoding="utf-8").split()]
        assert [t for t in times if start < t < end] == [], f"{worker}'s ticked"
        assert any(t > end for t in times), f"{worker}'s stayed stopped"
    overlapping = [a for a in spans for b in spans
                   if a < b and spans[a][0] < spans[b][1] and spans[b][0] < spans[a][1]]
    assert overlapping, "no two shared tests ran at once: the workers took turns one by one"

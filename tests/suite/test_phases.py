"""The suite's phases (course_build/phases.py): every test runs once, a `timed` or `alone` test
with no other test or copy's build beside it, and the copies' builds beside the shared tests."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from course_build.phases import PHASES, outcome, run, split_marks

MARKS = ("timed", "alone", "fresh_clone")

CONFIG = """[pytest]
markers =
    timed: measures time
    alone: runs beside no other test
    fresh_clone: builds a copy
"""
# Each test writes when it ran. The timed and alone tests hold on long enough that a test
# beside them, were there one, would be seen. The copy says when it has started, then waits for
# a shared test to end, and the shared tests wait for the copy to start: each waits at most a
# minute, so phases that do not overlap are seen and fail the test, rather than hang it.
TESTS = """
import os, time
import pytest

def said(word):
    with open(os.environ["RUNS"] + ".said", "a") as log:
        log.write(word + "\\n")

def wait_for(word):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if os.path.exists(os.environ["RUNS"] + ".said"):
            if word in open(os.environ["RUNS"] + ".said").read():
                return
        time.sleep(0.05)

def ran(name, seconds):
    start = time.monotonic()
    time.sleep(seconds)
    with open(os.environ["RUNS"], "a") as runs:
        runs.write(f"{name} {start} {time.monotonic()}\\n")

@pytest.mark.timed
def test_timed():
    ran("timed", 1.0)

@pytest.mark.alone
@pytest.mark.parametrize("n", range(2))
def test_alone(n):
    ran(f"alone{n}", 1.0)

@pytest.mark.fresh_clone
def test_copy():
    start = time.monotonic()
    said("copy started")
    wait_for("shared ended")
    with open(os.environ["RUNS"], "a") as runs:
        runs.write(f"copy {start} {time.monotonic()}\\n")

@pytest.mark.parametrize("n", range(8))
def test_shared(n):
    wait_for("copy started")
    ran(f"shared{n}", 0.3)
    said("shared ended")
"""


@pytest.mark.parametrize("marked", list(itertools.product((False, True), repeat=len(MARKS))))
def test_every_test_is_in_exactly_one_phase(marked: tuple[bool, ...]) -> None:
    names = dict(zip(MARKS, marked, strict=True))
    # A marker expression reads as Python: `and`, `or`, `not` and names.
    picking = [phase.name for phase in PHASES if eval(phase.marks, {}, names)]
    assert len(picking) == 1, (names, picking)


def test_a_run_s_own_markers_join_each_phase_s() -> None:
    assert split_marks(["--durations=15", "-m", "quick or not e2e", "-x", "-mslow"]) == (
        "(quick or not e2e) and (slow)", ["--durations=15", "-x"])
    assert split_marks(["tests/e2e"]) == ("", ["tests/e2e"])
    assert outcome([0, 5, 0, 5]) == 0
    assert outcome([5, 1, 0, 2]) == 1
    assert outcome([5, 5, 5, 5]) == 1  # no test ran at all


def test_the_phases_keep_timed_and_alone_tests_apart_and_run_every_test_once(
    tmp_path: Path
) -> None:
    (tmp_path / "pytest.ini").write_text(CONFIG, encoding="utf-8")
    (tmp_path / "test_marked.py").write_text(TESTS, encoding="utf-8")
    runs = tmp_path / "runs.txt"
    env = {**os.environ, "RUNS": str(runs)}
    assert run(["-p", "no:cacheprovider", "-q"], env, cwd=tmp_path) == 0
    spans = {name: (float(start), float(end)) for name, start, end in
             (line.split() for line in runs.read_text(encoding="utf-8").splitlines())}
    assert sorted(spans) == sorted(["timed", "alone0", "alone1", "copy",
                                    *(f"shared{n}" for n in range(8))])

    def beside(name: str) -> set[str]:
        start, end = spans[name]
        return {other for other, (s, e) in spans.items() if other != name and s < end and start < e}

    assert beside("timed") == set()
    assert beside("alone0") == set()
    assert beside("alone1") == set()
    assert {f"shared{n}" for n in range(8)} & beside("copy")  # the copy built beside the rest
    assert any(beside(f"shared{n}") - {"copy"} for n in range(8))  # on two workers

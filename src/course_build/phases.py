"""The suite in phases: pytest runs of their own, each picking its tests by their markers, so that
the tests that must have the machine to themselves get it with nothing of our own to schedule.

The machines the suite is timed on have two cores, and a browser test leaves one idle part of
the time, so most tests run on two xdist workers. Some must not share the machine:
- `timed` tests measure time (a click's INP, a one-second sync between tabs): they run first,
  one at a time, with nothing else running;
- `alone` tests (Firefox's and WebKit's, tests/e2e/conftest.py) run one at a time: beside
  another test, Firefox's driver once never answered, and WebKit's tests took twice as long;
- `fresh_clone` tests build a copy of the project, a core's worth of work for minutes: they run
  in a phase of their own at the lowest CPU priority, beside the shared phase, taking only what
  its browsers leave idle (little: they mostly run once the shared phase is done).
Every other test runs in the shared phase, on two workers, once the alone phase is done.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .paths import ROOT

NO_TESTS = 5  # pytest's exit status when it selected no test


@dataclass(frozen=True)
class Phase:
    """One pytest run: its name, the markers that pick its tests, and its workers."""

    name: str
    marks: str
    workers: int  # 0: the tests run one at a time in the one process
    background: bool = False  # at the lowest CPU priority, beside the phases after it


PHASES = (
    Phase("timed", "timed", 0),
    Phase("alone", "alone and not timed", 0),
    Phase("copies", "fresh_clone and not timed and not alone", 0, background=True),
    Phase("shared", "not timed and not alone and not fresh_clone", 2),
)
# Runs a command at the lowest CPU priority. A process's nice value counts only against the
# processes of its own session: Linux shares the CPU fairly between sessions first
# ("autogroups"), and each browser runs in a session of its own. So the command gets a session
# of its own too, and that session the lowest priority; what it starts inherits both.
IN_THE_BACKGROUND = ("sh", "-c", 'echo 19 > /proc/self/autogroup 2>/dev/null; exec "$@"', "sh")


def pytest_argv(phase: Phase, marks: str, pytest_args: Sequence[str]) -> list[str]:
    """The command that runs a phase: its tests among those `marks` picks (all, where empty)."""
    picked = f"({phase.marks}) and ({marks})" if marks else phase.marks
    return [sys.executable, "-m", "pytest", "-n", str(phase.workers),
            *(("--dist", "worksteal") if phase.workers else ()), "-m", picked, *pytest_args]


def split_marks(pytest_args: Sequence[str]) -> tuple[str, list[str]]:
    """Take the `-m` expressions out of pytest's arguments, joined with `and`, from the rest:
    each phase adds its own markers to them."""
    marks: list[str] = []
    rest: list[str] = []
    args = iter(pytest_args)
    for arg in args:
        if arg == "-m":
            marks.append(next(args, ""))
        elif arg.startswith("-m") and len(arg) > 2:
            marks.append(arg[2:].removeprefix("="))
        else:
            rest.append(arg)
    return " and ".join(f"({m})" for m in marks if m), rest


def outcome(codes: Sequence[int]) -> int:
    """The run's exit status: the first phase that failed, or 0; a run in which no phase
    selected any test failed too."""
    failed = [code for code in codes if code not in (0, NO_TESTS)]
    if failed:
        return failed[0]
    if all(code == NO_TESTS for code in codes):
        print("build.py test: pytest ran no tests, which counts as a failure.", flush=True)
        return 1
    return 0


def run(pytest_args: Sequence[str], env: dict[str, str], cwd: Path = ROOT) -> int:
    """Run every phase in order, the background one beside those after it; return the run's
    exit status."""
    marks, rest = split_marks(pytest_args)
    codes: list[int] = []
    with tempfile.TemporaryFile("w+") as behind:
        background: subprocess.Popen[str] | None = None
        for phase in PHASES:
            argv = pytest_argv(phase, marks, rest)
            print(f"build.py test: the {phase.name} phase", flush=True)
            if phase.background:  # its output waits in a file until the end, not interleaved
                background = subprocess.Popen([*IN_THE_BACKGROUND, *argv], cwd=cwd, env=env,
                                              stdout=behind, stderr=subprocess.STDOUT,
                                              start_new_session=True, text=True)
            else:
                codes.append(subprocess.run(argv, check=False, cwd=cwd, env=env).returncode)
        if background is not None:
            codes.append(background.wait())
            behind.seek(0)
            print("build.py test: the copies phase, which ran beside the others:", flush=True)
            sys.stdout.write(behind.read())
            sys.stdout.flush()
    return outcome(codes)


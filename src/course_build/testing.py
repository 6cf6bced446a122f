"""The test and benchmark commands: set up, build once, then pytest or one of tests/perf/."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

from . import machine, phases, site
from .paths import ROOT

BUILT_ENV = "ATTENTION_LESSONS_DIST_BUILT"  # set by `build.py test`: the e2e tests skip their build
# The inner loop: the unit tests but the fresh clone's build, and one Chromium journey per
# lesson (marked `quick`).
QUICK = ("-m", "(not e2e and not fresh_clone) or quick")
# Every run names its slowest tests, so the suite's time can be followed from run to run.
SLOWEST = ("--durations=15",)


# The linters, each over what pyproject.toml names for it (mypy's `files`, import-linter's
# contracts on the packages in src/ and web/), failing on any finding.
LINTERS = (("ruff", "check", "src", "tests", "web", "build.py"), ("mypy",),
           ("lint-imports", "--no-logo"))


def command(name: str, args: list[str]) -> int:
    """`lint`, `test [--quick] [pytest's arguments]`, or a benchmark: its script, then its own
    arguments."""
    if name == "lint":
        return lint()
    if name == "test":
        quick = args[:1] == ["--quick"]
        return run_tests(args[1:] if quick else args, quick=quick)
    return bench(args[0], args[1:])


def lint() -> int:
    """Run ruff and mypy; return the first failure's status, or 0 when both find nothing."""
    path = os.pathsep.join(str(ROOT / folder) for folder in ("src", "web"))
    for linter, *linter_args in LINTERS:
        print(f"+ {linter} {' '.join(linter_args)}", flush=True)
        command = [str(Path(sys.executable).parent / linter), *linter_args]  # in .venv/bin/
        code = subprocess.run(command, check=False, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": path}).returncode
        if code != 0:
            print(f"build.py: {linter} found something to mend (exit status {code}).",
                  flush=True)
            return code
    return 0


def run_tests(pytest_args: Sequence[str], *, quick: bool = False) -> int:
    """Set up, lint, build, then run pytest over every test (or the QUICK ones) with the
    arguments, in the suite's phases (course_build/phases.py)."""
    if (code := machine.setup()) != 0 or (code := lint()) != 0:
        return code
    site.build()
    env = {**os.environ, BUILT_ENV: "1"}
    return phases.run([*SLOWEST, *(QUICK if quick else ()), *pytest_args], env)


def bench(script: str, bench_args: Sequence[str]) -> int:
    """Set up, build, then run one of tests/perf/'s benchmarks with the arguments given."""
    if (code := machine.setup()) != 0:
        return code
    site.build()
    benchmark = [sys.executable, str(ROOT / "tests" / "perf" / script), *bench_args]
    return subprocess.run(benchmark, check=False, cwd=ROOT).returncode

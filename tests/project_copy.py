"""A copy of the project as a fresh clone of it would be, for the tests that build one, and
the fixture that builds the copies while the rest of the suite runs (tests/conftest.py makes
it pytest's)."""

from __future__ import annotations

import functools
import inspect
import os
import shutil
import signal
import subprocess
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import nullcontext
from pathlib import Path
from typing import Any, TypeGuard

import pytest

from course_build.notebook import KERNEL_CACHE, WHEEL_CACHE
from course_build.paths import NODE_MODULES
from workers import in_the_background, once_per_run, run_folder

ROOT = Path(__file__).resolve().parents[1]
# What each test module that builds a copy of the project does with it, by module name; the
# `copies` fixture (tests/conftest.py) runs them side by side.
BUILDS: dict[str, Callable[[Path], Any]] = {}


def built_in_a_copy(work: Callable[[Path], Any]) -> Callable[[Path], Any]:
    """Register `work(folder)` as its module's build of a copy; `copies[module]` gives its
    result to that module's test."""
    BUILDS[work.__module__] = work
    return work


def fresh_copy(to: Path, leave_out: Collection[str] = ()) -> Path:
    """Copy into `to` every file git tracks or would track in this checkout, with the tree's
    changes, and none it ignores (no .venv/, dist/, build/), less the paths in `leave_out`."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if name not in leave_out and (ROOT / name).is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, to / name)
    return to


def share_caches(copy: Path) -> None:
    """Give the copy this checkout's npm runtime, PyPI downloads and compiled kernel, which a
    second build would find there anyway: what these tests build is the rest, about 20 s
    sooner each (the kernel's bytecode takes 27 s to compile from nothing)."""
    for cache in (NODE_MODULES, WHEEL_CACHE, KERNEL_CACHE):
        if cache.is_dir():
            link = copy / cache.relative_to(ROOT)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(cache, target_is_directory=True)


def uses_a_copy(item: pytest.Item) -> TypeGuard[pytest.Function]:
    """Whether the test waits for a copy's build: whether its own arguments ask for `copies`
    (every test has it among its fixtures, as it is autouse)."""
    return (isinstance(item, pytest.Function)
            and "copies" in inspect.signature(item.function).parameters)


# Runs a command at the lowest CPU priority. A process's nice value counts only against the
# processes of its own session: Linux shares the CPU fairly between sessions first
# ("autogroups"), and each browser runs in a session of its own. So the command gets a
# session of its own too, and that session the lowest priority; what it starts inherits both.
IN_THE_BACKGROUND = ["sh", "-c", 'echo 19 > /proc/self/autogroup 2>/dev/null; exec "$@"', "sh"]


# The folder of this pytest run (workers.run_folder), once `copies` has started: where a
# background process is counted, so that a timed test in either worker can stop it.
RUN: list[Path] = []


def run_in_the_background(argv: Sequence[str | Path], *, capture_output: bool = False,
                          timeout: float | None = None, **options: Any,
                          ) -> subprocess.CompletedProcess[str]:
    """subprocess.run(argv, text=True, check=False, ...) at the lowest CPU priority, so that a
    copy's build takes only the CPU the other tests leave idle, and does not slow them; and
    stopped while a timed test runs (workers.in_the_background), which nice does not give."""
    pipe = subprocess.PIPE if capture_output else None
    with (subprocess.Popen([*IN_THE_BACKGROUND, *map(str, argv)], start_new_session=True,
                           text=True, stdout=pipe, stderr=pipe, **options) as process,
          in_the_background(RUN[0], process.pid) if RUN else nullcontext()):
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            raise
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def run_copies_last(items: list[pytest.Item]) -> None:
    """Run the tests that wait for a copy's build last: the builds start with the session
    (see `copies`), so by then they have had the whole run to finish in. sort is stable, so
    every other test keeps its place."""
    items.sort(key=uses_a_copy)


@pytest.fixture(scope="session", autouse=True)
def copies(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, Future[Any]]]:
    """Each selected test module's build of a copy (`project_copy.built_in_a_copy`), started
    on a thread of its own as the session's first test starts, and waited for by its module's
    test, which runs last. Each build is a chain of processes (pip, Node, jupyter lite, pytest)
    that keeps about one core busy, started with `run_in_the_background`. A run that selects
    no such test starts none. With two workers, each build runs in one of them, and the other
    gets its result (`workers.once_per_run`)."""
    wanted = {item.module.__name__ for item in request.session.items if uses_a_copy(item)}
    RUN[:] = [run_folder(request.config, tmp_path_factory)]
    with ThreadPoolExecutor(max_workers=len(wanted) or 1) as pool:
        yield {name: pool.submit(once_per_run, request.config, tmp_path_factory, f"copy-{name}",
                                 functools.partial(BUILDS[name], tmp_path_factory.mktemp(name)))
               for name in sorted(wanted)}

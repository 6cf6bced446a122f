"""Two pytest workers share this 2-core machine (`build.py test` runs `-n 2`): each test takes a
turn at it. Two tests share it at once, but a test marked `alone` (each of Firefox's and WebKit's:
DRIVEN in tests/e2e/conftest.py) or `timed` (one that measures time: a click's INP, a one-second
sync between tabs) waits for the other worker's test to end and has the machine to itself until
it ends. A `timed` test also stops the processes run in the background (the copies' builds) until
it ends, in one worker or two. Outside a run with workers, only that stop happens."""

from __future__ import annotations

import fcntl
import os
import pickle
import signal
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")


def workers(config: pytest.Config) -> int:
    """How many pytest workers run this session: 1 without pytest-xdist's `-n`. (Asked of the
    config, not the environment, which a pytest started by a test inherits.)"""
    worker: dict[str, int] = getattr(config, "workerinput", {})
    return worker.get("workercount", 1)


def run_folder(config: pytest.Config, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of this run: the one its workers share (the parent of each worker's own temp
    folder), or its own temp folder with none."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if hasattr(config, "workerinput") else base


@contextmanager
def turn(folder: Path, *, alone: bool) -> Iterator[None]:
    """Hold the machine for one test: shared with one other test, or whole. A test waiting to
    run alone holds the door while it waits, so that the other worker cannot start test after
    test ahead of it; a shared turn only passes through the door."""
    with (folder / "door.lock").open("a") as door, (folder / "machine.lock").open("a") as machine:
        fcntl.flock(door, fcntl.LOCK_EX)
        fcntl.flock(machine, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(door, fcntl.LOCK_UN)
        yield  # closing the files lets go of both locks


def runs_alone(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(mark) is not None for mark in ("alone", "timed"))


def run_alone_first(items: list[pytest.Item]) -> None:
    """Put the tests that run alone first, where the other worker's test they wait for is its
    first one, not one of WebKit's minute-long tests. sort is stable: the rest keep their order."""
    items.sort(key=lambda item: not runs_alone(item))


# This machine's host gives it a little less than its two cores: when both are busy, every
# process on it stops for the rest of the host's 100 ms period, whatever its nice value.
# Measured: two loops that each read the clock saw 3 and 7 gaps of 100 ms in 20 s; one loop
# alone saw none. Chromium's CPU throttling (the INP test's 4x) keeps the page's thread busy
# waiting, a core's worth, so beside a loop at nice 19 the presets' slowest click went over
# 200 ms in 3 runs of 4 (docs/testing.md). A timed test stops the background while it runs.
BACKGROUND = "background"  # in the run's folder: a file named by each background process group


def _signal(group: int, sig: signal.Signals) -> None:
    with suppress(ProcessLookupError):  # it has ended
        os.killpg(group, sig)


@contextmanager
def _registry(folder: Path) -> Iterator[Path]:
    """The background groups' folder, held against every other worker's changes to it."""
    (folder / BACKGROUND).mkdir(exist_ok=True)
    with (folder / f"{BACKGROUND}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield folder / BACKGROUND


def _stopped(registry: Path) -> bool:
    return (registry / "stopped").exists()


@contextmanager
def in_the_background(folder: Path, group: int) -> Iterator[None]:
    """Count the process group `group` (a session's leader, started by this process) among the
    background processes of the run in `folder`, until it ends; stopped now if a timed test
    runs."""
    with _registry(folder) as registry:
        (registry / str(group)).touch()
        if _stopped(registry):
            _signal(group, signal.SIGSTOP)
    try:
        yield
    finally:
        with _registry(folder) as registry:
            (registry / str(group)).unlink()


@contextmanager
def background_stopped(folder: Path) -> Iterator[None]:
    """Stop every background process group of the run in `folder`, and go on with them after."""
    with _registry(folder) as registry:
        (registry / "stopped").touch()
        for group in registry.glob("[0-9]*"):
            _signal(int(group.name), signal.SIGSTOP)
    try:
        yield
    finally:
        with _registry(folder) as registry:
            (registry / "stopped").unlink()
            for group in registry.glob("[0-9]*"):
                _signal(int(group.name), signal.SIGCONT)


@pytest.fixture(autouse=True)
def machine_turn(request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test takes its turn at the machine, set up first and torn down last; a timed test
    with the background processes stopped."""
    folder = run_folder(request.config, tmp_path_factory)
    with ExitStack() as stack:
        if workers(request.config) > 1:
            stack.enter_context(turn(folder, alone=runs_alone(request.node)))
        if request.node.get_closest_marker("timed") is not None:
            stack.enter_context(background_stopped(folder))
        yield


def once_per_run(config: pytest.Config, tmp_path_factory: pytest.TempPathFactory, name: str,
                 make: Callable[[], T]) -> T:
    """make() once in this run, in whichever worker asks first. A worker that asks later waits
    for it and gets what it returned, pickled; if it raised, the later worker tries again."""
    if workers(config) == 1:
        return make()
    folder = run_folder(config, tmp_path_factory)
    kept = folder / f"{name}.pickle"
    with (folder / f"{name}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            made: T = pickle.loads(kept.read_bytes())
            return made
        made = make()
        kept.write_bytes(pickle.dumps(made))
        return made

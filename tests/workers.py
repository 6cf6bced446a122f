"""Two pytest workers share this 2-core machine (`build.py test` runs `-n 2`): each test takes a
turn at it. Two tests share it at once, but a test marked `alone` (one that measures time, a
click's INP or a one-second sync between tabs, and each of Firefox's and WebKit's: DRIVEN in
tests/e2e/conftest.py) waits for the other worker's test to end and has the machine to itself
until it ends. Outside a run with workers, nothing waits."""

from __future__ import annotations

import fcntl
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")


def workers(config: pytest.Config) -> int:
    """How many pytest workers run this session: 1 without pytest-xdist's `-n`. (Asked of the
    config, not the environment, which a pytest started by a test inherits.)"""
    worker: dict[str, int] = getattr(config, "workerinput", {})
    return worker.get("workercount", 1)


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder every worker of this run shares: the parent of each worker's own temp folder."""
    return tmp_path_factory.getbasetemp().parent


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


def run_alone_first(items: list[pytest.Item]) -> None:
    """Put the tests marked `alone` first, where the other worker's test they wait for is its
    first one, not one of WebKit's minute-long tests. sort is stable: the rest keep their order."""
    items.sort(key=lambda item: item.get_closest_marker("alone") is None)


@pytest.fixture(autouse=True)
def machine_turn(request: pytest.FixtureRequest,
                 tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test takes its turn at the machine, set up first and torn down last."""
    if workers(request.config) == 1:
        yield
        return
    alone = request.node.get_closest_marker("alone") is not None
    with turn(shared_folder(tmp_path_factory), alone=alone):
        yield


def once_per_run(config: pytest.Config, tmp_path_factory: pytest.TempPathFactory, name: str,
                 make: Callable[[], T]) -> T:
    """make() once in this run, in whichever worker asks first. A worker that asks later waits
    for it and gets what it returned, pickled; if it raised, the later worker tries again."""
    if workers(config) == 1:
        return make()
    folder = shared_folder(tmp_path_factory)
    kept = folder / f"{name}.pickle"
    with (folder / f"{name}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            made: T = pickle.loads(kept.read_bytes())
            return made
        made = make()
        kept.write_bytes(pickle.dumps(made))
        return made

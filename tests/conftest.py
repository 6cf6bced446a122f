"""The copies of the project that tests build, built side by side."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from project_copy import BUILDS


@pytest.fixture(scope="session")
def copies(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, Future[Any]]]:
    """Each selected test module's build of a copy (`project_copy.built_in_a_copy`), started
    on a thread of its own when the first test asks, and waited for by its module's test.
    Each build is a chain of processes (pip, Node, jupyter lite, pytest) that keeps about one
    core busy, so on two cores two builds take little longer than the longer one, and the
    tests between them run meanwhile."""
    wanted = {item.module.__name__ for item in request.session.items
              if isinstance(item, pytest.Function) and "copies" in item.fixturenames}
    with ThreadPoolExecutor(max_workers=len(wanted) or 1) as pool:
        yield {name: pool.submit(BUILDS[name], tmp_path_factory.mktemp(name))
               for name in sorted(wanted)}

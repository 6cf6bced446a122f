"""The copies of the project that tests build, built while the rest of the suite runs, and each
test's turn at the machine when two workers share it: the fixtures and the ordering live in
project_copy.py and workers.py, where mypy checks them (it takes this file and
tests/e2e/conftest.py for one module, so pyproject.toml leaves this one out)."""

import pytest

from project_copy import copies, run_copies_last
from workers import machine_turn, run_alone_first

__all__ = ["copies", "machine_turn"]


@pytest.hookimpl(trylast=True)  # after tests/e2e/conftest.py has marked its tests
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests marked `alone` first, those that wait for a copy's build last."""
    run_alone_first(items)
    run_copies_last(items)

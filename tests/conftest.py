"""The copies of the project that tests build, built while the rest of the suite runs: the
fixture and its hook live in project_copy.py, where mypy checks them (it takes this file and
tests/e2e/conftest.py for one module, so pyproject.toml leaves this one out)."""

from project_copy import copies, pytest_collection_modifyitems

__all__ = ["copies", "pytest_collection_modifyitems"]

"""`build.py lint`, which `build.py test` runs first: ruff and mypy, failing on any finding."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from course_build import testing

ROOT = Path(__file__).resolve().parents[1]
LINTED = ("src", "tests", "web", "build.py", "pyproject.toml")  # and what configures them
# Each planted in a copy of the project, which lint must then fail: a ruff finding (an import
# never used) and a mypy finding that ruff does not see (a str where an int is declared).
PLANTED = {"ruff": "import json\n", "mypy": 'WRONG: int = "not a number"\n'}


@pytest.mark.parametrize("finding", PLANTED)
def test_lint_fails_on_a_finding_planted_in_the_package(
    finding: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "project"
    for name in LINTED:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, copy / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy2(ROOT / name, copy / name)
    if (ROOT / ".mypy_cache").is_dir():  # warm: the copy's mypy checks only what changed
        shutil.copytree(ROOT / ".mypy_cache", copy / ".mypy_cache")
    module = copy / "src" / "attention_lessons" / "_errors.py"
    module.write_text(module.read_text(encoding="utf-8") + PLANTED[finding], encoding="utf-8")
    monkeypatch.setattr(testing, "ROOT", copy)
    assert [linter for linter, *_ in testing.LINTERS] == ["ruff", "mypy"]
    assert testing.lint() != 0


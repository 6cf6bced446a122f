"""`build.py lint`, which `build.py test` runs first: ruff and mypy, failing on any finding."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from course_build import testing
from course_build.paths import ROOT

LINTED = ("src", "tests", "web", "build.py", "pyproject.toml")  # and what configures them
# Each planted at the end of a module in a copy of the project, which lint must then fail: a ruff
# finding (an import never used), a mypy finding that ruff does not see (a str where an int is
# declared), an import that runs up the layers (the engine naming a view), one that names a
# lesson outside lessons/, a circle between two of the engine's modules, and one between two of
# the DOM code's.
PLANTED = {  # what is planted where, and the linter that must find it
    "ruff": ("engine/errors.py", "import json\n", "ruff"),
    "mypy": ("engine/errors.py", 'WRONG: int = "not a number"\n', "mypy"),
    "upward": ("engine/errors.py", "from ..views import track_view  # noqa: E402, F401\n",
               "lint-imports"),
    "a lesson named": ("progress/merging.py",
                       "from ..lessons import LESSONS  # noqa: E402, F401\n", "lint-imports"),
    "a circle": ("engine/attention.py", "from .lesson import Lesson  # noqa: E402, F401\n",
                 "lint-imports"),
    "a circle in the DOM code": ("../../web/browser/dom.py",
                                 "from . import saved as later  # noqa: E402, F401\n",
                                 "lint-imports"),
}


@pytest.mark.parametrize("finding", PLANTED)
def test_lint_fails_on_a_finding_planted_in_the_package(
    finding: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
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
    where, text, linter = PLANTED[finding]
    module = copy / "src" / "attention_lessons" / where
    module.write_text(module.read_text(encoding="utf-8") + text, encoding="utf-8")
    monkeypatch.setattr(testing, "ROOT", copy)
    assert [linter for linter, *_ in testing.LINTERS] == ["ruff", "mypy", "lint-imports"]
    assert testing.lint() != 0
    assert f"build.py: {linter} found something to mend" in capfd.readouterr().out


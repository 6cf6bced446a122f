"""`build.py new-lesson SLUG`: a skeleton that builds and passes the unit tests with no other
edit, in a copy of the project; and slugs that cannot be a new lesson are refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from course_build.paths import ROOT
from course_build.scaffold import new_lesson
from project_copy import fresh_copy, share_caches

# What the copy of the project leaves out besides what git ignores: this test (it would run
# itself) and the fresh clone's, which copies a git checkout (the copy is none).
LEFT_OUT = {"tests/building/test_scaffold.py", "tests/building/test_fresh_clone.py"}


def copy_project(to: Path) -> Path:
    """A copy of the project's sources, sharing the build's .venv/ (so build.py runs there as
    it does here) and its caches."""
    fresh_copy(to, LEFT_OUT)
    (to / ".venv").symlink_to(ROOT / ".venv")
    share_caches(to)
    return to


def run(copy: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run([sys.executable, *argv], cwd=copy, env=env, capture_output=True,
                          text=True, check=False)


def scaffold_a_lesson(folder: Path) -> tuple[Path, dict[str, subprocess.CompletedProcess[str]]]:
    """In a copy: `new-lesson demo`, the build, the linters, the unit tests, and the new
    lesson's own."""
    copy = copy_project(folder / "project")
    steps = {"made": run(copy, "build.py", "new-lesson", "demo")}
    if steps["made"].returncode == 0:
        steps["built"] = run(copy, "build.py", "build")
        # As `build.py test` begins: the linters, which also leave mypy's cache in the copy, so
        # that the lint tests' own copies check only what each plants (cold, each took 12 s).
        steps["linted"] = run(copy, "build.py", "lint")
        # Every unit test but the fuzzers (about 15 s: they feed D8's lesson alone to the record
        # loader and the number parser) and the suite's tests of its own runner (about 20 s):
        # a new lesson cannot change either.
        steps["tested"] = run(copy, "-m", "pytest", "-q", "-x", "-p", "no:randomly",
                              "-p", "no:cacheprovider", "--ignore=tests/e2e",
                              "--ignore=tests/progress/test_fuzz.py", "--ignore=tests/suite")
        steps["own"] = run(copy, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "tests/lessons/test_demo.py")
    return copy, steps


@pytest.mark.fresh_clone  # it builds a copy of the project: not for --quick
def test_a_new_lesson_builds_and_passes_the_unit_tests_with_no_other_edit(
    tmp_path: Path,
) -> None:
    copy, steps = scaffold_a_lesson(tmp_path)
    made = steps["made"]
    assert made.returncode == 0, made.stderr
    for path in ("src/attention_lessons/lessons/demo.py", "tests/lessons/test_demo.py",
                 "tests/e2e/plans/demo.py", "fixtures/notebooks/demo.ipynb"):
        assert path in made.stdout
        assert (copy / path).is_file()
    registry = (copy / "src/attention_lessons/lessons/__init__.py").read_text(encoding="utf-8")
    assert "    demo.LESSON,\n)}" in registry
    built = steps["built"]
    assert built.returncode == 0, built.stdout + built.stderr
    assert (copy / "dist" / "demo" / "index.html").is_file()
    track = (copy / "dist" / "index.html").read_text(encoding="utf-8")
    assert 'href="demo/"' in track
    linted = steps["linted"]
    assert linted.returncode == 0, linted.stdout[-3000:]
    tested = steps["tested"]
    assert tested.returncode == 0, tested.stdout[-3000:]
    own = steps["own"]
    assert own.returncode == 0, own.stdout[-3000:]
    assert "3 passed" in own.stdout


@pytest.mark.parametrize(("slug", "says"), [
    ("8-2", "a lesson with the slug '8-2' exists already"),
    ("d8", "a lesson with the slug 'd8' exists already"),
    ("Bad slug", "is not a folder name a lesson can have"),
    ("two--hyphens", "is not a folder name a lesson can have"),
    ("../up", "is not a folder name a lesson can have"),
    ("", "is not a folder name a lesson can have"),
    ("notebook", "a folder the built site already uses"),
])
def test_a_slug_that_cannot_be_a_new_lesson_is_refused_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], slug: str, says: str,
) -> None:
    copy = fresh_copy(tmp_path / "project", LEFT_OUT)
    before = sorted(p.relative_to(copy) for p in copy.rglob("*"))
    registry = (copy / "src/attention_lessons/lessons/__init__.py").read_text(encoding="utf-8")
    assert new_lesson(copy, slug) == 1
    said = capsys.readouterr()
    assert says in said.err
    assert said.err.endswith("Nothing was written.\n")
    assert sorted(p.relative_to(copy) for p in copy.rglob("*")) == before
    assert (copy / "src/attention_lessons/lessons/__init__.py").read_text("utf-8") == registry

"""The lessons' notebooks: clean source, and their code cells print the lessons' numbers."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from attention_lessons import LESSONS, work
from attention_lessons.engine import Lesson, listing
from course_build.paths import NOTEBOOKS
from course_build.scaffold import CHANGE_ME
from notebooks import code_cells, load, run_cells
from oracles import own_fixture
from wheels import unpack_wheel

ALL = sorted(NOTEBOOKS.glob("*.ipynb"))


@pytest.fixture
def unpacked_wheel() -> Path:
    """The package's wheel, unpacked (built once per run, shared with test_cli)."""
    return unpack_wheel()


def change_me(cells: list[str]) -> tuple[int, str, str, Any]:
    """The one line a notebook asks the learner to change: its cell, the line, and the input it
    sets and to what."""
    (found,) = [(i, line) for i, source in enumerate(cells) for line in source.splitlines()
                if line.endswith(CHANGE_ME)]
    index, line = found
    name, _, value = line.removesuffix(CHANGE_ME).partition("=")
    return index, line, name.strip(), ast.literal_eval(value.strip())


def changed(value: Any) -> Any:
    """Another value of the same shape: each entry x becomes 1 - x."""
    return [changed(x) for x in value] if isinstance(value, list) else 1 - value


def test_there_is_a_notebook_for_each_lesson() -> None:
    assert [p.name for p in ALL] == sorted(f"{slug}.ipynb" for slug in LESSONS)


@pytest.mark.parametrize("lesson", LESSONS.values(), ids=list(LESSONS))
def test_each_notebook_is_its_lessons_and_prints_its_outputs(
    lesson: Lesson, unpacked_wheel: Path
) -> None:
    notebook = load(f"{lesson.slug}.ipynb")
    assert notebook["metadata"]["title"] == f"{lesson.code} · {lesson.title}"
    assert "".join(notebook["cells"][0]["source"]).startswith(f"# {lesson.code} · {lesson.title}")
    printed = "".join(run_cells(code_cells(notebook), unpacked_wheel))
    for head in work(lesson, own_fixture(lesson)).heads:
        assert listing(head.output) in printed


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_a_notebook_is_clean_nbformat_4_source(path: Path) -> None:
    notebook = load(path.name)
    assert (notebook["nbformat"], notebook["nbformat_minor"]) == (4, 5)
    assert notebook["metadata"]["kernelspec"]["language"] == "python"
    ids = [c["id"] for c in notebook["cells"]]
    assert len(set(ids)) == len(ids)
    kinds = [c["cell_type"] for c in notebook["cells"]]
    assert kinds[0] == "markdown"
    assert "markdown" in kinds[1:]
    assert "code" in kinds
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            # The learner's run produces every number; none ships in the file.
            assert cell["outputs"] == []
            assert cell["execution_count"] is None
    assert sum(line.endswith(CHANGE_ME) for source in code_cells(notebook)
               for line in source.splitlines()) == 1


@pytest.mark.parametrize("lesson", LESSONS.values(), ids=list(LESSONS))
def test_changing_the_change_me_line_changes_the_heads(lesson: Lesson,
                                                       unpacked_wheel: Path) -> None:
    """The line marked "change me" sets one of the lesson's inputs; set to another value, its
    cell prints each head's weights and the reference head's, worked on that value."""
    cells = code_cells(load(f"{lesson.slug}.ipynb"))
    last, line, name, value = change_me(cells)
    assert name in {i.name for i in lesson.inputs}
    before = run_cells(cells[: last + 1], unpacked_wheel)[last]
    other = changed(value)
    cells[last] = cells[last].replace(line, f"{name} = {other!r}{CHANGE_ME}", 1)
    after = run_cells(cells[: last + 1], unpacked_wheel)[last]
    assert after != before
    fixture = own_fixture(lesson)
    worked = work(lesson, fixture.with_inputs("changed", **{name: other}))
    heads = [*worked.heads, *([] if worked.single is None else [worked.single])]
    for head in heads:
        assert listing(head.weights) in after
    # The weights moved: not every head's printed now was printed before (one may be, by
    # chance: a head on the changed inputs can weigh as another did on the fixture's).
    assert not all(listing(head.weights) in before for head in heads)


@pytest.mark.parametrize("lesson", LESSONS.values(), ids=list(LESSONS))
def test_each_notebook_moves_a_point_as_explore_does(lesson: Lesson,
                                                     unpacked_wheel: Path) -> None:
    """The notebook's last cell moves the lesson's third point (the plain head's key 2) to
    (2, -1), as Explore does, and prints each head's weights with the point moved."""
    from attention_lessons import Explore, explore_work, move  # noqa: PLC0415
    from attention_lessons.engine import point_ids, point_name  # noqa: PLC0415

    printed = "".join(run_cells(code_cells(load(f"{lesson.slug}.ipynb")), unpacked_wheel))
    fixture = own_fixture(lesson)
    point = point_ids(fixture)[2]
    after = explore_work(lesson, fixture, move(Explore(), fixture, point, 2, -1))
    for spec, head in zip(lesson.heads, after.heads, strict=True):
        moved = ", ".join(f"{w:.4f}" for w in head.weights)
        said = f"{spec.name} weights, {point_name(point)} moved to (2, -1):"
        assert re.search(rf"{re.escape(said)} +{re.escape(moved)}\n", printed), said
    assert after.heads[0].weights != work(lesson, fixture).heads[0].weights

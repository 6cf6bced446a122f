"""The lessons' notebooks: clean source, and their code cells print the lessons' numbers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from attention_lessons import LESSONS, attend, compute, load_fixture, split_heads, work
from attention_lessons.engine import Lesson, listing
from course_build.paths import FIXTURES, NOTEBOOKS
from wheels import unpack_wheel

ALL = sorted(NOTEBOOKS.glob("*.ipynb"))
QUERY_LINE = "query = [2, -1]  # change me, then run this cell again"
CELL_END = "\x1e"  # printed after each cell, so each cell's output can be told apart
# Runs a notebook's code cells in order in one namespace, as a kernel would.
RUNNER = f"""
import json, sys
cells = json.load(sys.stdin)
scope = {{"__name__": "__main__"}}
for source in cells:
    exec(compile(source, "<cell>", "exec"), scope)
    print({CELL_END!r}, flush=True)
"""


@pytest.fixture
def unpacked_wheel() -> Path:
    """The package's wheel, unpacked (built once per run, shared with test_cli)."""
    return unpack_wheel()


def load(name: str) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return notebook


def code_cells(notebook: dict[str, Any]) -> list[str]:
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]


def run_cells(cells: list[str], site: Path) -> list[str]:
    """Run the cells under CPython with only the built wheel importable; one output per cell."""
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(cells), text=True,
                          capture_output=True, cwd=site, env={"PYTHONPATH": str(site)},
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.split(CELL_END + "\n")[:-1]


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
    for head in work(lesson, load_fixture(lesson.fixture, FIXTURES)).heads:
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
    assert sum(QUERY_LINE in source for source in code_cells(notebook)) == 1


def test_d8_notebook_prints_the_lessons_numbers(unpacked_wheel: Path) -> None:
    numbers = compute(load_fixture("attention-8.2.json", FIXTURES))
    outputs = run_cells(code_cells(load("d8.ipynb")), unpacked_wheel)
    printed = "".join(outputs)
    for name, head in zip("AB", numbers.heads, strict=True):
        assert f"head {name}, coordinate" in printed
        assert f"weights                                 {listing(head.weights)}" in printed
    assert f"concatenated heads {listing(numbers.concatenated)}" in printed
    assert "concatenated heads 1.3760, 0.8744" in printed
    assert "single head        1.1740, 0.7643" in printed
    assert "difference         0.2019, 0.1101" in printed
    assert "scaled by 1 over the square root of 1   2, 0, 2, -2" in printed


def test_82_notebook_prints_the_lessons_numbers(unpacked_wheel: Path) -> None:
    outputs = run_cells(code_cells(load("8-2.ipynb")), unpacked_wheel)
    printed = "".join(outputs)
    assert "single head (scale 1/sqrt(2) = 0.7071)" in printed
    assert "weights                                 0.6090, 0.0730, 0.3003, 0.0177" in printed
    assert "output, weights against values          1.1740, 0.7643" in printed
    assert "sum of the weights 1.0000" in printed


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_changing_the_query_changes_the_heads(path: Path, unpacked_wheel: Path) -> None:
    cells = code_cells(load(path.name))
    last = next(i for i, source in enumerate(cells) if QUERY_LINE in source)
    before = run_cells(cells[: last + 1], unpacked_wheel)[last]
    cells[last] = cells[last].replace("[2, -1]", "[-2, 3]")
    after = run_cells(cells[: last + 1], unpacked_wheel)[last]
    assert after != before
    fixture = load_fixture("attention-8.2.json", FIXTURES)
    single = attend((-2, 3), fixture.keys, fixture.values)
    assert listing(single.weights) in after
    assert listing(single.weights) not in before
    if path.name == "d8.ipynb":
        heads = split_heads((-2, 3), fixture.keys, fixture.values, [0, 1, 2])
        assert f"head B weights {listing(heads[1].weights)}" in after


@pytest.mark.parametrize("lesson", LESSONS.values(), ids=list(LESSONS))
def test_each_notebook_moves_a_key_as_explore_does(lesson: Lesson, unpacked_wheel: Path) -> None:
    from attention_lessons import Explore, explore_work, move  # noqa: PLC0415

    printed = "".join(run_cells(code_cells(load(f"{lesson.slug}.ipynb")), unpacked_wheel))
    fixture = load_fixture(lesson.fixture, FIXTURES)
    after = explore_work(lesson, fixture, move(Explore(), fixture, "key_2", 2, -1))
    for spec, head in zip(lesson.heads, after.heads, strict=True):
        moved = ", ".join(f"{w:.4f}" for w in head.weights)
        assert f"{spec.name} weights, key 2 moved to (2, -1):        {moved}" in printed
    assert after.heads[0].weights != work(lesson, fixture).heads[0].weights

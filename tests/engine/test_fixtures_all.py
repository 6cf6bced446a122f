"""Every JSON file in fixtures/ is a lesson's fixture; each lesson's loads, holds the shapes its
inputs declare, and the lesson worked on it agrees with the lesson's numpy oracle."""

from __future__ import annotations

import math

import pytest

from attention_lessons import LESSONS, work
from attention_lessons.engine import Lesson
from oracles import by_numpy, own_fixture
from strategies import FIXTURES, assert_close

ALL = sorted(FIXTURES.glob("*.json"))
EVERY = pytest.mark.parametrize("lesson", list(LESSONS.values()), ids=list(LESSONS))


def test_every_fixture_file_is_a_lessons_and_every_lesson_names_one_there() -> None:
    assert {p.name for p in ALL} == {lesson.fixture for lesson in LESSONS.values()}


@EVERY
def test_a_lessons_fixture_loads_with_the_shapes_its_inputs_declare(lesson: Lesson) -> None:
    fixture = own_fixture(lesson)
    assert fixture.name.strip()
    sizes: dict[str, int] = {}
    for declared in lesson.inputs:
        value = fixture.inputs[declared.name]
        assert len(value) >= 1
        shape: tuple[int, ...]
        if declared.is_matrix:
            widths = {len(row) for row in value}  # type: ignore[arg-type]
            assert len(widths) == 1, declared.name
            shape = (len(value), widths.pop())
        else:
            shape = (len(value),)
        for dimension, size in zip(declared.shape, shape, strict=True):
            expected = dimension if isinstance(dimension, int) else sizes.setdefault(dimension,
                                                                                     size)
            assert size == expected, declared.name


@EVERY
def test_a_lessons_heads_on_its_fixture_are_its_numpy_oracles(lesson: Lesson) -> None:
    worked = work(lesson, own_fixture(lesson))
    found = by_numpy(lesson)
    for head, weights, output in zip(worked.heads, found.weights, found.outputs, strict=True):
        assert_close(head.weights, weights.ravel())
        assert_close(head.output, output.ravel())
        assert math.fsum(head.weights) == pytest.approx(1.0, abs=1e-12)

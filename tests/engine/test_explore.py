"""Explore: moving points by key, pointer and typing, and every explored number against numpy,
on every lesson's own fixture and by its own oracle. Each lesson's test holds every explored step
of its heads."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_lessons import LESSONS, Progress, fixed_view, work
from attention_lessons.engine import (
    EDGE,
    Explore,
    Lesson,
    ParseError,
    StateError,
    back_to_fixture,
    drag,
    explore_work,
    move,
    point_ids,
    points,
    step,
    typed,
)
from attention_lessons.engine.explore import explored_fixture
from attention_lessons.views import SIZE, compare_text, explore_view, tip_place
from explored import HALF_LAST_DIGIT, explored, moves, row
from oracles import by_numpy, own_fixture
from strategies import on_plane

EVERY = pytest.mark.parametrize("lesson", list(LESSONS.values()), ids=list(LESSONS))
# Moving points needs only some lesson's fixture: the first lesson's.
FIXTURE = own_fixture(next(iter(LESSONS.values())))
QX, QY = FIXTURE.vector("query")
KEYS = point_ids(FIXTURE)[1:]


@EVERY
@given(data=st.data())
def test_every_explored_heads_weights_and_output_are_the_lessons_oracles(
        lesson: Lesson, data: st.DataObject) -> None:
    fixture = own_fixture(lesson)
    explore = explored(fixture, data.draw(moves(fixture)))
    view = explore_view(lesson, fixture, explore)
    found = by_numpy(lesson, explored_fixture(fixture, explore))
    for head, weights, output in zip(view.heads, found.weights, found.outputs, strict=True):
        np.testing.assert_allclose(row(head, "weights"), weights.ravel(), atol=HALF_LAST_DIGIT)
        np.testing.assert_allclose(row(head, "output, weights against values"), output.ravel(),
                                   atol=HALF_LAST_DIGIT)


@EVERY
@given(data=st.data(), prediction_index=st.integers(0, 4))
def test_the_bears_out_line_is_what_compare_would_say_of_the_same_numbers(
        lesson: Lesson, data: st.DataObject, prediction_index: int) -> None:
    fixture = own_fixture(lesson)
    explore = explored(fixture, data.draw(moves(fixture)))
    worked = explore_work(lesson, fixture, explore)
    line = explore_view(lesson, fixture, explore).bears_out
    choices = worked.lesson.predictions
    chosen = choices[prediction_index % len(choices)].id
    compared = compare_text(Progress(prediction=chosen), worked)
    fits = worked.lesson.fitting_prediction(worked)
    assert line.startswith(worked.lesson.shown(worked))
    assert worked.lesson.shown(worked) in compared
    if fits is None:
        assert "None of the" in line
        assert "None of the" in compared
    else:
        assert line.endswith(f"These numbers bear out: {worked.lesson.prediction_label(fits)}")
        assert worked.lesson.prediction_label(fits) in compared or fits == chosen


def test_arrow_keys_step_a_tenth_shift_a_half_and_home_and_end_reach_the_edges() -> None:
    explore = step(Explore(), FIXTURE, "query", "ArrowRight")
    x = round(QX + 0.1, 6)
    assert points(FIXTURE, explore)["query"] == (x, QY)
    explore = step(explore, FIXTURE, "query", "ArrowDown", shift=True)
    assert points(FIXTURE, explore)["query"] == (x, round(QY - 0.5, 6))
    explore = step(explore, FIXTURE, "query", "ArrowUp")
    y = round(QY - 0.4, 6)
    assert points(FIXTURE, explore)["query"] == (x, y)
    assert points(FIXTURE, step(explore, FIXTURE, "query", "End"))["query"] == (EDGE, y)
    assert points(FIXTURE, step(explore, FIXTURE, "query", "Home"))["query"] == (-EDGE, y)
    assert points(FIXTURE, step(explore, FIXTURE, "query", "PageUp"))["query"] == (x, EDGE)
    key, (_, ky) = KEYS[0], points(FIXTURE, Explore())[KEYS[0]]
    edge = step(Explore(), FIXTURE, key, "End")
    assert points(FIXTURE, step(edge, FIXTURE, key, "ArrowRight"))[key] == (EDGE, ky)
    assert step(explore, FIXTURE, "query", "a") == explore


def test_a_point_moved_back_is_not_moved_and_back_to_the_fixture_clears_every_point() -> None:
    key = KEYS[-1]
    explore = step(step(Explore(), FIXTURE, key, "ArrowLeft"), FIXTURE, key, "ArrowRight")
    assert explore.moved == {}
    tried = Explore({"query": (0.0, 0.0)}, "even", scale="one", full_precision=True)
    assert back_to_fixture(tried) == Explore(scale="one", full_precision=True)


@pytest.mark.parametrize(("across", "down", "at"), [
    (0.5, 0.5, (0.0, 0.0)), (0.0, 0.0, (-EDGE, EDGE)), (1.0, 1.0, (EDGE, -EDGE)),
    (-0.2, 1.3, (-EDGE, -EDGE)), (0.8333, 0.6667, (2.0, -1.0)), (0.51, 0.49, (0.1, 0.1)),
])
def test_a_drag_lands_on_the_tenths_grid_inside_the_plane(
        across: float, down: float, at: tuple[float, float]) -> None:
    assert points(FIXTURE, drag(Explore(), FIXTURE, KEYS[-1], across, down))[KEYS[-1]] == at


def test_typed_coordinates_are_read_by_the_parser_and_held_to_the_plane() -> None:
    key = KEYS[-1]
    _, ky = points(FIXTURE, Explore())[key]
    explore = typed(Explore(), FIXTURE, key, 0, "−0,5")
    assert points(FIXTURE, explore)[key] == (-0.5, ky)
    with pytest.raises(ParseError, match="“abc” is not a number"):
        typed(explore, FIXTURE, key, 1, "abc")
    with pytest.raises(StateError, match="runs from -3 to 3"):
        typed(explore, FIXTURE, key, 1, "7/2")
    with pytest.raises(StateError, match="no point called key 99"):
        move(explore, FIXTURE, "key_99", 0, 0)


@EVERY
@given(x=on_plane, y=on_plane)
def test_the_plane_puts_each_point_where_numpy_maps_it(lesson: Lesson, x: float, y: float) -> None:
    fixture = own_fixture(lesson)
    first = point_ids(fixture)[0]  # the plain head's query
    view = explore_view(lesson, fixture, move(Explore(), fixture, first, x, y)).plane
    moved = view.points[0]
    assert (moved.cx, moved.cy) == pytest.approx(
        (np.interp(x, [-EDGE, EDGE], [0, SIZE]), np.interp(y, [-EDGE, EDGE], [SIZE, 0])))
    assert view.origin == (SIZE / 2, SIZE / 2)
    name = first.replace("_", " ")
    assert moved.valuetext == f"{name} at {x:.1f}, {y:.1f}".replace("-", "\N{MINUS SIGN}")
    said = (f"The {name} is an arrow from the origin to {x:.1f}, {y:.1f}." if view.arrow == first
            else f"{name.capitalize()} is at {x:.1f}, {y:.1f}")
    assert said in view.text


def test_a_handles_tip_opens_inward_by_the_planes_sides_and_below_by_its_top() -> None:
    assert tip_place(0, SIZE) == "start above"
    assert tip_place(SIZE, 0) == "end below"
    assert tip_place(SIZE / 2, SIZE / 2) == "middle above"
    assert tip_place(SIZE, SIZE) == "end above"


@EVERY
def test_exploring_leaves_the_fixtures_numbers_alone(lesson: Lesson) -> None:
    fixture = own_fixture(lesson)
    before = fixed_view(work(lesson, fixture))
    explore_view(lesson, fixture, move(Explore(), fixture, point_ids(fixture)[0], -3, 3))
    assert fixed_view(work(lesson, fixture)) == before

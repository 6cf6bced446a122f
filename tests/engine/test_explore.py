"""Explore: moving points by key, pointer and typing, and every explored number against numpy."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_lessons import LESSONS, fixed_view, parse_fixture, work
from attention_lessons.engine import (
    EDGE,
    Explore,
    ParseError,
    StateError,
    back_to_fixture,
    drag,
    explore_work,
    move,
    points,
    step,
    typed,
)
from attention_lessons.views import SIZE, compare_text, explore_view, move_announcement, tip_place
from strategies import FIXTURE_TEXT, numpy_attention, numpy_heads

FIXTURE = parse_fixture(FIXTURE_TEXT)
D8, L82, L83 = LESSONS["d8"], LESSONS["8-2"], LESSONS["8-3"]
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
HALF_LAST_DIGIT = 0.5 * 10**-4 + 1e-12

on_plane = st.integers(-30, 30).map(lambda n: n / 10)
moves = st.lists(st.tuples(st.sampled_from(["query", "key_1", "key_2", "key_3", "key_4"]),
                           on_plane, on_plane), min_size=1, max_size=5)


def explored(moved: list[tuple[str, float, float]]) -> Explore:
    explore = Explore()
    for point, x, y in moved:
        explore = move(explore, FIXTURE, point, x, y)
    return explore


def vectors(explore: Explore) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The coordinates the view reports, as numpy arrays; the values are the fixture's."""
    now = points(FIXTURE, explore)
    q = np.array(now["query"])
    k = np.array([now[f"key_{i}"] for i in range(1, 5)])
    return q, k, np.array(FIXTURE.values)


def printed(text: str) -> list[float]:
    return [float(x) for x in NUMBER.findall(text)]


def row(head: object, label: str) -> list[float]:
    steps = {s.label: s.value for s in head.steps}  # type: ignore[attr-defined]
    return printed(steps[label])


def assert_printed(text: str, oracle: np.ndarray) -> None:
    np.testing.assert_allclose(printed(text), oracle, rtol=0, atol=HALF_LAST_DIGIT)


def assert_head(head: object, oracle: dict[str, np.ndarray], d: int) -> None:
    np.testing.assert_allclose(row(head, "scores, query times key"), oracle["scores"],
                               atol=HALF_LAST_DIGIT)
    scaled = row(head, f"scaled by 1 over the square root of {d}")
    np.testing.assert_allclose(scaled, oracle["scaled"], atol=HALF_LAST_DIGIT)
    exps = np.exp(oracle["scaled"])
    np.testing.assert_allclose(row(head, "exponentials"), exps, rtol=1e-4, atol=HALF_LAST_DIGIT)
    np.testing.assert_allclose(row(head, "their sum"), [exps.sum()], rtol=1e-4,
                               atol=HALF_LAST_DIGIT)
    np.testing.assert_allclose(row(head, "weights"), oracle["weights"], atol=HALF_LAST_DIGIT)
    np.testing.assert_allclose(row(head, "output, weights against values"),
                               np.atleast_1d(oracle["output"]), atol=HALF_LAST_DIGIT)


@given(moves)
def test_the_explored_single_head_is_numpys(moved: list[tuple[str, float, float]]) -> None:
    explore = explored(moved)
    q, k, v = vectors(explore)
    (head,) = explore_view(L82, FIXTURE, explore).heads
    assert_head(head, numpy_attention(q, k, v), 2)


@given(moves)
def test_the_explored_two_heads_single_head_and_differences_are_numpys(
        moved: list[tuple[str, float, float]]) -> None:
    explore = explored(moved)
    q, k, v = vectors(explore)
    view = explore_view(D8, FIXTURE, explore)
    oracle_a, oracle_b = numpy_heads(q, k, v, [0, 1, 2])
    single = numpy_attention(q, k, v)
    assert_head(view.heads[0], oracle_a, 1)
    assert_head(view.heads[1], oracle_b, 1)
    concatenated = np.concatenate([oracle_a["output"], oracle_b["output"]])
    assert view.comparison is not None
    assert_printed(" ".join(view.comparison.concatenated), concatenated)
    assert_printed(" ".join(view.comparison.single), single["output"])
    # Differences come from full precision, not from the rounded entries above.
    assert_printed(" ".join(view.comparison.differences), concatenated - single["output"])


@given(moves)
def test_the_explored_masked_head_weighs_only_the_first_two_keys(
        moved: list[tuple[str, float, float]]) -> None:
    explore = explored(moved)
    q, k, v = vectors(explore)
    (head,) = explore_view(L83, FIXTURE, explore).heads
    seen = numpy_attention(q, k[:2], v[:2])
    weights = np.concatenate([seen["weights"], [0.0, 0.0]])
    np.testing.assert_allclose(row(head, "weights"), weights, atol=HALF_LAST_DIGIT)
    np.testing.assert_allclose(row(head, "output, weights against values"), seen["output"],
                               atol=HALF_LAST_DIGIT)


@pytest.mark.parametrize("lesson", LESSONS.values(), ids=LESSONS)
@given(moved=moves, prediction_index=st.integers(0, 4))
def test_the_bears_out_line_is_what_compare_would_say_of_the_same_numbers(
        lesson: object, moved: list[tuple[str, float, float]], prediction_index: int) -> None:
    from attention_lessons import Progress  # noqa: PLC0415

    explore = explored(moved)
    worked = explore_work(lesson, FIXTURE, explore)  # type: ignore[arg-type]
    line = explore_view(lesson, FIXTURE, explore).bears_out  # type: ignore[arg-type]
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


def test_d8s_bears_out_line_follows_numpys_gap() -> None:
    for at in ((0.0, 0.0), (2.0, -1.0), (0.3, 0.3)):
        explore = move(Explore(), FIXTURE, "query", *at)
        q, k, v = vectors(explore)
        a, b = numpy_heads(q, k, v, [0, 1, 2])
        gaps = np.abs(np.concatenate([a["output"], b["output"]])
                      - numpy_attention(q, k, v)["output"])
        line = explore_view(D8, FIXTURE, explore).bears_out
        if gaps.max() < 0.5e-4:
            assert line.endswith("The same two numbers.")
        elif gaps.min() > 0.1:
            assert line.endswith("Clearly different, by more than 0.1.")


def test_arrow_keys_step_a_tenth_shift_a_half_and_home_and_end_reach_the_edges() -> None:
    explore = step(Explore(), FIXTURE, "query", "ArrowRight")
    assert points(FIXTURE, explore)["query"] == (2.1, -1.0)
    explore = step(explore, FIXTURE, "query", "ArrowDown", shift=True)
    assert points(FIXTURE, explore)["query"] == (2.1, -1.5)
    explore = step(explore, FIXTURE, "query", "ArrowUp")
    assert points(FIXTURE, explore)["query"] == (2.1, -1.4)
    assert points(FIXTURE, step(explore, FIXTURE, "query", "End"))["query"] == (EDGE, -1.4)
    assert points(FIXTURE, step(explore, FIXTURE, "query", "Home"))["query"] == (-EDGE, -1.4)
    assert points(FIXTURE, step(explore, FIXTURE, "query", "PageUp"))["query"] == (2.1, EDGE)
    edge = step(Explore(), FIXTURE, "key_1", "End")
    assert points(FIXTURE, step(edge, FIXTURE, "key_1", "ArrowRight"))["key_1"] == (EDGE, 0.0)
    assert step(explore, FIXTURE, "query", "a") == explore


def test_a_point_moved_back_is_not_moved_and_back_to_the_fixture_clears_every_point() -> None:
    explore = step(step(Explore(), FIXTURE, "key_2", "ArrowLeft"), FIXTURE, "key_2", "ArrowRight")
    assert explore.moved == {}
    tried = Explore({"query": (0.0, 0.0)}, "even", scale="one", full_precision=True)
    assert back_to_fixture(tried) == Explore(scale="one", full_precision=True)


@pytest.mark.parametrize(("across", "down", "at"), [
    (0.5, 0.5, (0.0, 0.0)), (0.0, 0.0, (-EDGE, EDGE)), (1.0, 1.0, (EDGE, -EDGE)),
    (-0.2, 1.3, (-EDGE, -EDGE)), (0.8333, 0.6667, (2.0, -1.0)), (0.51, 0.49, (0.1, 0.1)),
])
def test_a_drag_lands_on_the_tenths_grid_inside_the_plane(
        across: float, down: float, at: tuple[float, float]) -> None:
    assert points(FIXTURE, drag(Explore(), FIXTURE, "key_3", across, down))["key_3"] == at


def test_typed_coordinates_are_read_by_the_parser_and_held_to_the_plane() -> None:
    explore = typed(Explore(), FIXTURE, "key_4", 0, "−0,5")
    assert points(FIXTURE, explore)["key_4"] == (-0.5, 1.0)
    with pytest.raises(ParseError, match="“abc” is not a number"):
        typed(explore, FIXTURE, "key_4", 1, "abc")
    with pytest.raises(StateError, match="runs from -3 to 3"):
        typed(explore, FIXTURE, "key_4", 1, "7/2")
    with pytest.raises(StateError, match="no point called key 9"):
        move(explore, FIXTURE, "key_9", 0, 0)


@given(on_plane, on_plane)
def test_the_plane_puts_each_point_where_numpy_maps_it(x: float, y: float) -> None:
    view = explore_view(L82, FIXTURE, move(Explore(), FIXTURE, "query", x, y)).plane
    query = view.points[0]
    assert (query.cx, query.cy) == pytest.approx(
        (np.interp(x, [-EDGE, EDGE], [0, SIZE]), np.interp(y, [-EDGE, EDGE], [SIZE, 0])))
    assert view.origin == (SIZE / 2, SIZE / 2)
    assert query.valuetext == f"query at {x:.1f}, {y:.1f}".replace("-", "\N{MINUS SIGN}")
    assert f"The query is an arrow from the origin to {x:.1f}, {y:.1f}." in view.text


def test_a_handles_tip_opens_inward_by_the_planes_sides_and_below_by_its_top() -> None:
    assert tip_place(0, SIZE) == "start above"
    assert tip_place(SIZE, 0) == "end below"
    assert tip_place(SIZE / 2, SIZE / 2) == "middle above"
    assert tip_place(SIZE, SIZE) == "end above"


def test_the_plane_names_what_each_axis_is_and_every_keys_value() -> None:
    view = explore_view(D8, FIXTURE, Explore())
    assert view.plane.axes == ("coordinate 1, which head A reads",
                               "coordinate 2, which head B reads")
    assert [p.name for p in view.plane.points] == ["query", "key 1", "key 2", "key 3", "key 4"]
    assert "Key 2 is at 0.0, 1.0, value [0, 2]." in view.plane.text
    assert view.vectors.startswith("These are explored vectors, not the fixture")


def test_exploring_leaves_the_fixtures_numbers_alone() -> None:
    for lesson in LESSONS.values():
        before = fixed_view(work(lesson, FIXTURE))
        explore_view(lesson, FIXTURE, move(Explore(), FIXTURE, "query", -3, 3))
        assert fixed_view(work(lesson, FIXTURE)) == before


def test_the_announcement_names_the_point_each_heads_top_weight_and_the_verdict() -> None:
    view = explore_view(D8, FIXTURE, move(Explore(), FIXTURE, "query", 2, -1))
    said = move_announcement(D8, view, "query")
    assert said.startswith("Query at 2.0, \N{MINUS SIGN}1.0. In head A: The largest weight, "
                           "0.4643, is shared by keys 1 and 3. In head B:")
    assert said.endswith(view.bears_out)

"""Explore's plane draws what every head does, against numpy: each head's weight on every key as
a line's width, the values, the outputs among them, and a readout beside it; every label inside
the plane and apart, at the fixture, at every preset and at 200 random places of the points."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_lessons import LESSONS, parse_fixture
from attention_lessons.engine import EDGE, Explore, go_to_preset, move, points
from attention_lessons.views import (
    SIZE,
    THINNEST,
    WIDEST,
    edge_boxes,
    explore_view,
    line_width,
    pattern,
    place_labels,
    together,
)
from attention_lessons.views.labels import _LAST
from strategies import FIXTURE_TEXT, numpy_lesson, numpy_marks

FIXTURE = parse_fixture(FIXTURE_TEXT)
VALUES = np.array(FIXTURE.values)
POINTS = ("query", "key_1", "key_2", "key_3", "key_4")
on_plane = st.integers(-30, 30).map(lambda n: n / 10)
places = st.lists(st.tuples(on_plane, on_plane), min_size=5, max_size=5)


def at(places: list[tuple[float, float]]) -> Explore:
    explore = Explore()
    for point, (x, y) in zip(POINTS, places, strict=True):
        explore = move(explore, FIXTURE, point, x, y)
    return explore


def svg(x: float, y: float) -> tuple[float, float]:
    """Where numpy puts (x, y) in the plane's viewBox."""
    return (float(np.interp(x, [-EDGE, EDGE], [0, SIZE])),
            float(np.interp(y, [-EDGE, EDGE], [SIZE, 0])))


def oracle(slug: str, explore: Explore) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
    """Each head's weights and output, and the reference head's output, by numpy."""
    now = points(FIXTURE, explore)
    return numpy_lesson(slug, now["query"], [now[p] for p in POINTS[1:]], VALUES)


@pytest.mark.parametrize("slug", list(LESSONS))
@given(places=places)
def test_each_heads_lines_are_as_wide_as_numpys_weights_and_run_from_the_query_to_its_keys(
        slug: str, places: list[tuple[float, float]]) -> None:
    lesson, explore = LESSONS[slug], at(places)
    plane = explore_view(lesson, FIXTURE, explore).plane
    weights, _, _ = oracle(slug, explore)
    lines = {line.id: line for line in plane.lines}
    assert len(lines) == len(lesson.heads) * 4
    for spec, head_weights in zip(lesson.heads, weights, strict=True):
        ends = []
        for k, w in enumerate(head_weights, 1):
            line = lines[f"weight_{spec.id}_{k}"]
            expected = 0.0 if w == 0 else max(THINNEST, w * WIDEST)
            assert line.width == pytest.approx(expected, abs=0.006)
            ends.append((line.x1, line.y1, line.x2, line.y2))
        if len(lesson.heads) == 1:  # one head: each line runs exactly from the query to a key
            for (x1, y1, x2, y2), (kx, ky) in zip(ends, places[1:], strict=True):
                assert (x1, y1) == pytest.approx(svg(*places[0]), abs=0.006)
                assert (x2, y2) == pytest.approx(svg(kx, ky), abs=0.006)


def test_a_masked_key_draws_no_line_and_the_readout_says_it_gets_nothing() -> None:
    view = explore_view(LESSONS["8-3"], FIXTURE, Explore())
    widths = [line.width for line in view.plane.lines]
    assert widths[2:] == [0.0, 0.0]
    assert all(w > 0 for w in widths[:2])
    (weights,), _, _ = oracle("8-3", Explore())
    assert view.readout.weights == (tuple(f"{w:.4f}" for w in weights),)
    assert view.readout.weights[0][2:] == ("0.0000", "0.0000")
    assert view.readout.note == ("Keys 3 and 4 come after the query: the mask gives them weight "
                                 "0, wherever they are.")


def test_two_heads_are_told_apart_by_pattern_and_lie_side_by_side() -> None:
    view = explore_view(LESSONS["d8"], FIXTURE, Explore())
    assert [pattern(h)[0] for h in range(2)] == ["solid", "dashed"]
    assert pattern(0)[1] == ""
    assert pattern(1)[1]  # a dashed line has its dasharray
    a, b = (next(x for x in view.plane.lines if x.id == f"weight_{h}_1") for h in "ab")
    assert np.hypot(a.x1 - b.x1, a.y1 - b.y1) == pytest.approx(4.0, abs=0.02)  # APART, rounded


@pytest.mark.parametrize("slug", list(LESSONS))
@given(places=places)
def test_the_values_and_outputs_sit_where_numpy_puts_them(
        slug: str, places: list[tuple[float, float]]) -> None:
    lesson, explore = LESSONS[slug], at(places)
    plane = explore_view(lesson, FIXTURE, explore).plane
    _, outputs, single = oracle(slug, explore)
    spots = {s.id: (s.cx, s.cy) for s in plane.spots}
    for k, v in enumerate(VALUES, 1):
        assert spots[f"value_{k}"] == pytest.approx(svg(*v))
    expected = {f"mark_{mark}": xy for mark, xy in numpy_marks(slug, outputs, single).items()}
    assert set(spots) == {f"value_{k}" for k in range(1, 5)} | set(expected)
    for spot, (x, y) in expected.items():
        assert spots[spot] == pytest.approx(svg(x, y), abs=1e-9)
    for spot in expected:  # an output is the values weighted: inside the values' box
        x, y = spots[spot]
        assert svg(VALUES[:, 0].min(), 0)[0] - 1e-9 <= x <= svg(VALUES[:, 0].max(), 0)[0] + 1e-9


@pytest.mark.parametrize("slug", list(LESSONS))
@given(places=places)
def test_the_readout_prints_numpys_weights_outputs_and_comparison(
        slug: str, places: list[tuple[float, float]]) -> None:
    lesson, explore = LESSONS[slug], at(places)
    view = explore_view(lesson, FIXTURE, explore)
    weights, outputs, single = oracle(slug, explore)
    assert view.readout.heads == tuple(spec.id for spec in lesson.heads)
    for printed, w in zip(view.readout.weights, weights, strict=True):
        np.testing.assert_allclose([float(x) for x in printed], w, atol=0.5e-4 + 1e-12)
    for output, o in zip(view.readout.outputs, outputs, strict=True):
        np.testing.assert_allclose([float(x) for x in output.split(", ")], o,
                                   atol=0.5e-4 + 1e-12)
    if slug == "d8":
        gaps = view.readout.note.rpartition(": ")[2].rstrip(".").split(", ")
        np.testing.assert_allclose([float(g) for g in gaps],
                                   np.concatenate(outputs) - single, atol=0.5e-4 + 1e-12)
    elif slug == "8-2":
        assert view.readout.note == ""


def assert_labels_apart(slug: str, explore: Explore) -> None:
    """Every label inside the plane and clear of every other and of the edge's numbers, and
    every point, value and mark named once."""
    lesson = LESSONS[slug]
    plane = explore_view(lesson, FIXTURE, explore).plane
    shown = [label for label in plane.labels.values() if label.text]
    boxes = [label.box for label in shown] + edge_boxes(plane.edge, plane.origin)
    for n, box in enumerate(boxes):
        assert box.inside(SIZE), (slug, explore, box)
        assert not [other for other in boxes[n + 1:] if box.overlaps(other)], (slug, explore)
    assert len(plane.labels) == len(plane.points) + len(plane.spots)
    for label in plane.labels.values():  # an empty label's point is named by one at its place
        assert label.text or [x for x in shown if (x.x, x.y) == (label.x, label.y)]


RANDOM = np.random.default_rng(32).integers(-30, 31, size=(200, 5, 2)) / 10


@pytest.mark.parametrize("slug", list(LESSONS))
def test_labels_stay_inside_the_plane_and_apart_at_the_fixture_every_preset_and_at_random(
        slug: str) -> None:
    lesson = LESSONS[slug]
    assert_labels_apart(slug, Explore())
    for preset in lesson.presets():
        assert_labels_apart(slug, go_to_preset(lesson, FIXTURE, preset.id))
    for places in RANDOM:
        assert_labels_apart(slug, at([(float(x), float(y)) for x, y in places]))


def test_points_at_one_place_share_one_label_that_names_them_all() -> None:
    explore = move(move(Explore(), FIXTURE, "key_3", 1, 0), FIXTURE, "key_2", -2.5, -2.5)
    labels = explore_view(LESSONS["8-2"], FIXTURE, explore).plane.labels
    assert labels["value_1"].text == "value 1 and keys 1 and 3"  # value 1 is at [1, 0] too
    assert labels["key_1"].text == labels["key_3"].text == ""
    assert labels["key_2"].text == "key 2"
    assert together(["key 1", "key 3"]) == "keys 1 and 3"
    assert together(["query", "key 2", "key 4"]) == "query and keys 2 and 4"
    assert together(["column 1", "column 2"]) == "columns 1 and 2"


def test_a_line_for_no_weight_is_not_drawn_and_any_weight_is_seen() -> None:
    assert line_width(0.0) == 0.0
    assert line_width(1e-9) == THINNEST
    assert line_width(1.0) == WIDEST


def test_labels_kept_from_the_last_placement_are_where_placing_all_anew_puts_them() -> None:
    """A drag frame keeps the labels of the points ahead of the one it moves; the result is the
    same as placing every label anew."""
    before: list[tuple[str, float, float]] = []
    for places in RANDOM[:60]:
        plane = explore_view(LESSONS["d8"], FIXTURE, at([(float(x), float(y))
                                                         for x, y in places])).plane
        points = [(n.name, n.cx, n.cy) for n in plane.spots[:4]]
        points += [(n.name, n.cx, n.cy) for n in (*plane.points[1:], plane.points[0])]
        points += [(n.name, n.cx, n.cy) for n in plane.spots[4:]]
        edges = edge_boxes(plane.edge, plane.origin)
        moved = [*points[:6], *before[6:]]  # the same values and first keys, the rest elsewhere
        place_labels(moved, SIZE, edges)
        kept = place_labels(points, SIZE, edges)
        _LAST.clear()
        assert kept == place_labels(points, SIZE, edges)
        before = points

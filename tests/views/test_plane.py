"""Explore's plane draws what every head does, against numpy: each head's weight on every key as
a line's width, the values, the outputs among them, and a readout beside it; every label inside
the plane and apart, at the fixture, at every preset and at 200 random places of the points."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_lessons import LESSONS
from attention_lessons.engine import (
    EDGE,
    Explore,
    Fixture,
    Lesson,
    go_to_preset,
    point_ids,
)
from attention_lessons.engine.explore import explored_fixture
from attention_lessons.views import (
    SIZE,
    THINNEST,
    WIDEST,
    edge_boxes,
    explore_view,
    line_width,
    place_labels,
    together,
)
from attention_lessons.views.labels import _LAST
from attention_lessons.views.plane import APART
from oracles import LessonOracle, by_numpy, own_fixture
from strategies import moved_to, plane_places

EVERY = pytest.mark.parametrize("lesson", list(LESSONS.values()), ids=list(LESSONS))


def svg(x: float, y: float) -> tuple[float, float]:
    """Where numpy puts (x, y) in the plane's viewBox."""
    return (float(np.interp(x, [-EDGE, EDGE], [0, SIZE])),
            float(np.interp(y, [-EDGE, EDGE], [SIZE, 0])))


def oracle(lesson: Lesson, fixture: Fixture, explore: Explore) -> LessonOracle:
    """The lesson's heads on the explored points, by the lesson's own numpy oracle."""
    return by_numpy(lesson, explored_fixture(fixture, explore))


@EVERY
@given(data=st.data())
def test_each_heads_lines_are_as_wide_as_numpys_weights_and_run_where_the_oracle_says(
        lesson: Lesson, data: st.DataObject) -> None:
    fixture = own_fixture(lesson)
    explore = moved_to(fixture, data.draw(plane_places(fixture)))
    plane = explore_view(lesson, fixture, explore).plane
    found = oracle(lesson, fixture, explore)
    starts, ends = found.line_ends(explored_fixture(fixture, explore))
    lines = {line.id: line for line in plane.lines}
    assert len(lines) == len(lesson.heads) * len(ends)
    # Heads sharing a start lie side by side across each line (exactly on it, for one head);
    # heads with starts of their own each lie half a gap to their own side.
    shared = len({tuple(s) for s in starts}) == 1
    middle = (len(lesson.heads) - 1) / 2
    for h, (spec, start, head_weights) in enumerate(
            zip(lesson.heads, starts, found.weights, strict=True)):
        aside = abs(h - middle) * APART if shared else APART / 2
        for k, (w, end) in enumerate(zip(head_weights.ravel(), ends, strict=True), 1):
            line = lines[f"weight_{spec.id}_{k}"]
            expected = 0.0 if w == 0 else max(THINNEST, w * WIDEST)
            assert line.width == pytest.approx(expected, abs=0.006)
            if svg(*start) == svg(*end):
                continue  # a head's line to its own start has no length and no side
            for (x, y), at in (((line.x1, line.y1), start), ((line.x2, line.y2), end)):
                assert float(np.hypot(*np.subtract((x, y), svg(*at)))) == pytest.approx(
                    aside, abs=0.01)


@EVERY
@given(data=st.data())
def test_the_values_and_outputs_sit_where_numpy_puts_them(
        lesson: Lesson, data: st.DataObject) -> None:
    fixture = own_fixture(lesson)
    explore = moved_to(fixture, data.draw(plane_places(fixture)))
    plane = explore_view(lesson, fixture, explore).plane
    found = oracle(lesson, fixture, explore)
    values = found.values
    spots = {s.id: (s.cx, s.cy) for s in plane.spots}
    for k, v in enumerate(values, 1):
        assert spots[f"value_{k}"] == pytest.approx(svg(*v))
    expected = {f"mark_{mark}": xy for mark, xy in found.marks.items()}
    assert set(spots) == {f"value_{k}" for k in range(1, len(values) + 1)} | set(expected)
    for spot, (x, y) in expected.items():
        assert spots[spot] == pytest.approx(svg(x, y), abs=1e-9)
    for spot in expected:  # an output is the values weighted: inside the values' box
        x, y = spots[spot]
        assert svg(values[:, 0].min(), 0)[0] - 1e-9 <= x <= svg(values[:, 0].max(), 0)[0] + 1e-9


@EVERY
@given(data=st.data())
def test_the_readout_prints_numpys_weights_outputs_and_comparison(
        lesson: Lesson, data: st.DataObject) -> None:
    fixture = own_fixture(lesson)
    explore = moved_to(fixture, data.draw(plane_places(fixture)))
    view = explore_view(lesson, fixture, explore)
    found = oracle(lesson, fixture, explore)
    assert view.readout.heads == tuple(spec.id for spec in lesson.heads)
    for printed, w in zip(view.readout.weights, found.weights, strict=True):
        np.testing.assert_allclose([float(x) for x in printed], w.ravel(), atol=0.5e-4 + 1e-12)
    for output, o in zip(view.readout.outputs, found.outputs, strict=True):
        np.testing.assert_allclose([float(x) for x in output.split(", ")], o.ravel(),
                                   atol=0.5e-4 + 1e-12)
    if found.gaps is not None:
        gaps = view.readout.note.rpartition(": ")[2].rstrip(".").split(", ")
        np.testing.assert_allclose([float(g) for g in gaps], found.gaps, atol=0.5e-4 + 1e-12)


def assert_labels_apart(lesson: Lesson, fixture: Fixture, explore: Explore) -> None:
    """Every label inside the plane and clear of every other and of the edge's numbers, and
    every point, value and mark named once."""
    slug = lesson.slug
    plane = explore_view(lesson, fixture, explore).plane
    shown = [label for label in plane.labels.values() if label.text]
    boxes = [label.box for label in shown] + edge_boxes(plane.edge, plane.origin)
    for n, box in enumerate(boxes):
        assert box.inside(SIZE), (slug, explore, box)
        assert not [other for other in boxes[n + 1:] if box.overlaps(other)], (slug, explore)
    assert len(plane.labels) == len(plane.points) + len(plane.spots)
    for label in plane.labels.values():  # an empty label's point is named by one at its place
        assert label.text or [x for x in shown if (x.x, x.y) == (label.x, label.y)]


def random_places(fixture: Fixture, n: int = 200) -> np.ndarray:
    """n places on the plane, in tenths, for each of the fixture's points: the same every run."""
    size = (n, len(point_ids(fixture)), 2)
    return np.random.default_rng(32).integers(-30, 31, size=size) / 10


@EVERY
def test_labels_stay_inside_the_plane_and_apart_at_the_fixture_every_preset_and_at_random(
        lesson: Lesson) -> None:
    fixture = own_fixture(lesson)
    assert_labels_apart(lesson, fixture, Explore())
    for preset in lesson.presets():
        assert_labels_apart(lesson, fixture, go_to_preset(lesson, fixture, preset.id))
    for places in random_places(fixture):
        assert_labels_apart(lesson, fixture, moved_to(fixture, places))


def test_points_at_one_place_are_named_together() -> None:
    assert together(["key 1", "key 3"]) == "keys 1 and 3"
    assert together(["query", "key 2", "key 4"]) == "query and keys 2 and 4"
    assert together(["column 1", "column 2"]) == "columns 1 and 2"


def test_a_line_for_no_weight_is_not_drawn_and_any_weight_is_seen() -> None:
    assert line_width(0.0) == 0.0
    assert line_width(1e-9) == THINNEST
    assert line_width(1.0) == WIDEST


@EVERY
def test_labels_kept_from_the_last_placement_are_where_placing_all_anew_puts_them(
        lesson: Lesson) -> None:
    """A drag frame keeps the labels of the points ahead of the one it moves; the result is the
    same as placing every label anew."""
    fixture = own_fixture(lesson)
    before: list[tuple[str, float, float]] = []
    for places in random_places(fixture, 60):
        plane = explore_view(lesson, fixture, moved_to(fixture, places)).plane
        values = sum(s.id.startswith("value_") for s in plane.spots)
        points = [(n.name, n.cx, n.cy) for n in plane.spots[:values]]
        points += [(n.name, n.cx, n.cy) for n in (*plane.points[1:], plane.points[0])]
        points += [(n.name, n.cx, n.cy) for n in plane.spots[values:]]
        edges = edge_boxes(plane.edge, plane.origin)
        # The same values and first two keys, the rest elsewhere.
        moved = [*points[:values + 2], *before[values + 2:]]
        place_labels(moved, SIZE, edges)
        kept = place_labels(points, SIZE, edges)
        _LAST.clear()
        assert kept == place_labels(points, SIZE, edges)
        before = points

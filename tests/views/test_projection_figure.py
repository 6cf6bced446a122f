"""The output projection's figure: its arrows are numpy's vectors, on a plane that holds them, for
every lesson with an output projection, on its own fixture and by its own oracle."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from attention_lessons import LESSONS, Progress, projection_figure, set_projection, work
from attention_lessons.engine import Lesson, Worked
from attention_lessons.views import EDGE_AT, FIGURE_SIZE, place_labels, text_box
from oracles import by_numpy, own_fixture

PROJECTED = [lesson for lesson in LESSONS.values() if lesson.projection is not None]
EACH = pytest.mark.parametrize("lesson", PROJECTED, ids=[lesson.slug for lesson in PROJECTED])


def worked(lesson: Lesson) -> Worked:
    return work(lesson, own_fixture(lesson))


@EACH
@pytest.mark.parametrize("matrix", [((1, 0), (0, 1)), ((0, 1), (1, 0)), ((3, -1.5), (0.5, 2)),
                                    ((-60, 0), (0, 1))])
def test_each_arrow_points_where_numpy_puts_its_vector(
        lesson: Lesson, matrix: tuple[tuple[float, ...], ...]) -> None:
    progress = Progress()
    for r, row in enumerate(matrix):
        for c, value in enumerate(row):
            progress = set_projection(progress, r, c, float(value))
    figure = projection_figure(progress, worked(lesson))
    assert figure is not None
    m = np.array(matrix, dtype=float)
    concatenated = np.concatenate([o.ravel() for o in by_numpy(lesson).outputs])
    oracle = {"concatenated": concatenated, "projected": m @ concatenated,
              "column_1": m[:, 0], "column_2": m[:, 1]}
    edge = float(figure.edge)
    assert edge >= max(np.abs(v).max() for v in oracle.values())
    for arrow in figure.arrows:
        x, y = oracle[arrow.id]
        assert arrow.x == pytest.approx(FIGURE_SIZE / 2 * (1 + x / edge))
        assert arrow.y == pytest.approx(FIGURE_SIZE / 2 * (1 - y / edge))
        assert f"{arrow.label} at {x:.4f}, {y:.4f}".replace("-0.0000", "0.0000") in figure.text


@pytest.mark.parametrize("lesson", list(LESSONS.values()), ids=list(LESSONS))
def test_only_a_lesson_with_a_projection_has_the_figure(lesson: Lesson) -> None:
    figure = projection_figure(Progress(), worked(lesson))
    assert (figure is None) == (lesson.projection is None)


def matrix_progress(matrix: Sequence[Sequence[float]]) -> Progress:
    progress = Progress()
    for r, row in enumerate(matrix):
        for c, value in enumerate(row):
            progress = set_projection(progress, r, c, float(value))
    return progress


RANDOM = np.random.default_rng(32).integers(-30, 31, size=(200, 2, 2)) / 10  # the sliders' grid


@EACH
@pytest.mark.parametrize("matrix", [((1, 0), (0, 1)), *RANDOM.tolist()])
def test_the_labels_stay_inside_the_figure_and_apart_at_any_matrix(
        lesson: Lesson, matrix: Sequence[Sequence[float]]) -> None:
    figure = projection_figure(matrix_progress(matrix), worked(lesson))
    assert figure is not None
    boxes = [a.shown.box for a in figure.arrows if a.shown.text]
    boxes.append(text_box(figure.edge, *EDGE_AT, "end"))
    for n, box in enumerate(boxes):
        assert box.inside(FIGURE_SIZE), box
        assert not [other for other in boxes[n + 1:] if box.overlaps(other)]
    for arrow in figure.arrows:  # an arrow whose label is empty is named by one at its tip
        assert arrow.shown.text or [a for a in figure.arrows if a.shown.text
                                    and (a.shown.x, a.shown.y) == (arrow.shown.x, arrow.shown.y)]


@EACH
def test_arrows_that_meet_share_one_label(lesson: Lesson) -> None:
    # Both columns at [1, 0].
    figure = projection_figure(matrix_progress(((1, 1), (0, 0))), worked(lesson))
    assert figure is not None
    shown = {a.id: a.shown.text for a in figure.arrows}
    assert shown["column_1"] == "columns 1 and 2"
    assert shown["column_2"] == ""


def test_a_label_goes_up_and_right_unless_the_edge_or_another_label_is_there() -> None:
    first, beside, cornered = place_labels(
        [("a", 100, 100), ("b", 100, 100), ("column 1", 299, 1)], 300)
    assert (first.x, first.y, first.anchor) == (106, 94, "start")
    assert (beside.x, beside.y, beside.anchor) == (94, 94, "end")
    assert (cornered.anchor, cornered.box.inside(300)) == ("end", True)
    assert cornered.y > 1

"""The output projection's figure: its arrows are numpy's vectors, on a plane that holds them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from attention_lessons import LESSONS, Progress, projection_figure, set_projection, work
from attention_lessons.views import EDGE_AT, FIGURE_SIZE, place_labels, text_box
from strategies import D8, FIXTURE_TEXT, numpy_heads

CONCATENATED = np.concatenate([h["output"] for h in numpy_heads(
    D8.fixture.query, D8.fixture.keys, D8.fixture.values, [0, 1, 2])])


@pytest.mark.parametrize("matrix", [((1, 0), (0, 1)), ((0, 1), (1, 0)), ((3, -1.5), (0.5, 2)),
                                    ((-60, 0), (0, 1))])
def test_each_arrow_points_where_numpy_puts_its_vector(
        matrix: tuple[tuple[float, ...], ...]) -> None:
    progress = Progress()
    for r, row in enumerate(matrix):
        for c, value in enumerate(row):
            progress = set_projection(progress, r, c, float(value))
    figure = projection_figure(progress, D8)
    assert figure is not None
    m = np.array(matrix, dtype=float)
    oracle = {"concatenated": CONCATENATED, "projected": m @ CONCATENATED,
              "column_1": m[:, 0], "column_2": m[:, 1]}
    edge = float(figure.edge)
    assert edge >= max(np.abs(v).max() for v in oracle.values())
    for arrow in figure.arrows:
        x, y = oracle[arrow.id]
        assert arrow.x == pytest.approx(FIGURE_SIZE / 2 * (1 + x / edge))
        assert arrow.y == pytest.approx(FIGURE_SIZE / 2 * (1 - y / edge))
        assert f"{arrow.label} at {x:.4f}, {y:.4f}".replace("-0.0000", "0.0000") in figure.text


def test_only_a_lesson_with_a_projection_has_the_figure() -> None:
    from attention_lessons import parse_fixture  # noqa: PLC0415

    assert projection_figure(Progress(), work(LESSONS["8-2"], parse_fixture(FIXTURE_TEXT))) is None


def matrix_progress(matrix: Sequence[Sequence[float]]) -> Progress:
    progress = Progress()
    for r, row in enumerate(matrix):
        for c, value in enumerate(row):
            progress = set_projection(progress, r, c, float(value))
    return progress


RANDOM = np.random.default_rng(32).integers(-30, 31, size=(200, 2, 2)) / 10  # the sliders' grid


@pytest.mark.parametrize("matrix", [((1, 0), (0, 1)), *RANDOM.tolist()])
def test_the_labels_stay_inside_the_figure_and_apart_at_any_matrix(
        matrix: Sequence[Sequence[float]]) -> None:
    figure = projection_figure(matrix_progress(matrix), D8)
    assert figure is not None
    boxes = [a.shown.box for a in figure.arrows if a.shown.text]
    boxes.append(text_box(figure.edge, *EDGE_AT, "end"))
    for n, box in enumerate(boxes):
        assert box.inside(FIGURE_SIZE), box
        assert not [other for other in boxes[n + 1:] if box.overlaps(other)]
    for arrow in figure.arrows:  # an arrow whose label is empty is named by one at its tip
        assert arrow.shown.text or [a for a in figure.arrows if a.shown.text
                                    and (a.shown.x, a.shown.y) == (arrow.shown.x, arrow.shown.y)]


def test_arrows_that_meet_share_one_label() -> None:
    figure = projection_figure(matrix_progress(((1, 1), (0, 0))), D8)  # both columns at [1, 0]
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

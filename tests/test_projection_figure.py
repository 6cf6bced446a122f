"""The output projection's figure: its arrows are numpy's vectors, on a plane that holds them."""

from __future__ import annotations

import numpy as np
import pytest

from attention_lessons import LESSONS, Progress, projection_figure, set_projection, work
from attention_lessons._projection_figure import SIZE
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
        assert arrow.x == pytest.approx(SIZE / 2 * (1 + x / edge))
        assert arrow.y == pytest.approx(SIZE / 2 * (1 - y / edge))
        assert f"{arrow.label} at {x:.4f}, {y:.4f}".replace("-0.0000", "0.0000") in figure.text


def test_only_a_lesson_with_a_projection_has_the_figure() -> None:
    from attention_lessons import parse_fixture  # noqa: PLC0415

    assert projection_figure(Progress(), work(LESSONS["8-2"], parse_fixture(FIXTURE_TEXT))) is None

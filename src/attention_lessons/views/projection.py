"""The output projection drawn: the concatenated and projected vectors and the matrix's columns
as arrows from the origin, on a plane that grows to hold them."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engine import Vector, Worked, decimals, project
from ..progress import Progress
from .labels import Label, label_points, text_box

FIGURE_SIZE = 300  # the figure's viewBox is FIGURE_SIZE by FIGURE_SIZE
SMALLEST_EDGE = 2  # the plane runs at least from -2 to 2
# The edge's number, anchored at its end, above the axis.
EDGE_AT = (FIGURE_SIZE - 4, FIGURE_SIZE / 2 - 4)


@dataclass(frozen=True)
class Arrow:
    """One arrow from the origin: its id, label, tip in the viewBox and the vector it draws,
    and its label on the figure (empty where another arrow's label names both)."""

    id: str
    label: str
    x: float
    y: float
    vector: tuple[str, str]
    shown: Label


@dataclass(frozen=True)
class ProjectionFigure:
    """The plane's edge and origin, the four arrows, and a text alternative with their numbers."""

    edge: str
    origin: float
    arrows: tuple[Arrow, ...]
    text: str


FIGURE_NAMES = {"concatenated": "concatenated", "projected": "projected",
                "column_1": "column 1", "column_2": "column 2"}  # each arrow's label on the figure


def projection_figure(progress: Progress, worked: Worked) -> ProjectionFigure | None:
    """Draw the concatenated heads, the projected vector and the matrix's two columns."""
    if worked.lesson.projection is None or len(worked.concatenated) != 2:
        return None
    matrix = progress.projection
    named: list[tuple[str, str, Vector]] = [
        ("concatenated", "heads, concatenated", worked.concatenated),
        ("projected", "through the projection", project(matrix, worked.concatenated)),
        ("column_1", "column 1", (matrix[0][0], matrix[1][0])),
        ("column_2", "column 2", (matrix[0][1], matrix[1][1])),
    ]
    biggest = max(abs(x) for _, _, v in named for x in v)
    edge = max(SMALLEST_EDGE, math.ceil(biggest))
    half = FIGURE_SIZE / 2

    def tip(v: Vector) -> tuple[float, float]:
        return half + v[0] / edge * half, half - v[1] / edge * half

    tips = [tip(v) for _, _, v in named]
    labels = label_points(
        [(FIGURE_NAMES[i], *at) for (i, _, _), at in zip(named, tips, strict=True)], FIGURE_SIZE,
        [text_box(str(edge), *EDGE_AT, "end")])
    arrows = tuple(Arrow(i, label, *at, (decimals(v[0]), decimals(v[1])), shown)
                   for (i, label, v), at, shown in zip(named, tips, labels, strict=True))
    said = "; ".join(f"{a.label} at {a.vector[0]}, {a.vector[1]}" for a in arrows)
    text = (f"The output projection on a plane from -{edge} to {edge}, arrows from the origin: "
            f"{said}. The projected vector is column 1 times the first entry plus column 2 "
            "times the second.")
    return ProjectionFigure(str(edge), half, arrows, text)

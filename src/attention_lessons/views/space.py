"""A space the lesson's figure draws beside Explore's plane: what the moved points become (8.4's
tokens, projected to queries, keys and values), a mark each, labelled, and said in words."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Space, exact, listing
from .labels import ASCENT, Box, Label, label_points, text_box

SIZE = 300  # the plane's SVG viewBox is SIZE by SIZE, and so is each space's beside it


@dataclass(frozen=True)
class SpaceMark:
    """One mark where the space draws it, in the viewBox, held to its edge."""

    id: str  # "q_1": the page's element is explore_space_<space>_q_1
    cx: float
    cy: float


@dataclass(frozen=True)
class SpaceView:
    """A space as drawn: its edge's number, the origin, its marks, their labels and its text."""

    id: str
    edge: str
    origin: tuple[float, float]
    marks: tuple[SpaceMark, ...]
    labels: dict[str, Label]  # by mark id; an empty one where another names both
    text: str


def edge_places(origin: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where a figure prints its edge's number: at the right end of the across axis, anchored
    at its end, and at the top of the up axis."""
    ox, oy = origin
    return (SIZE - 2, oy - 4), (ox + 4, ASCENT + 1)


def space_view(space: Space) -> SpaceView:
    """Place each of the space's marks and its label, and say where each is."""
    edge = space.edge

    def at(x: float, y: float) -> tuple[float, float]:
        cx, cy = (x + edge) / (2 * edge) * SIZE, (edge - y) / (2 * edge) * SIZE
        return min(SIZE, max(0.0, cx)), min(SIZE, max(0.0, cy))

    origin = at(0.0, 0.0)
    marks = tuple(SpaceMark(m.id, *at(*m.at)) for m in space.marks)
    shown = f"{edge:g}"
    right, top = edge_places(origin)
    fixed: list[Box] = [text_box(shown, *right, "end"), text_box(shown, *top, "start")]
    placed = label_points([(m.label, spot.cx, spot.cy)
                           for m, spot in zip(space.marks, marks, strict=True)], SIZE, fixed)
    text = (f"{space.title[:1].upper()}{space.title[1:]}, from {-edge:g} to {edge:g} on both "
            "axes: " + "; ".join(f"{m.name} at {listing(m.at, exact)}" for m in space.marks) + ".")
    return SpaceView(space.id, shown, origin, marks,
                     {m.id: label for m, label in zip(space.marks, placed, strict=True)}, text)

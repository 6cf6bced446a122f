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


def in_viewbox(x: float, y: float, edge: float) -> tuple[float, float]:
    """Where (x, y) sits in a figure's viewBox that runs from -edge to edge: x to the right,
    y up."""
    return ((x + edge) / (2 * edge) * SIZE, (edge - y) / (2 * edge) * SIZE)


def held(cx: float, cy: float) -> tuple[float, float]:
    """A place in the viewBox held to the figure's edge: a mark never leaves it."""
    return min(SIZE, max(0.0, cx)), min(SIZE, max(0.0, cy))


def edge_places(origin: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where a figure prints its edge's number: at the right end of the across axis, anchored
    at its end, and at the top of the up axis."""
    ox, oy = origin
    return (SIZE - 2, oy - 4), (ox + 4, ASCENT + 1)


def edge_boxes(edge: str, origin: tuple[float, float]) -> list[Box]:
    """The boxes of a figure's two edge numbers, which every label stays clear of."""
    right, top = edge_places(origin)
    return [text_box(edge, *right, "end"), text_box(edge, *top, "start")]


def space_view(space: Space) -> SpaceView:
    """Place each of the space's marks and its label, and say where each is."""
    edge = space.edge
    origin = in_viewbox(0.0, 0.0, edge)
    marks = tuple(SpaceMark(m.id, *held(*in_viewbox(*m.at, edge))) for m in space.marks)
    shown = f"{edge:g}"
    placed = label_points([(m.label, spot.cx, spot.cy)
                           for m, spot in zip(space.marks, marks, strict=True)], SIZE,
                          edge_boxes(shown, origin))
    text = (f"{space.title[:1].upper()}{space.title[1:]}, from {-edge:g} to {edge:g} on both "
            "axes: " + "; ".join(f"{m.name} at {listing(m.at, exact)}" for m in space.marks) + ".")
    return SpaceView(space.id, shown, origin, marks,
                     {m.id: label for m, label in zip(space.marks, placed, strict=True)}, text)

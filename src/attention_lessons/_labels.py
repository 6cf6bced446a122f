"""Where a figure's labels go: each by the point it names, inside the figure, and clear of the
labels placed before it and of the figure's fixed text.

A label's box is estimated from its characters, generously, at the figures' 13 px text: an
end-to-end test holds the browser's own boxes to lie inside these, so labels that are apart
here are apart on the page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

CHARACTER = 8.5  # viewBox units a character of 13 px text takes, at most, in a 300-unit figure
ASCENT, DESCENT = 13.0, 4.5  # above and below the baseline
GAP = 6.0  # between a point and its label
LINE = 15.0  # how far a label moves up or down when its first places are taken
TRIES = 8  # lines tried above and below, each way
SAME = 1.0  # viewBox units within which two points are one place, and one label names both


@dataclass(frozen=True)
class Box:
    """A rectangle in the viewBox."""

    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return (self.left < other.right and other.left < self.right
                and self.top < other.bottom and other.top < self.bottom)

    def inside(self, size: float) -> bool:
        return self.left >= 0 and self.top >= 0 and self.right <= size and self.bottom <= size


@dataclass(frozen=True)
class Label:
    """A placed label: its text, its baseline's x and y, its text-anchor, and its box."""

    text: str
    x: float
    y: float
    anchor: str  # "start", "middle" or "end"
    box: Box


def text_box(text: str, x: float, y: float, anchor: str) -> Box:
    """The box that `text`, drawn at (x, y) with that text-anchor, fits inside."""
    width = len(text) * CHARACTER
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return Box(left, y - ASCENT, left + width, y + DESCENT)


def _places(x: float, y: float) -> list[tuple[float, float, str]]:
    """A point's label places, best first: up and right, then the other corners, then above and
    below, each tried again a line further up and down."""
    corners = [(x + GAP, y - GAP, "start"), (x - GAP, y - GAP, "end"),
               (x + GAP, y + GAP + ASCENT, "start"), (x - GAP, y + GAP + ASCENT, "end"),
               (x, y - GAP - DESCENT, "middle"), (x, y + GAP + ASCENT, "middle")]
    shifts = [0.0, *(LINE * n * sign for n in range(1, TRIES + 1) for sign in (-1, 1))]
    return [(px, py + dy, anchor) for dy in shifts for px, py, anchor in corners]


def place_labels(points: Sequence[tuple[str, float, float]], size: float,
                 fixed: Sequence[Box] = ()) -> tuple[Label, ...]:
    """Place each (text, x, y) in turn at its first place inside the figure and clear of every
    box so far; where none is clear, at the place inside that overlaps the fewest."""
    taken = list(fixed)
    placed = []
    for text, x, y in points:
        candidates = [(px, py, anchor, text_box(text, px, py, anchor))
                      for px, py, anchor in _places(x, y)]
        inside = [c for c in candidates if c[3].inside(size)] or candidates
        px, py, anchor, box = min(
            inside, key=lambda c: sum(c[3].overlaps(other) for other in taken))
        taken.append(box)
        placed.append(Label(text, round(px, 2), round(py, 2), anchor, box))
    return tuple(placed)


def label_points(points: Sequence[tuple[str, float, float]], size: float,
                 fixed: Sequence[Box] = ()) -> list[Label]:
    """Place a label for each (text, x, y) as place_labels does, but points at one place share
    one label ("column 1 and column 2"), given to the first of them; the others' are empty."""
    shared: list[tuple[str, float, float]] = []
    owner: list[int] = []  # for each point, the index in `shared` of the label naming it
    for name, x, y in points:
        same = next((k for k, (_, sx, sy) in enumerate(shared)
                     if abs(sx - x) < SAME and abs(sy - y) < SAME), None)
        if same is None:
            owner.append(len(shared))
            shared.append((name, x, y))
        else:
            owner.append(same)
            text, sx, sy = shared[same]
            shared[same] = (f"{text} and {name}", sx, sy)
    placed = place_labels(shared, size, fixed)
    first = {k: owner.index(k) for k in set(owner)}
    return [placed[k] if first[k] == n else Label("", placed[k].x, placed[k].y, "start",
                                                  placed[k].box)
            for n, k in enumerate(owner)]

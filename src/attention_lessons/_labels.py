"""Where a figure's labels go: each by the point it names, inside the figure, and clear of the
labels placed before it and of the figure's fixed text.

A label's box is estimated from its characters, generously, at the figures' 13 px text: an
end-to-end test holds the browser's own boxes to lie inside these, so labels that are apart
here are apart on the page.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

CHARACTER = 8.5  # viewBox units a character of 13 px text takes, at most, in a 300-unit figure
ASCENT, DESCENT = 13.0, 4.5  # above and below the baseline
GAP = 6.0  # between a point and its label
SIDE = 1.0  # room at either end of a label: a glyph may draw a hair past its anchor
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
    return Box(left - SIDE, y - ASCENT, left + width + SIDE, y + DESCENT)


def _places(x: float, y: float) -> Iterator[tuple[float, float, str]]:
    """A point's label places, best first: up and right, then the other corners, then above and
    below, each tried again a line further up and down."""
    corners = ((x + GAP, y - GAP, "start"), (x - GAP, y - GAP, "end"),
               (x + GAP, y + GAP + ASCENT, "start"), (x - GAP, y + GAP + ASCENT, "end"),
               (x, y - GAP - DESCENT, "middle"), (x, y + GAP + ASCENT, "middle"))
    for dy in SHIFTS:
        for px, py, anchor in corners:
            yield px, py + dy, anchor


def _inside(text: str, x: float, y: float,
            size: float) -> Iterator[tuple[float, float, str, Box]]:
    """The places of _places whose box lies inside the figure, with that box; then, for a wide
    label by a side, each place again slid across just far enough to come inside."""
    for px, py, anchor in _places(x, y):
        box = text_box(text, px, py, anchor)
        if box.inside(size):
            yield px, py, anchor, box
    for px, py, anchor in _places(x, y):
        box = text_box(text, px, py, anchor)
        slide = max(0.0, -box.left) - max(0.0, box.right - size)
        box = text_box(text, px + slide, py, anchor)
        if slide and box.inside(size):
            yield px + slide, py, anchor, box


SHIFTS = (0.0, *(LINE * n * sign for n in range(1, TRIES + 1) for sign in (-1, 1)))


def place_labels(points: Sequence[tuple[str, float, float]], size: float,
                 fixed: Sequence[Box] = ()) -> tuple[Label, ...]:
    """Place each (text, x, y) in turn at its first place inside the figure and clear of every
    box so far; where none is clear, at the place inside that overlaps the fewest."""
    taken = list(fixed)
    placed = []
    for text, x, y in points:
        # A drag frame places every label: the first clear place ends the search.
        clear = next((c for c in _inside(text, x, y, size)
                      if not any(c[3].overlaps(t) for t in taken)), None)
        if clear is None:
            clear = min(_inside(text, x, y, size),
                        key=lambda c: sum(c[3].overlaps(t) for t in taken), default=None)
        if clear is None:  # no place inside at all (a label wider than the figure): the first
            px, py, anchor = next(_places(x, y))
            clear = (px, py, anchor, text_box(text, px, py, anchor))
        px, py, anchor, box = clear
        taken.append(box)
        placed.append(Label(text, round(px, 2), round(py, 2), anchor, box))
    return tuple(placed)


def together(names: Sequence[str]) -> str:
    """Name points that share one place in one label: "key 1", "keys 1 and 3", "query and key 2";
    numbered names of one kind ("key 1", "key 3") share their word."""
    kinds: dict[str, list[str]] = {}  # a kind's word (or a whole name), and its numbers
    for name in names:
        word, _, number = name.rpartition(" ")
        if word and number.isdigit():
            kinds.setdefault(word, []).append(number)
        else:
            kinds.setdefault(name, [])
    return _listed([word if not numbers else f"{word} {numbers[0]}" if len(numbers) == 1
                    else f"{word}s {_listed(numbers)}" for word, numbers in kinds.items()])


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def label_points(points: Sequence[tuple[str, float, float]], size: float,
                 fixed: Sequence[Box] = ()) -> list[Label]:
    """Place a label for each (text, x, y) as place_labels does, but points at one place share
    one label ("keys 1 and 3"), given to the first of them; the others' are empty."""
    groups: list[tuple[list[str], float, float]] = []
    owner: list[int] = []  # for each point, the index in `groups` of the label naming it
    for name, x, y in points:
        same = next((k for k, (_, sx, sy) in enumerate(groups)
                     if abs(sx - x) < SAME and abs(sy - y) < SAME), None)
        if same is None:
            owner.append(len(groups))
            groups.append(([name], x, y))
        else:
            owner.append(same)
            groups[same][0].append(name)
    placed = place_labels([(together(names), x, y) for names, x, y in groups], size, fixed)
    first = {k: owner.index(k) for k in set(owner)}
    return [placed[k] if first[k] == n else Label("", placed[k].x, placed[k].y, "start",
                                                  placed[k].box)
            for n, k in enumerate(owner)]

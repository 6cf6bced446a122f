"""Where a figure's labels go: each by the point it names, inside the figure, and clear of the
labels placed before it and of the figure's fixed text.

A label's box is estimated from its characters, generously, at the figures' 13 px text: an
end-to-end test holds the browser's own boxes to lie inside these, so labels that are apart
here are apart on the page.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..engine import with_and

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
    return Box(*_edges(len(text) * CHARACTER, x, y, anchor))


Edges = tuple[float, float, float, float]  # a box as (left, top, right, bottom): a drag frame
                                            # places every label, so the search uses tuples


def _edges(width: float, x: float, y: float, anchor: str) -> Edges:
    left = x if anchor == "start" else x - width / 2 if anchor == "middle" else x - width
    return left - SIDE, y - ASCENT, left + width + SIDE, y + DESCENT


SHIFTS = (0.0, *(LINE * n * sign for n in range(1, TRIES + 1) for sign in (-1, 1)))


def _places(x: float, y: float) -> Iterator[tuple[float, float, str]]:
    """A point's label places, best first: up and right, then the other corners, then above and
    below, each tried again a line further up and down."""
    corners = ((x + GAP, y - GAP, "start"), (x - GAP, y - GAP, "end"),
               (x + GAP, y + GAP + ASCENT, "start"), (x - GAP, y + GAP + ASCENT, "end"),
               (x, y - GAP - DESCENT, "middle"), (x, y + GAP + ASCENT, "middle"))
    for dy in SHIFTS:
        for px, py, anchor in corners:
            yield px, py + dy, anchor


def _inside(width: float, x: float, y: float,
            size: float) -> Iterator[tuple[float, float, str, Edges]]:
    """The places of _places whose box lies inside the figure, with that box; then, for a wide
    label by a side, each place again slid across just far enough to come inside."""
    tried: list[tuple[float, float, str, Edges]] = []  # each place with its box, for the slides
    for px, py, anchor in _places(x, y):
        edges = left, top, right, bottom = _edges(width, px, py, anchor)
        if left >= 0 and top >= 0 and right <= size and bottom <= size:
            yield px, py, anchor, edges
        tried.append((px, py, anchor, edges))
    for px, py, anchor, (left, top, right, bottom) in tried:
        slide = max(0.0, -left) - max(0.0, right - size)
        if slide and top >= 0 and bottom <= size and left + slide >= 0 and right + slide <= size:
            yield px + slide, py, anchor, (left + slide, top, right + slide, bottom)


def _clashes(box: Edges, taken: list[Edges], enough: int) -> int:
    """How many of the taken boxes `box` overlaps, counting no further than `enough`."""
    left, top, right, bottom = box
    count = 0
    for other_left, other_top, other_right, other_bottom in taken:
        if left < other_right and other_left < right and top < other_bottom and other_top < bottom:
            count += 1
            if count >= enough:
                break
    return count


def place_labels(points: Sequence[tuple[str, float, float]], size: float,
                 fixed: Sequence[Box] = ()) -> tuple[Label, ...]:
    """Place each (text, x, y) in turn at its first place inside the figure and clear of every
    box so far; where none is clear, at the place inside that overlaps the fewest.

    Each label's place depends only on the points before it, so the labels of the points that
    lead the last call's, unchanged, are taken from it: a drag frame moves one point, and what
    comes before it in the list is placed once (a figure lists the points that move least
    first)."""
    points, fixed = tuple(points), tuple(fixed)
    last_points, last_labels = _LAST.get((size, fixed), ((), ()))
    same = next((n for n, (now, then) in enumerate(zip(points, last_points, strict=False))
                 if now != then), min(len(points), len(last_points)))
    kept = last_labels[:same]
    taken = [*((b.left, b.top, b.right, b.bottom) for b in fixed),
             *((x.box.left, x.box.top, x.box.right, x.box.bottom) for x in kept)]
    placed = (*kept, *_placed(points[same:], size, taken))
    if len(_LAST) > 8:  # one entry a figure and its fixed boxes; a page has two or three
        _LAST.clear()
    _LAST[(size, fixed)] = (points, placed)
    return placed


_LAST: dict[tuple[float, tuple[Box, ...]],
            tuple[tuple[tuple[str, float, float], ...], tuple[Label, ...]]] = {}


def _placed(points: Sequence[tuple[str, float, float]], size: float,
            taken: list[Edges]) -> tuple[Label, ...]:
    """Place each point's label clear of the boxes taken, which it adds to."""
    placed = []
    for text, x, y in points:
        width = len(text) * CHARACTER
        best: tuple[float, float, str, Edges] | None = None
        fewest = len(taken) + 1
        for place in _inside(width, x, y, size):
            clashes = _clashes(place[3], taken, fewest)
            if clashes < fewest:
                best, fewest = place, clashes
                if not clashes:
                    break
        if best is None:  # no place inside at all (a label wider than the figure): the first
            px, py, anchor = next(_places(x, y))
            best = (px, py, anchor, _edges(width, px, py, anchor))
        px, py, anchor, edges = best
        taken.append(edges)
        placed.append(Label(text, round(px, 2), round(py, 2), anchor, Box(*edges)))
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
    return with_and([word if not numbers else f"{word} {numbers[0]}" if len(numbers) == 1
                     else f"{word}s {with_and(numbers)}" for word, numbers in kinds.items()])


def label_points(points: Sequence[tuple[str, float, float]], size: float,
                 fixed: Sequence[Box] = ()) -> list[Label]:
    """Place a label for each (text, x, y) as place_labels does, but points at one place share
    one label ("keys 1 and 3"), given to the first of them; the others' are empty."""
    groups: list[tuple[list[int], float, float]] = []  # the points at one place, and where
    owner: list[int] = []  # for each point, the index in `groups` of the label naming it
    for n, (_, x, y) in enumerate(points):
        same = next((k for k, (_, sx, sy) in enumerate(groups)
                     if abs(sx - x) < SAME and abs(sy - y) < SAME), None)
        if same is None:
            owner.append(len(groups))
            groups.append(([n], x, y))
        else:
            owner.append(same)
            groups[same][0].append(n)
    placed = place_labels([(together([points[n][0] for n in members]), x, y)
                           for members, x, y in groups], size, fixed)
    return [placed[k] if groups[k][0][0] == n else Label("", placed[k].x, placed[k].y, "start",
                                                         placed[k].box)
            for n, k in enumerate(owner)]

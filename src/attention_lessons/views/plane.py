"""What Explore's plane draws of the heads: each head's weight on every key as a line from the
query to that key, as wide as the weight; the values; and the outputs, which lie among them.
Beside the plane, the readout: each head's weights and output, and the lesson's comparison."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import Figure, PlaneMark, Worked, decimals, listing

# A head's lines are told apart by pattern as well as colour (WCAG 1.4.1): its name, dasharray.
PATTERNS = (("solid", ""), ("dashed", "7 4"), ("dotted", "2 3"), ("dash-dotted", "7 3 2 3"))
WIDEST = 9.0  # viewBox units: a line's width at a weight of 1
THINNEST = 0.75  # the narrowest line drawn for any weight above 0
APART = 4.0  # viewBox units between two heads' lines to one key, across them
ToSvg = Callable[[float, float], tuple[float, float]]


@dataclass(frozen=True)
class WeightLine:
    """One head's weight on one key: a line from the query to the key, as wide as the weight
    (0 wide, and so not drawn, where the key gets no weight at all, as a masked key does)."""

    id: str  # "weight_a_1": head a, key 1
    x1: float
    y1: float
    x2: float
    y2: float
    width: float


@dataclass(frozen=True)
class Spot:
    """A value or a mark where the plane draws it, in the viewBox, with its name for labels."""

    id: str  # "value_1", "mark_output_a"
    name: str  # its label on the figure: "value 1", "head A"
    cx: float
    cy: float


@dataclass(frozen=True)
class Readout:
    """Beside the plane: each head's weight on every key and its output, then the lesson's
    comparison, as the page prints them."""

    heads: tuple[str, ...]  # each head's id
    weights: tuple[tuple[str, ...], ...]  # by head, then by key
    outputs: tuple[str, ...]  # by head
    note: str
    shades: tuple[tuple[str, ...], ...] = ()  # a heatmap's, each weight's share of the colour


def pattern(index: int) -> tuple[str, str]:
    """The name and dasharray of the nth head's lines."""
    return PATTERNS[index % len(PATTERNS)]


def line_width(weight: float) -> float:
    """How wide a weight draws: in proportion, but never thinner than THINNEST above 0."""
    return 0.0 if weight <= 0 else round(max(THINNEST, weight * WIDEST), 2)


def weight_lines(worked: Worked, figure: Figure, to_svg: ToSvg) -> tuple[WeightLine, ...]:
    """Every head's line to every key, from the head's start to the key's end. Where the heads
    share a start (the plain head's query), their lines to one key lie side by side across it;
    where each starts at its own point, each line lies to its own side of the way between, so
    point 1's line to point 4 and point 4's to point 1 are both seen."""
    lesson = worked.lesson
    shared = len(set(figure.starts)) == 1
    lines = []
    for k, end in enumerate(figure.ends, 1):
        kx, ky = to_svg(*end)
        for h, (spec, head) in enumerate(zip(lesson.heads, worked.heads, strict=True)):
            qx, qy = to_svg(*figure.starts[h])
            length = math.hypot(kx - qx, ky - qy) or 1.0
            across = (-(ky - qy) / length, (kx - qx) / length)  # a unit normal to the line
            shift = (h - (len(lesson.heads) - 1) / 2) * APART if shared else APART / 2
            dx, dy = across[0] * shift, across[1] * shift
            lines.append(WeightLine(f"weight_{spec.id}_{k}", round(qx + dx, 2), round(qy + dy, 2),
                                    round(kx + dx, 2), round(ky + dy, 2),
                                    line_width(head.weights[k - 1])))
    return tuple(lines)


def square_spots(figure: Figure, to_svg: ToSvg) -> tuple[Spot, ...]:
    """What stays put on the plane (the plain head's values), each where the lesson puts it."""
    return tuple(Spot(m.id, m.label, *to_svg(*m.at)) for m in figure.squares)


def mark_spots(marks: tuple[PlaneMark, ...], to_svg: ToSvg) -> tuple[Spot, ...]:
    """The lesson's marks: the outputs, and any the lesson sets beside them."""
    return tuple(Spot(f"mark_{m.id}", m.label, *to_svg(*m.at)) for m in marks)


def heads_text(worked: Worked, figure: Figure, marks: tuple[PlaneMark, ...]) -> str:
    """The drawing in words, with every number it draws: for the figure's text alternative."""
    lesson = worked.lesson
    words = lesson.words
    said = [
        f"Each head's weights are lines {figure.lines}, as wide as the weight: "
        + ", ".join(f"{spec.name} {pattern(h)[0]}" for h, spec in enumerate(lesson.heads))
        + "."]
    for spec, head in zip(lesson.heads, worked.heads, strict=True):
        said.append(f"The weights of {spec.name}: " + "; ".join(
            f"{words.key} {k}, {decimals(w)}" for k, w in enumerate(head.weights, 1)) + ".")
    if figure.squares:
        said.append(f"The {words.values} are squares: " + "; ".join(
            f"{m.name} at {listing(m.at)}" for m in figure.squares) + ".")
    if marks:
        said.append("Rings mark " + "; ".join(f"{m.name} at {listing(m.at)}" for m in marks)
                    + ".")
    return " ".join(said)


def readout(worked: Worked) -> Readout:
    """Each head's weights and output as the readout prints them, and the lesson's note."""
    return Readout(
        heads=tuple(spec.id for spec in worked.lesson.heads),
        weights=tuple(tuple(decimals(w) for w in head.weights) for head in worked.heads),
        outputs=tuple(listing(head.output) for head in worked.heads),
        note=worked.lesson.readout_note(worked),
        shades=tuple(tuple(f"{w:.3f}" for w in head.weights) for head in worked.heads)
        if worked.lesson.heatmap else (),
    )

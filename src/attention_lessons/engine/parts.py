"""The parts a lesson is made of that need no worked lesson: its choices, its heads' panels and
step tables, its comparison, plane marks, projection and scales."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from .attention import HeadTrace
from .format import decimals, exact, listing
from .words import PLAIN_WORDS, Words


@dataclass(frozen=True)
class Choice:
    """One radio choice: the value stored in progress and the label the page shows."""

    id: str
    label: str


@dataclass(frozen=True)
class HeadSpec:
    """One head's panel: its id (for the page's element ids), title, note and caption."""

    id: str
    name: str
    title: str
    note: str
    caption: str


@dataclass(frozen=True)
class Step:
    """One row of a head's step table."""

    label: str
    value: str


@dataclass(frozen=True)
class Comparison:
    """A table setting the lesson's heads, concatenated, beside a reference head."""

    title: str
    caption: str
    concatenated: str
    reference: str
    note: str
    mark: str = "reference"  # the reference head's output, as Explore's plane labels it


@dataclass(frozen=True)
class PlaneMark:
    """A point Explore's plane marks among the values: a head's output, or one set beside it."""

    id: str  # for the page's element ids: "output_a", "concatenated", "reference"
    label: str  # on the figure, short: "head A", "output"
    name: str  # in words, for the text alternative: "the output of head A"
    at: tuple[float, float]


Place = tuple[float, float]  # a point on Explore's plane, in the lesson's own coordinates


@dataclass(frozen=True)
class Space:
    """A space the figure draws beside the plane, with nothing in it to move: what the points
    become (8.4's tokens projected to queries, keys and values), each a mark where it is now."""

    id: str  # for the page's element ids: "projected"
    title: str  # what it shows, for its legend and its text alternative
    edge: float  # it runs from -edge to edge on both axes; a mark beyond sits on its edge
    marks: tuple[PlaneMark, ...]


@dataclass(frozen=True)
class Figure:
    """What Explore's plane draws of a worked lesson, beside its marks, all of it from the
    lesson's data: each head's weight on key k is a line from the head's start to key k's end,
    as wide as the weight. The plain head's lines all start at the query and end at the keys;
    a lesson where every token asks starts head h's lines at token h."""

    starts: tuple[Place, ...]  # by head
    ends: tuple[Place, ...]  # by key
    lines: str  # the lines in words: "from the query to every key"
    squares: tuple[PlaneMark, ...] = ()  # what stays put, drawn as squares: the plain values
    arrow: str | None = None  # the movable point drawn as an arrow from the origin, by id
    notes: Mapping[str, str] = field(default_factory=dict)  # what a point carries, by its id
    spaces: tuple[Space, ...] = ()  # drawn beside the plane, each its own figure


@dataclass(frozen=True)
class ProjectionSpec:
    """The output projection panel's prose; the matrix itself is part of progress."""

    kicker: str
    title: str
    text: str
    aside: str
    columns: tuple[str, str]


@dataclass(frozen=True)
class ScaleChoice:
    """A scale an Explore experiment can give every head: one over the square root of root,
    or (root None) each head's own, one over the square root of its dimension."""

    id: str
    label: str
    root: int | None = None


def root_of(head: HeadTrace) -> str:
    """Name what the head's scale is one over the square root of: its dimension, or another
    whole number an experiment chose; a scale of no such form prints as itself."""
    root = round(1 / head.scale**2)
    if root > 0 and math.isclose(1 / math.sqrt(root), head.scale, rel_tol=1e-12):
        return str(root)
    return f"{1 / head.scale**2:.4f}"


def scale_label(head: HeadTrace) -> str:
    """The step table's label for the scaled scores: "scaled by 1 over the square root of 2"."""
    return f"scaled by 1 over the square root of {root_of(head)}"


def plain_step_rows(head: HeadTrace, words: Words = PLAIN_WORDS) -> tuple[Step, ...]:
    """Return a scaled dot-product head's step table, from its scores to its output."""
    return (
        Step(f"scores, {words.query} times {words.key}", listing(head.scores, exact)),
        Step(scale_label(head), listing(head.scaled, exact)),
        Step("exponentials", listing(head.exps)),
        Step("their sum", decimals(head.total)),
        Step("weights", listing(head.weights)),
        Step(f"output, weights against {words.values}", listing(head.output)),
    )


def plain_scale_text(head: HeadTrace) -> str:
    """Return the head's scale with its rule in view: "scale 1 / sqrt(2) = 0.7071"."""
    return f"scale 1 / sqrt({root_of(head)}) = {exact(head.scale)}"

"""Places on Explore's plane worth a visit, which the package finds by search: what a preset
is, and the plain head's three."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a preset's objective reads a worked lesson, which knows its presets
    from ._lesson import Worked


@dataclass(frozen=True)
class Preset:
    """A place on Explore's plane that the package finds by search: the query that brings
    objective, a number computed from the worked lesson, to its smallest value."""

    id: str
    label: str  # says what the preset shows, so a test can hold it to its word
    objective: Callable[[Worked], float]


def _top_two(weights: tuple[float, ...]) -> tuple[float, float, float]:
    ranked = [*sorted(weights, reverse=True), 0.0, 0.0]
    return ranked[0], ranked[1], ranked[2]


def _spread(worked: Worked) -> float:
    # Only the keys the head may weigh at all: a masked key's weight is exactly 0.
    weights = [w for w in worked.heads[0].weights if w > 0]
    return max(weights) - min(weights)


def top_tie(worked: Worked) -> float:
    # Two keys level on top and the third well below them, so that the tie is between two.
    first, second, third = _top_two(worked.heads[0].weights)
    return (first - second) - min(second - third, 0.2)


PLAIN_PRESETS = (
    Preset("even", "Every key the query may see gets about the same weight.", _spread),
    Preset("one_key", "A single key takes almost all of the weight.",
           lambda w: -max(w.heads[0].weights)),
    Preset("tie", "Two keys tie for the largest weight.", top_tie),
)

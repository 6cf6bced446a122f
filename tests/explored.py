"""Explore's numbers as the page prints them, read back, and the moves that reach them: for the
tests that hold every explored step of a lesson's heads against numpy."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from hypothesis import strategies as st

from attention_lessons.engine import Explore, Fixture, explored_fixture, move, point_ids
from strategies import on_plane

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
HALF_LAST_DIGIT = 0.5 * 10**-4 + 1e-12
Moves = list[tuple[str, float, float]]


def moves(fixture: Fixture) -> st.SearchStrategy[Moves]:
    """Draw one to five moves of the fixture's points, each to a place on the plane in tenths."""
    return st.lists(st.tuples(st.sampled_from(point_ids(fixture)), on_plane, on_plane),
                    min_size=1, max_size=5)


def explored(fixture: Fixture, moved: Moves) -> Explore:
    """Explore after the moves, in turn."""
    explore = Explore()
    for point, x, y in moved:
        explore = move(explore, fixture, point, x, y)
    return explore


def vectors(fixture: Fixture, explore: Explore) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The explored query and keys, and the fixture's values, as numpy arrays."""
    now = explored_fixture(fixture, explore)
    return np.array(now.query), np.array(now.keys), np.array(now.values)


class Ticks:
    """A clock that moves on by one each time it is read: a slice of `n` seconds tries n places."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def printed(text: str) -> list[float]:
    """Every number in a printed text, in order."""
    return [float(x) for x in NUMBER.findall(text)]


def row(head: Any, label: str) -> list[float]:
    """A row of a head's printed step table, by its label, as numbers."""
    steps = {s.label: s.value for s in head.steps}
    return printed(steps[label])


def assert_printed(text: str, oracle: Any) -> None:
    """Assert printed numbers are numpy's to the last digit printed."""
    np.testing.assert_allclose(printed(text), oracle, rtol=0, atol=HALF_LAST_DIGIT)


def assert_printed_head(head: Any, oracle: dict[str, Any], d: int) -> None:
    """Assert every printed step of a head against numpy's, at the scale 1 / sqrt(d)."""
    np.testing.assert_allclose(row(head, "scores, query times key"), oracle["scores"],
                               atol=HALF_LAST_DIGIT)
    scaled = row(head, f"scaled by 1 over the square root of {d}")
    np.testing.assert_allclose(scaled, oracle["scaled"], atol=HALF_LAST_DIGIT)
    exps = np.exp(oracle["scaled"])
    np.testing.assert_allclose(row(head, "exponentials"), exps, rtol=1e-4, atol=HALF_LAST_DIGIT)
    np.testing.assert_allclose(row(head, "their sum"), [exps.sum()], rtol=1e-4,
                               atol=HALF_LAST_DIGIT)
    np.testing.assert_allclose(row(head, "weights"), oracle["weights"], atol=HALF_LAST_DIGIT)
    np.testing.assert_allclose(row(head, "output, weights against values"),
                               np.atleast_1d(oracle["output"]), atol=HALF_LAST_DIGIT)

"""Shared hypothesis strategies, and the numpy helpers each lesson's oracle is built from (each
lesson's oracle lives in its own test: see oracles.py)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from hypothesis import settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from attention_lessons import (
    LESSONS,
    Progress,
    lesson_fixture,
    lock_prediction,
    lock_reading,
    open_hint,
    reset_projection,
    save_takeaway,
    set_projection,
    work,
)
from attention_lessons.engine import Explore, Fixture, HeadTrace, hints_available, move, point_ids
from attention_lessons.progress import MAX_ENTRY, check, reset, settle, to_json

# Hypothesis judges results, never timings: the machines these tests run on are shared and noisy.
settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
# The lesson the record and page tests work, deep dive D8, on its own fixture: those tests type
# its question ids, predictions and readings.
D8 = work(LESSONS["d8"], lesson_fixture(LESSONS["d8"], FIXTURES))
QUESTIONS = D8.lesson.questions
QIDS = D8.lesson.question_ids
PREDICTIONS = {c.id: c.label for c in D8.lesson.predictions}
READINGS = tuple(c.id for c in D8.lesson.readings)

Array = npt.NDArray[np.float64]


def assert_close(actual: npt.ArrayLike, desired: npt.ArrayLike) -> None:
    """Assert agreement with the oracle to 1e-12, relative and absolute."""
    assert_allclose(np.asarray(actual, dtype=np.float64), np.asarray(desired, dtype=np.float64),
                    rtol=1e-12, atol=1e-12)


def assert_head(head: HeadTrace, oracle: Mapping[str, Array]) -> None:
    """Assert every step of a head against numpy's: the scores, the scaled scores, the
    exponentials (the oracle's own where it has them, as a mask does) and their sum, the weights
    and the output."""
    exps = oracle["exps"] if "exps" in oracle else np.exp(oracle["scaled"])
    assert_close(head.scores, oracle["scores"])
    assert_close(head.scaled, oracle["scaled"])
    assert_close(head.exps, exps)
    assert_close(head.total, exps.sum())
    assert_close(head.weights, oracle["weights"])
    assert_close(head.output, oracle["output"])


def numpy_attention(query: Any, keys: Any, values: Any) -> dict[str, Array]:
    """Compute one head the textbook way in numpy, naming each step as the package does."""
    q, k, v = (np.asarray(x, dtype=np.float64) for x in (query, keys, values))
    scores = k @ q
    scale = 1.0 / np.sqrt(q.shape[0])
    scaled = scores * scale
    # Shifted by the max: the stable softmax is the oracle, the naive one overflows.
    shifted = np.exp(scaled - scaled.max())
    weights = shifted / shifted.sum()
    return {"scores": scores, "scaled": scaled, "weights": weights, "output": weights @ v,
            "scale": np.array([scale])}


def numpy_heads(query: Any, keys: Any, values: Any,
                bounds: Any) -> list[dict[str, Array]]:
    """Run the numpy oracle once per coordinate slice cut by bounds."""
    q, k, v = (np.asarray(x, dtype=np.float64) for x in (query, keys, values))
    return [numpy_attention(q[lo:hi], k[:, lo:hi], v[:, lo:hi])
            for lo, hi in itertools.pairwise(bounds)]


on_plane = st.integers(-30, 30).map(lambda n: n / 10)


def plane_places(fixture: Fixture) -> st.SearchStrategy[list[tuple[float, float]]]:
    """Draw a place on Explore's plane, in tenths, for each of the fixture's points."""
    n = len(point_ids(fixture))
    return st.lists(st.tuples(on_plane, on_plane), min_size=n, max_size=n)


def moved_to(fixture: Fixture, places: Any) -> Explore:
    """Explore with the fixture's points, the query then each key, moved to the places."""
    explore = Explore()
    for point, (x, y) in zip(point_ids(fixture), places, strict=True):
        explore = move(explore, fixture, point, float(x), float(y))
    return explore


elements = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
Vectors = tuple[list[float], list[list[float]], list[list[float]]]


@st.composite
def fixtures(draw: st.DrawFn, max_dimension: int = 8) -> Vectors:
    """Draw a query, 1 to 10 keys and their values, all of one dimension between 1 and 8."""
    d = draw(st.integers(1, max_dimension))
    n = draw(st.integers(1, 10))
    vector = st.lists(elements, min_size=d, max_size=d)
    return draw(vector), draw(st.lists(vector, min_size=n, max_size=n)), \
        draw(st.lists(vector, min_size=n, max_size=n))


@st.composite
def bounds(draw: st.DrawFn, dimension: int) -> list[int]:
    """Draw increasing cut points from 0 to dimension: any way of splitting into heads."""
    cuts = draw(st.sets(st.integers(1, dimension - 1))) if dimension > 1 else set()
    return [0, *sorted(cuts), dimension]


finite = st.floats(allow_nan=False, allow_infinity=False)
entries = st.floats(-MAX_ENTRY, MAX_ENTRY)
predictions = st.sampled_from(sorted(PREDICTIONS))
readings = st.sampled_from(READINGS)
# Numbers the way learners type them, the truths themselves, and plain garbage, long or short.
typed_texts = st.one_of(
    st.sampled_from(["2", "-1", "0.4643", ".4754", "0,46", "1.376", "7/8", "1.1740", "", "x"]),
    finite.map(repr),
    st.text(max_size=30),
    st.text(min_size=190, max_size=260),
)

Step = Callable[[Progress, st.DrawFn], Progress]


def _predict(p: Progress, draw: st.DrawFn) -> Progress:
    return lock_prediction(p, D8.lesson, draw(predictions), draw(st.text(max_size=400)))


def _check(p: Progress, draw: st.DrawFn) -> Progress:
    return check(p, draw(st.dictionaries(st.sampled_from(QIDS), typed_texts, max_size=6)), D8)


def _read(p: Progress, draw: st.DrawFn) -> Progress:
    return lock_reading(p, draw(readings), D8.lesson)


def _project(p: Progress, draw: st.DrawFn) -> Progress:
    return set_projection(p, draw(st.integers(0, 1)), draw(st.integers(0, 1)), draw(entries))


def _unproject(p: Progress, draw: st.DrawFn) -> Progress:
    return reset_projection(p)


def _hint(p: Progress, draw: st.DrawFn) -> Progress:
    rung = draw(st.integers(1, 2))
    return open_hint(p, D8.lesson, rung) if rung <= hints_available(p.runs, D8.lesson) else p


def _takeaway(p: Progress, draw: st.DrawFn) -> Progress:
    return save_takeaway(p, draw(st.text(max_size=1000).filter(str.strip)))


def _reset(p: Progress, draw: st.DrawFn) -> Progress:
    return reset()


STEPS: tuple[Step, ...] = (_predict, _check, _check, _check, _read, _project, _unproject, _hint,
                           _takeaway, _reset)


@st.composite
def journeys(draw: st.DrawFn, start: Progress | None = None) -> Progress:
    """Draw a record reached through the public transitions: from the start, or on from start
    without a reset (as a second tab carries on)."""
    progress = Progress() if start is None else start
    steps = STEPS if start is None else STEPS[:-1]
    for step in draw(st.lists(st.sampled_from(steps), max_size=14)):
        progress = step(progress, draw)
    return progress


def _by_question(values: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.dictionaries(st.sampled_from(QIDS), values, max_size=6)


built = st.builds(
    Progress,
    prediction=st.none() | predictions,
    why=st.text(max_size=300),
    answers=_by_question(st.text(max_size=200)),
    graded=_by_question(finite),
    attempts=_by_question(st.integers(0, 10**6)),
    runs=st.integers(0, 10**6),
    hints_opened=st.integers(0, 2),
    reading=st.none() | readings,
    projection=st.tuples(st.tuples(entries, entries), st.tuples(entries, entries)),
    takeaway=st.none() | st.text(max_size=1000),
).map(lambda p: settle(p, D8.lesson))  # as the package keeps them: hints follow the runs
progresses = journeys() | built

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | finite | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner,
                                                                 max_size=4),
    max_leaves=12,
)


def json_type(value: Any) -> str:
    """Name a decoded JSON value's type, telling true and false apart from numbers."""
    if value is None or isinstance(value, bool | str | list | dict):
        return type(value).__name__
    return "int" if isinstance(value, int) else "float"


def record(progress: Progress | None = None) -> dict[str, Any]:
    """Return a saved record as a decoded JSON object, ready to be spoiled one field at a time."""
    decoded: dict[str, Any] = json.loads(to_json(progress or Progress()))
    return decoded

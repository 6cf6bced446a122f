"""What every lesson's numpy oracle returns, and how a shared test finds a lesson's oracle.

Each lesson's oracle lives in its own test, tests/lessons/test_<module>.py, as `oracle(fixture)`:
it works the lesson's heads on that fixture the textbook way in numpy and says where the plane
marks them. The shared tests run every registered lesson on its own fixture against its own
oracle, so they name no lesson and hold none of its numbers.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from attention_lessons import LESSONS, lesson_fixture
from attention_lessons.engine import Fixture, Lesson
from strategies import FIXTURES, Array


@dataclass(frozen=True)
class LessonOracle:
    """A lesson worked by numpy on one fixture.

    weights and outputs hold one array a head, with one row a query; reference is the output of
    the head the lesson sets its own beside, if it has one; marks is where the plane marks each
    output, by the mark's id; values are what the outputs are weighted averages of, where the
    plane draws them as squares (none, where it draws none); gaps are the differences the
    readout prints beside the plane, if it prints them. starts and ends are where each head's
    weight lines start (a row a head) and end (a row a key): None for the plain head's, from the
    query to each key."""

    weights: tuple[Array, ...]
    outputs: tuple[Array, ...]
    reference: Array | None
    marks: Mapping[str, tuple[float, ...]]
    values: Array
    gaps: Array | None = None
    starts: Array | None = None
    ends: Array | None = None

    def line_ends(self, fixture: Fixture) -> tuple[Array, Array]:
        """Where each head's lines start and where each key's end, on the fixture worked."""
        if self.starts is not None and self.ends is not None:
            return self.starts, self.ends
        query = np.asarray(fixture.query, dtype=np.float64)
        return (np.tile(query, (len(self.weights), 1)),
                np.asarray(fixture.keys, dtype=np.float64))


Oracle = Callable[[Fixture], LessonOracle]


def rows(x: npt.ArrayLike) -> Array:
    """A head's weights or output as rows, one a query: a single query's is one row."""
    return np.atleast_2d(np.asarray(x, dtype=np.float64))


def own_test(lesson: Lesson) -> str:
    """The lesson's own test, named as its module is: tests/lessons/test_<module>.py."""
    return f"test_{type(lesson).__module__.rpartition('.')[2]}"


def oracle_of(lesson: Lesson) -> Oracle:
    """Find the lesson's numpy oracle, `oracle(fixture)`, in the lesson's own test."""
    name = own_test(lesson)
    where = (f"lesson {lesson.code} has no numpy oracle: write `def oracle(fixture: Fixture) -> "
             f"LessonOracle` in tests/lessons/{name}.py")
    try:
        module = importlib.import_module(f"lessons.{name}")
    except ModuleNotFoundError as missing:
        if missing.name != f"lessons.{name}":
            raise
        raise LookupError(where) from None
    found: Oracle | None = getattr(module, "oracle", None)
    if found is None:
        raise LookupError(where)
    return found


def own_fixture(lesson: Lesson) -> Fixture:
    """The lesson's own fixture, read against the inputs it declares."""
    return lesson_fixture(lesson, FIXTURES)


def by_numpy(lesson: Lesson, fixture: Fixture | None = None) -> LessonOracle:
    """The lesson worked by its own oracle, on its own fixture unless given another."""
    return oracle_of(lesson)(own_fixture(lesson) if fixture is None else fixture)


# Each lesson's test holds Hypothesis tests of its own: imported for the first time inside a
# running @given test (a shared check asking for the oracle), its decorators fail Hypothesis's
# nested-@given health check, and a shared test file run alone failed. So each is imported here.
for _lesson in LESSONS.values():
    with contextlib.suppress(LookupError):
        oracle_of(_lesson)

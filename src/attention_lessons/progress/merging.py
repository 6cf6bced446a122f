"""Merging two tabs' records of one lesson against the record this tab last read or wrote."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from ..engine import Lesson
from .record import Progress, settle

T = TypeVar("T")


def was_reset(base: Progress, theirs: Progress) -> bool:
    """Return whether theirs went back past base, which only Reset (or Import) does."""
    lost_lock = base.prediction is not None and theirs.prediction != base.prediction
    fewer = theirs.runs < base.runs or theirs.hints_opened < base.hints_opened
    return lost_lock or fewer or any(
        theirs.attempts.get(qid, 0) < n for qid, n in base.attempts.items())


def _latest(base: T, mine: T, theirs: T) -> T:
    # Three-way: a side that changed since base wins; when both changed, the stored one
    # (theirs) was written last, so it is the latest edit.
    return mine if theirs == base else theirs


def _first_lock(mine: Progress, theirs: Progress, lesson: Lesson) -> tuple[str | None, str]:
    locked = [(p.prediction, p.why) for p in (mine, theirs) if p.prediction is not None]
    if not locked:
        return None, ""
    # Two tabs that locked before either heard of the other: both keep the same one, the
    # first in the lesson's order, so the tabs agree whichever merges first.
    order = [c.id for c in lesson.predictions]
    return min(locked, key=lambda pair: (order.index(pair[0] or ""), pair[1]))


def merge(base: Progress, mine: Progress, theirs: Progress, lesson: Lesson) -> Progress:
    """Merge this tab's record with the stored one, so that work done in both is kept.

    A locked prediction stays as first locked; attempts, runs and hints opened never go
    down; the right reading, once locked, stays; for answers, reading, projection, takeaway
    and explore the latest edit wins. A reset or import in the other tab wins outright.
    """
    if was_reset(base, theirs):
        return theirs
    prediction: str | None = base.prediction
    why = base.why
    if prediction is None:
        prediction, why = _first_lock(mine, theirs, lesson)
    answers, graded = {}, {}
    for qid in lesson.question_ids:
        side = mine if theirs.answers.get(qid) == base.answers.get(qid) else theirs
        if qid in side.answers:
            answers[qid] = side.answers[qid]
        value = side.graded.get(qid, mine.graded.get(qid, theirs.graded.get(qid)))
        if value is not None:
            graded[qid] = value
    attempts = {qid: max(mine.attempts.get(qid, 0), theirs.attempts.get(qid, 0))
                for qid in {*mine.attempts, *theirs.attempts}}
    right = lesson.correct_reading
    reading = right if right in (mine.reading, theirs.reading) else _latest(
        base.reading, mine.reading, theirs.reading)
    return settle(replace(
        theirs, prediction=prediction, why=why, answers=answers, graded=graded,
        attempts=attempts, runs=max(mine.runs, theirs.runs),
        hints_opened=max(mine.hints_opened, theirs.hints_opened), reading=reading,
        projection=_latest(base.projection, mine.projection, theirs.projection),
        takeaway=_latest(base.takeaway, mine.takeaway, theirs.takeaway),
        explore=_latest(base.explore, mine.explore, theirs.explore)), lesson)

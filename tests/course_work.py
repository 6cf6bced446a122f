"""Every lesson worked on its fixture, and records made through the package's own transitions."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from attention_lessons import (
    LESSONS,
    Progress,
    Worked,
    export_course,
    lesson_fixture,
    lock_prediction,
    lock_reading,
    move,
    open_hint,
    save_takeaway,
    set_explore,
    set_projection,
    truth,
    work,
)
from attention_lessons.engine import StateError, point_ids
from attention_lessons.progress import check, standing, to_json
from attention_lessons.views import check_announcement
from strategies import FIXTURES

WORKED: dict[str, Worked] = {
    slug: work(lesson, lesson_fixture(lesson, FIXTURES))
    for slug, lesson in LESSONS.items()}
FRESH: dict[str, Progress] = {slug: Progress() for slug in LESSONS}
# Takeaways as a learner writes them, each in their own words; a lesson an author has just
# added gets a plain one, so these helpers serve every lesson in the registry.
TAKEAWAYS = {
    "8-2": ("Score each key by the query times the key, scale by one over root d, softmax the "
            "scaled scores and weigh the values: the biggest score takes most of the weight, "
            "never all of it."),
    "d8": ("Two heads of dimension one each normalise over their own scores, so concatenating "
           "them is not what the single head gives; on the first coordinate it was about 0.2."),
    "8-3": ("The causal mask puts minus infinity on the later keys before the softmax, so their "
            "weights are exactly zero and the earlier keys share all the weight."),
}


def answers(worked: Worked, decimals: int = 4) -> dict[str, str]:
    """Return every question's truth, typed to a few decimals as a learner types it."""
    return {q.id: f"{truth(q, worked):.{decimals}f}" for q in worked.lesson.questions}


def started(worked: Worked) -> Progress:
    """Return a lesson begun: a prediction locked and one Check of wrong numbers."""
    lesson = worked.lesson
    locked = lock_prediction(Progress(), lesson, lesson.predictions[-1].id,
                             "each head sees only its own coordinate")
    return check(locked, dict.fromkeys(lesson.question_ids, "0.5"), worked)


def finished(worked: Worked) -> Progress:
    """Return a lesson done as a learner does it: a wrong Check first, a hint, a wrong reading
    before the right one, the projection and Explore touched, and a takeaway written."""
    lesson = worked.lesson
    progress = check(started(worked), answers(worked, 3), worked)
    progress = check(progress, answers(worked), worked)
    progress = open_hint(progress, lesson, 1)
    progress = lock_reading(progress, lesson.readings[0].id, lesson)
    progress = lock_reading(progress, lesson.correct_reading, lesson)
    progress = set_projection(progress, 0, 1, 0.5)
    first = point_ids(worked.fixture)[0]  # the plain head's query
    progress = set_explore(progress, move(progress.explore, worked.fixture, first, 1.2, -0.7))
    takeaway = TAKEAWAYS.get(lesson.slug, f"What {lesson.title} showed me, in my own words.")
    return save_takeaway(progress, takeaway)


FINISHED: dict[str, Progress] = {slug: finished(w) for slug, w in WORKED.items()}


def saved(progress: Mapping[str, Progress]) -> dict[str, str]:
    """Return each record as the store writes it, to tell whether any byte changed."""
    return {slug: to_json(record) for slug, record in progress.items()}


def document(**changes: object) -> dict[str, Any]:
    """Return the finished course's backup as decoded JSON, with top-level fields changed."""
    decoded: dict[str, Any] = json.loads(export_course(FINISHED))
    decoded.update(changes)
    return decoded


def spoiled(slug: str, **fields: object) -> dict[str, Any]:
    """Return the finished course's backup as decoded JSON, with fields of one lesson's record
    changed or added; a slug the course lacks adds that lesson."""
    decoded = document()
    decoded["lessons"].setdefault(slug, {}).update(fields)
    return decoded


def assert_refused(read: Callable[[Mapping[str, Progress]], object], said: str) -> None:
    """Assert that reading refuses, saying `said` and that nothing was changed, and that every
    record here is byte for byte as it was."""
    here = {**FINISHED, "d8": started(WORKED["d8"])}
    before = saved(here)
    with pytest.raises(StateError, match=re.escape(said)) as raised:
        read(here)
    assert str(raised.value).endswith(". Nothing was changed.")
    assert saved(here) == before


def announced(before: Progress, after: Progress, worked: Worked) -> str:
    """Return what a Check from before to after announces, each record's standing worked out."""
    return check_announcement(before, after, worked, standing(before, worked),
                              standing(after, worked))

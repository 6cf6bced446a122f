"""Every registered lesson has its numpy oracle beside its own test, and a lesson without one is
told which file to write."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from attention_lessons import LESSONS, work
from attention_lessons.engine import Lesson
from oracles import by_numpy, oracle_of, own_fixture


@pytest.mark.parametrize("lesson", list(LESSONS.values()), ids=list(LESSONS))
def test_every_lesson_has_an_oracle_with_a_row_a_query_for_each_head(lesson: Lesson) -> None:
    found = by_numpy(lesson)
    worked = work(lesson, own_fixture(lesson))
    assert len(found.weights) == len(found.outputs) == len(worked.heads)
    assert all(w.ndim == o.ndim == 2 and len(w) == len(o) for w, o in
               zip(found.weights, found.outputs, strict=True))
    assert (found.reference is None) == (worked.single is None)
    assert np.isfinite(found.values).all()


def test_a_lesson_without_an_oracle_names_the_file_to_write() -> None:
    lesson = next(iter(LESSONS.values()))
    # The same lesson, as if its module were one with no test beside it.
    unwritten = type("Unwritten", (type(lesson),),
                     {"__module__": "attention_lessons.lessons.not_written"})(
        **{f.name: getattr(lesson, f.name) for f in fields(lesson) if f.init})
    with pytest.raises(LookupError, match=r"tests/lessons/test_not_written\.py"):
        oracle_of(unwritten)

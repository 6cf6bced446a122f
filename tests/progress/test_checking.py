"""A Check reads and grades each answer once: the record's standing, worked out as it grades, is
what the page, its announcement and the backup suggestion read."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from attention_lessons.engine import grade, parse_number
from attention_lessons.progress import Progress, check, checked, lock_prediction, standing
from attention_lessons.views import check_announcement, progress_view, suggest_backup
from course_work import WORKED, answers


def counted(monkeypatch: pytest.MonkeyPatch, function: Callable[..., Any]) -> list[object]:
    """Count the calls of a function through every name the package holds it by."""
    calls: list[object] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0])
        return function(*args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("attention_lessons"):
            for name, value in list(vars(module).items()):
                if value is function:
                    monkeypatch.setattr(module, name, counting)
    return calls


@pytest.mark.parametrize("slug", WORKED)
def test_a_check_reads_and_grades_each_answer_once(
    slug: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    worked = WORKED[slug]
    lesson = worked.lesson
    before = lock_prediction(Progress(), lesson, lesson.predictions[0].id)
    was = standing(before, worked)
    typed = {**answers(worked), lesson.question_ids[0]: "not a number"}
    parsed, graded = counted(monkeypatch, parse_number), counted(monkeypatch, grade)
    after, now = checked(before, typed, worked)  # the Check, as the page makes it
    view = progress_view(after, worked, now)
    said = check_announcement(before, after, worked, was, now)
    suggest_backup(now, None)
    assert len(parsed) == len(lesson.questions)  # each typed answer, once
    assert len(graded) == len(lesson.questions) - 1  # each that reads as a number, once
    assert said.startswith(f"Checked. {len(lesson.questions) - 1} of {len(lesson.questions)}")
    assert view.gate.status.startswith(f"{now.correct} of {len(lesson.questions)} numbers")
    monkeypatch.undo()
    assert after == check(before, typed, worked)
    assert now == standing(after, worked)  # the same value, worked out from the record alone

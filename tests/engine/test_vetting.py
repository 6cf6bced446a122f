"""No wrong method is graded right: every lesson's named slips lie beyond the tolerance of their
questions' truths on its fixture, a slip planted within it is refused by name (here and by the
build), and a number two slips share names both."""

from __future__ import annotations

import dataclasses

import pytest

from attention_lessons import LESSONS, load_fixture, work
from attention_lessons.engine import (
    Lesson,
    Question,
    Slip,
    SlipTooClose,
    Worked,
    margins,
    smallest,
    vet,
)
from course_build import site
from strategies import FIXTURES


def worked(lesson: Lesson) -> Worked:
    return work(lesson, load_fixture(lesson.fixture, FIXTURES, lesson.inputs))


@pytest.mark.parametrize("slug", list(LESSONS))
def test_no_lesson_names_a_slip_within_the_tolerance_of_its_truth(slug: str) -> None:
    numbers = worked(LESSONS[slug])
    vet(numbers)
    closest = smallest(numbers)
    assert closest is not None
    assert not closest.graded_right, str(closest)
    print(closest)  # each lesson's smallest margin, in the run's output with -s
    # Every slip named is counted (a question may name none: the skeleton's scores do not).
    assert len(margins(numbers)) == sum(len(q.slips(numbers)) for q in LESSONS[slug].questions)


def planted(gap: float) -> Lesson:
    """8.2 with a slip planted `gap` from its first question's truth."""
    lesson = LESSONS["8-2"]
    first = lesson.questions[0]
    slip = Question(first.id, first.label, first.truth,
                    lambda w: (*first.slips(w), Slip(first.truth(w) + gap, "A planted slip.")))
    return dataclasses.replace(lesson, questions=(slip, *lesson.questions[1:]))


@pytest.mark.parametrize(("gap", "said"), [
    (0.015, "the slip 1.0150 lies 0.0150 from the truth 1"),
    (-0.02, "the slip 0.9800 lies 0.0200 from the truth 1"),  # the edge is graded right
    (0.0, "the slip 1 lies 0.0000 from the truth 1"),
])
def test_a_slip_planted_within_the_tolerance_is_refused_by_name(gap: float, said: str) -> None:
    with pytest.raises(SlipTooClose) as refused:
        vet(worked(planted(gap)))
    assert str(refused.value) == ("A wrong method would be graded right: 8-2, score_3: "
                                  f'{said}, within the tolerance of 0.02 ("A planted slip.").')


def test_a_slip_just_beyond_the_tolerance_is_not_refused() -> None:
    vet(worked(planted(0.0201)))
    margin = smallest(worked(planted(0.0201)))
    assert margin is not None
    assert margin.beyond == pytest.approx(0.0001)
    assert str(margin) == ("8-2, score_3: the slip 1.0201 lies 0.0201 from the truth 1, "
                           '0.0001 beyond the tolerance of 0.02 ("A planted slip.")')


def test_the_build_refuses_such_a_lesson_before_it_touches_dist(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(LESSONS, "8-2", planted(0.01))  # the one registry the build reads
    monkeypatch.setattr("course_build.runtime.ensure_runtime",
                        lambda: pytest.fail("the build went on"))
    assert site.command("build", []) == 1
    assert "build.py build: A wrong method would be graded right: 8-2, score_3" in \
        capsys.readouterr().err

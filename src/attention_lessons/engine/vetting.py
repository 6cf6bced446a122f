"""Vetting a worked lesson: no wrong method may be graded right.

Each named slip is a wrong method's number. Where one lies within the tolerance of its
question's truth, a learner who works that way is graded correct and the slip can never be
named, so the numbers do not test the method they ask about. The build refuses such a lesson,
and the unit tests run every lesson on its fixture through the same check.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import LessonError
from .format import decimals, exact
from .grading import TOLERANCE, within
from .lesson import Worked, truth


class SlipTooClose(LessonError):
    """A lesson's named slip lies within the tolerance of its question's truth."""


@dataclass(frozen=True)
class Margin:
    """How far one named slip lies beyond the tolerance of its question's truth."""

    lesson: str  # the lesson's slug
    question: str  # the question's id
    slip: str  # what the slip says
    value: float
    truth: float

    @property
    def beyond(self) -> float:
        """The slip's distance from the truth less the tolerance."""
        return abs(self.value - self.truth) - TOLERANCE

    @property
    def graded_right(self) -> bool:
        """Whether a learner who slips this way is graded correct (the tolerance's edge too)."""
        return within(self.value, self.truth)

    def __str__(self) -> str:
        where = (f"within the tolerance of {TOLERANCE}" if self.graded_right else
                 f"{decimals(self.beyond)} beyond the tolerance of {TOLERANCE}")
        return (f"{self.lesson}, {self.question}: the slip {exact(self.value)} lies "
                f"{decimals(abs(self.value - self.truth))} from the truth {exact(self.truth)}, "
                f"{where} (\"{self.slip}\")")


def margins(worked: Worked) -> tuple[Margin, ...]:
    """Every named slip of every question of the worked lesson, each with its margin."""
    return tuple(Margin(worked.lesson.slug, question.id, slip.message, slip.value, target)
                 for question in worked.lesson.questions
                 for target in (truth(question, worked),)
                 for slip in question.slips(worked))


def smallest(worked: Worked) -> Margin | None:
    """The slip that lies closest to its question's truth, or None where no slip is named."""
    return min(margins(worked), key=lambda margin: margin.beyond, default=None)


def vet(worked: Worked) -> None:
    """Raise SlipTooClose, naming each slip, its question, both values and the margin, when a
    named slip of the worked lesson would be graded correct."""
    close = [margin for margin in margins(worked) if margin.graded_right]
    if close:
        raise SlipTooClose("A wrong method would be graded right: "
                           + "; ".join(str(margin) for margin in close) + ".")

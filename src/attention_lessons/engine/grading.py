"""Grading a lesson's numbers against full-precision truth; the hint ladder and the gate."""

from __future__ import annotations

from dataclasses import dataclass

from .format import exact
from .lesson import Lesson, Question, Worked, truth

TOLERANCE = 0.02
# Inclusive tolerance, plus slack so that an answer exactly 0.02 away survives float noise.
_SLACK = 1e-9


def within(answer: float, target: float) -> bool:
    """Return whether answer lands within the tolerance of target, edges included."""
    return abs(answer - target) <= TOLERANCE + _SLACK


@dataclass(frozen=True)
class Verdict:
    """How one answer fared: within tolerance or not, and the slip it matches if any."""

    correct: bool
    message: str


def grade(question: Question, answer: float, worked: Worked) -> Verdict:
    """Grade one answer against full-precision truth, naming every known slip that fits."""
    target = truth(question, worked)
    if within(answer, target):
        return Verdict(True, f"Within {TOLERANCE} of {exact(target)}, computed here.")
    named = [slip.message for slip in question.slips(worked)
             if within(answer, slip.value) and not within(slip.value, target)]
    if named:  # two wrong methods may give one number: each is named, the likeliest first
        return Verdict(False, f"Not within {TOLERANCE}. " + " Or: ".join(dict.fromkeys(named)))
    return Verdict(False, f"Not within {TOLERANCE}. Work it again from the step table.")


def hints_available(runs: int, lesson: Lesson) -> int:
    """Return how many hint rungs the evaluated runs have opened."""
    return sum(runs >= threshold for threshold in lesson.hint_rungs)


def gate_met(correct: int, reading: str | None, lesson: Lesson) -> bool:
    """Return whether enough numbers landed and the locked reading is the right one."""
    return correct >= lesson.gate_needed and reading == lesson.correct_reading

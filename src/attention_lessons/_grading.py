"""Grading the six numbers, the reading and the prediction; the hint ladder and the gate."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ._d8 import D8Numbers, Question, slips, truth
from ._format import decimals, exact

TOLERANCE = 0.02
# Inclusive tolerance, plus slack so that an answer exactly 0.02 away survives float noise.
_SLACK = 1e-9
HINT_RUNGS = (3, 5)
GATE_NEEDED = 5

PREDICTIONS = {
    "same": "The same two numbers.",
    "close": "Within about 0.01 of each other.",
    "different": "Clearly different, by more than 0.1.",
}
CORRECT_READING = "own_scores"
READINGS = ("own_scores", "scale", "rounding", "broken")


def within(answer: float, target: float) -> bool:
    """Return whether answer lands within the tolerance of target, edges included."""
    return abs(answer - target) <= TOLERANCE + _SLACK


@dataclass(frozen=True)
class Verdict:
    """How one answer fared: within tolerance or not, and the slip it matches if any."""

    correct: bool
    message: str


def grade(question: Question, answer: float, numbers: D8Numbers) -> Verdict:
    """Grade one answer against full-precision truth, naming a known slip where one fits."""
    target = truth(question, numbers)
    if within(answer, target):
        return Verdict(True, f"Within {TOLERANCE} of {exact(target)}, computed here.")
    for slip in slips(question, numbers):
        if within(answer, slip.value) and not within(slip.value, target):
            return Verdict(False, f"Not within {TOLERANCE}. {slip.message}")
    return Verdict(False, f"Not within {TOLERANCE}. Work it again from the step table.")


def hints_available(runs: int) -> int:
    """Return how many hint rungs the evaluated runs have opened."""
    return sum(runs >= threshold for threshold in HINT_RUNGS)


def gate_met(correct: int, reading: str | None) -> bool:
    """Return whether enough numbers landed and the locked reading is the right one."""
    return correct >= GATE_NEEDED and reading == CORRECT_READING


def fitting_prediction(differences: Iterable[float]) -> str | None:
    """Return the prediction the computed differences bear out, or None if none of them does."""
    gaps = [abs(d) for d in differences]
    if max(gaps) < 0.5 * 10**-4:
        return "same"
    if max(gaps) <= 0.01:
        return "close"
    if min(gaps) > 0.1:
        return "different"
    return None


def reading_feedback(reading: str, numbers: D8Numbers) -> str:
    """Return why a reading is right or, for a wrong one, what the numbers say instead."""
    if reading == CORRECT_READING:
        return ("Right. Each head's softmax sees only its own coordinate's scores, so the "
                "weights differ from the single head's, and so do the outputs.")
    if reading == "scale":
        return ("The scales do differ, 1 for each head and 1 over the square root of 2 for the "
                "single head, but that is not the reason: with equal scales the runs would still "
                "differ, because each head normalises over its own scores.")
    if reading == "rounding":
        biggest = max(abs(d) for d in numbers.differences)
        return (f"The gap is as large as {decimals(biggest)}, and rounding to four decimals "
                "moves a number by at most 0.00005. Rounding cannot explain it.")
    return ("Both runs are computed here from the same fixture and each matches its own step "
            "table. They are different operations, so different answers are expected.")

"""The whole D8 page as two view models: what never changes, and what follows the learner."""

from __future__ import annotations

from dataclasses import dataclass

from ._d8 import QUESTION_IDS, QUESTIONS, D8Numbers
from ._grading import hints_available
from ._progress import Progress, correct_count, current_values
from ._view import (
    ComparisonView,
    GateView,
    HeadView,
    HintView,
    ProjectionView,
    QuestionView,
    ReadingView,
    compare_text,
    comparison_view,
    gate_view,
    head_view,
    hint_views,
    projection_view,
    question_views,
    reading_view,
    runs_text,
)


@dataclass(frozen=True)
class FixedView:
    """What the numbers alone decide: both heads and the comparison table."""

    heads: tuple[HeadView, ...]
    comparison: ComparisonView


@dataclass(frozen=True)
class ProgressView:
    """What follows the learner: fields, hints, reading, projection, compare, gate."""

    prediction: str | None
    prediction_message: str
    why: str
    questions: tuple[QuestionView, ...]
    runs: str
    hints: tuple[HintView, ...]
    reading: ReadingView
    projection: ProjectionView
    compare: str
    gate: GateView
    takeaway: str | None


def fixed_view(numbers: D8Numbers) -> FixedView:
    """Build the parts of the page that do not depend on progress."""
    return FixedView(tuple(head_view(i, h) for i, h in enumerate(numbers.heads)),
                     comparison_view(numbers))


def progress_view(progress: Progress, numbers: D8Numbers) -> ProgressView:
    """Build the parts of the page that follow the learner's progress."""
    return ProgressView(
        prediction=progress.prediction,
        prediction_message=("Choose something first." if progress.prediction is None
                            else "Locked in. Reset your progress to change it."),
        why=f"Your reason then: {progress.why}" if progress.why else "",
        questions=question_views(progress, numbers),
        runs=runs_text(progress.runs),
        hints=hint_views(progress, numbers),
        reading=reading_view(progress, numbers),
        projection=projection_view(progress, numbers),
        compare=compare_text(progress, numbers),
        gate=gate_view(progress, numbers),
        takeaway=progress.takeaway,
    )


def check_announcement(before: Progress, after: Progress, numbers: D8Numbers) -> str:
    """Say what a Check did, shown and announced: the count, the run, any hint it opened."""
    if after.runs == before.runs:
        readable = current_values(after)
        unread = [qid for qid in QUESTION_IDS
                  if qid not in readable and after.answers.get(qid) != before.answers.get(qid)]
        if unread:  # something new was typed, so "checked already" would not be true
            count = "1 answer" if len(unread) == 1 else f"{len(unread)} answers"
            beside = "it" if len(unread) == 1 else "each"
            return (f"Nothing new was graded, so this did not count as a run: {count} could not "
                    f"be read, and the message beside {beside} says why.")
        return ("Nothing new was graded: these values were checked already, so this did not "
                "count as a run.")
    parts = [f"Checked. {correct_count(after, numbers)} of {len(QUESTIONS)} within tolerance.",
             runs_text(after.runs)]
    opened = hints_available(after.runs) - hints_available(before.runs)
    if opened:
        parts.append(f"Hint {hints_available(after.runs)} is now available.")
    if after.gate and not before.gate:
        parts.append("Your check is met.")
    return " ".join(parts)

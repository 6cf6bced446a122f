"""A lesson page as two view models: what never changes, and what follows the learner."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import Worked, hints_available
from ..progress import DISMISSED, Progress, Standing
from ..progress import standing as stand
from .heads import (
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
    comparison: ComparisonView | None


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
    projection: ProjectionView | None
    compare: str
    gate: GateView
    takeaway: str | None


def fixed_view(worked: Worked) -> FixedView:
    """Build the parts of the page that do not depend on progress."""
    return FixedView(tuple(head_view(i, worked) for i in range(len(worked.heads))),
                     comparison_view(worked))


def progress_view(progress: Progress, worked: Worked,
                  standing: Standing | None = None) -> ProgressView:
    """Build the parts of the page that follow the learner's progress, from its standing (worked
    out here where the caller has none)."""
    standing = standing or stand(progress, worked)
    return ProgressView(
        prediction=progress.prediction,
        prediction_message=("Choose something first." if progress.prediction is None
                            else "Locked in. Reset your progress to change it."),
        why=f"Your reason then: {progress.why}" if progress.why else "",
        questions=question_views(progress, standing, worked),
        runs=runs_text(progress.runs),
        hints=hint_views(progress, worked),
        reading=reading_view(progress, worked),
        projection=projection_view(progress, worked),
        compare=compare_text(progress, worked),
        gate=gate_view(progress, standing, worked),
        takeaway=progress.takeaway,
    )


def check_announcement(before: Progress, after: Progress, worked: Worked, was: Standing,
                       now: Standing) -> str:
    """Say what a Check did, shown and announced: the count, the run, any hint it opened; `was`
    and `now` are the record's standing before the Check and after it."""
    lesson = worked.lesson
    if after.runs == before.runs:
        unread = [qid for qid in lesson.question_ids
                  if _unread(now, qid) and after.answers.get(qid) != before.answers.get(qid)]
        if unread:  # something new was typed, so "checked already" would not be true
            count = "1 answer" if len(unread) == 1 else f"{len(unread)} answers"
            beside = "it" if len(unread) == 1 else "each"
            return (f"Nothing new was graded, so this did not count as a run: {count} could not "
                    f"be read, and the message beside {beside} says why.")
        return ("Nothing new was graded: these values were checked already, so this did not "
                "count as a run.")
    parts = [f"Checked. {now.correct} of {len(lesson.questions)} within tolerance.",
             runs_text(after.runs)]
    opened = hints_available(after.runs, lesson) - hints_available(before.runs, lesson)
    if opened:
        parts.append(f"Hint {hints_available(after.runs, lesson)} is now available.")
    if now.gate and not was.gate:
        parts.append("Your check is met.")
    return " ".join(parts)


def _unread(standing: Standing, qid: str) -> bool:
    answer = standing.answers.get(qid)
    return answer is None or answer.reading is None


SUGGESTION = ("Gate met. Your progress is kept only in this browser: back up the whole course "
              "from the track, as one file or a link, to keep it safe or carry it to another "
              "device.")


def holds_work(progress: Progress) -> bool:
    """Return whether a lesson's record holds anything a learner did, so that it is worth
    keeping (the lesson page offers to keep storage from then on)."""
    return progress != Progress()


def suggest_backup(standing: Standing, dismissed: object) -> bool:
    """Return whether the lesson page suggests a backup: its gate is met, and the learner has
    not dismissed the suggestion (`dismissed`: what is stored under SUGGESTION_KEY)."""
    return standing.gate and dismissed != DISMISSED

"""A lesson's view models: every string its page shows, derived from the numbers and progress."""

from __future__ import annotations

from dataclasses import dataclass

from ..engine import (
    Step,
    Worked,
    decimals,
    exact,
    hints_available,
    listing,
    project,
    truth,
    word,
)
from ..progress import IDENTITY, Progress, Standing


@dataclass(frozen=True)
class Bar:
    """One key's weight in the figure: its label, printed weight and share of the full width."""

    key: str
    weight: str
    share: float


@dataclass(frozen=True)
class KeyRow:
    """One row of the per-key table behind "Show this head's numbers"."""

    key: str
    key_value: str
    value: str
    score: str
    weight: str


@dataclass(frozen=True)
class HeadView:
    """Everything one head's panel shows."""

    id: str
    scale: str
    intro: str
    bars: tuple[Bar, ...]
    figure_text: str
    steps: tuple[Step, ...]
    summary: str
    keys: tuple[KeyRow, ...]


def head_view(index: int, worked: Worked) -> HeadView:
    """Build one head's panel: scale, bars, step table, summary and per-key table."""
    lesson = worked.lesson
    spec, head = lesson.heads[index], worked.heads[index]
    intro, lead = lesson.describe(worked, index)
    key = lesson.words.key
    return HeadView(
        id=spec.id,
        scale=lesson.scale_text(head),
        intro=intro,
        bars=tuple(Bar(f"{key} {i + 1}", decimals(w), w) for i, w in enumerate(head.weights)),
        figure_text=f"Weights of {spec.name}: " + "; ".join(
            f"{key} {i + 1}, {decimals(w)}" for i, w in enumerate(head.weights)) + ".",
        steps=lesson.step_rows(worked, index),
        summary=f"{lead} {lesson.largest(head)} The output is {listing(head.output)}.",
        keys=tuple(KeyRow(str(i + 1), listing(k, exact), listing(v, exact), exact(s), decimals(w))
                   for i, (k, v, s, w) in enumerate(
                       zip(head.keys, head.values, head.scores, head.weights, strict=True))),
    )


@dataclass(frozen=True)
class ComparisonView:
    """The concatenated heads against the single head, entry by entry, and their difference."""

    concatenated: tuple[str, ...]
    single: tuple[str, ...]
    differences: tuple[str, ...]


def comparison_view(worked: Worked) -> ComparisonView | None:
    """Print the comparison table, if the lesson has one; differences come from full precision."""
    if worked.single is None or worked.differences is None:
        return None
    return ComparisonView(
        concatenated=tuple(decimals(x) for x in worked.concatenated),
        single=tuple(decimals(x) for x in worked.single.output),
        differences=tuple(decimals(x) for x in worked.differences),
    )


@dataclass(frozen=True)
class QuestionView:
    """One of the six fields: what was typed, how it was read and graded, and the attempts."""

    id: str
    typed: str
    attempts: str
    echo: str
    feedback: str
    state: str  # "", "correct", "wrong" or "invalid"


def question_views(progress: Progress, standing: Standing,
                   worked: Worked) -> tuple[QuestionView, ...]:
    """Show the answers as last checked, field by field, as the record's standing grades them."""
    views = []
    for q in worked.lesson.questions:
        typed = progress.answers.get(q.id)
        attempts = f"Attempts: {progress.attempts.get(q.id, 0)}"
        answer = standing.answers.get(q.id)
        if typed is None or answer is None:
            views.append(QuestionView(q.id, "", attempts, "", "", ""))
        elif answer.reading is None or answer.verdict is None:
            views.append(QuestionView(q.id, typed, attempts, "", answer.refused, "invalid"))
        else:
            views.append(QuestionView(q.id, typed, attempts, answer.reading.echo,
                                      answer.verdict.message,
                                      "correct" if answer.verdict.correct else "wrong"))
    return tuple(views)


@dataclass(frozen=True)
class ProjectionView:
    """The output projection: its entries, the vectors before and after, and the sentence."""

    entries: tuple[tuple[str, str], ...]
    badge: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    sentence: str


def projection_view(progress: Progress, worked: Worked) -> ProjectionView | None:
    """Project the concatenated heads through the learner's matrix, if the lesson has one."""
    if worked.lesson.projection is None:
        return None
    before = tuple(decimals(x) for x in worked.concatenated)
    after = tuple(decimals(x) for x in project(progress.projection, worked.concatenated))
    return ProjectionView(
        entries=tuple((exact(a), exact(b)) for a, b in progress.projection),
        badge="identity" if progress.projection == IDENTITY else "your matrix",
        before=before,
        after=after,
        sentence=(f"The concatenated heads are {before[0]} and {before[1]}. Through this "
                  f"projection they come out as {after[0]} and {after[1]}."),
    )


@dataclass(frozen=True)
class HintView:
    """One rung of the hint ladder."""

    rung: int
    available: bool
    opened: bool
    status: str
    text: str


def hint_views(progress: Progress, worked: Worked) -> tuple[HintView, ...]:
    """Build the ladder: a question after the first threshold, the worked answer after the next."""
    lesson = worked.lesson
    question = lesson.hint_question(worked)
    answer = " ".join(f"{q.label}: {exact(truth(q, worked))}." for q in lesson.questions)
    answer = f"{answer} {lesson.hint_answer(worked)}"
    open_now = hints_available(progress.runs, lesson)
    views = []
    rungs = zip(("A question", "The answer"), lesson.hint_rungs, (question, answer), strict=True)
    for rung, (kind, threshold, text) in enumerate(rungs, 1):
        available = rung <= open_now
        status = f"{kind}." if available else (
            f"{kind}: available after {threshold} evaluated runs.")
        opened = available and rung <= progress.hints_opened
        views.append(HintView(rung, available, opened, status, text if opened else ""))
    return tuple(views)


def runs_text(runs: int) -> str:
    """Return the run counter sentence."""
    return f"You have run it {runs} time{'' if runs == 1 else 's'}."


@dataclass(frozen=True)
class GateView:
    """The check: met or not, and the status line that counts both halves."""

    met: bool
    badge: str
    headline: str
    status: str


def gate_view(progress: Progress, standing: Standing, worked: Worked) -> GateView:
    """Count the numbers within tolerance and describe the locked reading."""
    lesson = worked.lesson
    correct = standing.correct
    if progress.reading is None:
        reading = "No reading locked in yet."
    elif progress.reading == lesson.correct_reading:
        reading = "The right reading is locked in."
    else:
        reading = "The reading locked in is not the right one yet."
    counted = (f"{correct} of {len(lesson.questions)} numbers within tolerance, "
               f"{lesson.gate_needed} needed.")
    status = f"{counted} {reading}"
    if standing.gate:
        return GateView(True, "met", "Met. You demonstrated it on these numbers.", status)
    return GateView(False, "not yet", "Not met yet. Keep working the session.", status)


def compare_text(progress: Progress, worked: Worked) -> str:
    """Set the locked prediction beside what the computed numbers show."""
    lesson = worked.lesson
    if progress.prediction is None:
        return ""
    fits = lesson.fitting_prediction(worked)
    said = f"You predicted: {lesson.prediction_label(progress.prediction)}"
    shown = lesson.shown(worked)
    if fits is None:
        count = word(len(lesson.predictions))
        return f"{said} {shown} None of the {count} predictions describes that exactly."
    if fits == progress.prediction:
        return f"{said} {shown} The numbers bear your prediction out."
    return f"{said} {shown} So the numbers say: {lesson.prediction_label(fits)}"


@dataclass(frozen=True)
class ReadingView:
    """The locked reading, if any, and what it earns."""

    locked: str | None
    correct: bool
    feedback: str
    state: str  # "", "correct" or "wrong"


def reading_view(progress: Progress, worked: Worked) -> ReadingView:
    """Describe the locked reading, or ask for one."""
    lesson = worked.lesson
    if progress.reading is None:
        return ReadingView(None, False, "Choose one before locking it in.", "")
    correct = progress.reading == lesson.correct_reading
    return ReadingView(progress.reading, correct, lesson.reading_feedback(progress.reading, worked),
                       "correct" if correct else "wrong")

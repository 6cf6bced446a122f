"""The D8 view model: every string the page shows, derived from the numbers and progress."""

from __future__ import annotations

from dataclasses import dataclass

from ._attention import HeadTrace, project
from ._d8 import HEAD_NAMES, QUESTIONS, D8Numbers, truth
from ._errors import ParseError
from ._format import decimals, exact, listing
from ._grading import (
    CORRECT_READING,
    GATE_NEEDED,
    HINT_RUNGS,
    PREDICTIONS,
    fitting_prediction,
    grade,
    hints_available,
    reading_feedback,
)
from ._numbers import parse_number
from ._progress import IDENTITY, Progress, correct_count


@dataclass(frozen=True)
class Bar:
    """One key's weight in the figure: its label, printed weight and share of the full width."""

    key: str
    weight: str
    share: float


@dataclass(frozen=True)
class Step:
    """One row of a head's step table."""

    label: str
    value: str


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


def _largest(weights: tuple[float, ...]) -> str:
    top = max(weights)
    # Ties are compared at the printed precision: keys that print alike must not be ranked.
    winners = [i + 1 for i, w in enumerate(weights) if decimals(w) == decimals(top)]
    if len(winners) == 1:
        return f"The largest weight is {decimals(top)} on key {winners[0]}."
    names = ", ".join(str(k) for k in winners[:-1]) + f" and {winners[-1]}"
    return f"The largest weight, {decimals(top)}, is shared by keys {names}."


def head_view(index: int, head: HeadTrace) -> HeadView:
    """Build one head's panel: scale, bars, step table, summary and per-key table."""
    name = HEAD_NAMES[index]
    d = len(head.query)
    keys = listing((k[0] for k in head.keys), exact)
    values = listing((v[0] for v in head.values), exact)
    query = listing(head.query, exact)
    return HeadView(
        id=name.lower(),
        scale=f"scale 1 / sqrt({d}) = {exact(head.scale)}",
        intro=f"Query {query}, keys [{keys}], values [{values}].",
        bars=tuple(Bar(f"key {i + 1}", decimals(w), w) for i, w in enumerate(head.weights)),
        figure_text=f"Weights of head {name}: " + "; ".join(
            f"key {i + 1}, {decimals(w)}" for i, w in enumerate(head.weights)) + ".",
        steps=(
            Step("scores, query times key", listing(head.scores, exact)),
            Step(f"scaled by 1 over the square root of {d}", listing(head.scaled, exact)),
            Step("exponentials", listing(head.exps)),
            Step("their sum", decimals(head.total)),
            Step("weights", listing(head.weights)),
            Step("output, weights against values", listing(head.output)),
        ),
        summary=(f"head {name} reads coordinate {index + 1} only: query {query}, keys {keys}, "
                 f"values {values}. {_largest(head.weights)} "
                 f"The output is {listing(head.output)}."),
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


def comparison_view(numbers: D8Numbers) -> ComparisonView:
    """Print the comparison table; differences come from full precision."""
    return ComparisonView(
        concatenated=tuple(decimals(x) for x in numbers.concatenated),
        single=tuple(decimals(x) for x in numbers.single.output),
        differences=tuple(decimals(x) for x in numbers.differences),
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


def question_views(progress: Progress, numbers: D8Numbers) -> tuple[QuestionView, ...]:
    """Grade the answers as last checked, field by field."""
    views = []
    for q in QUESTIONS:
        typed = progress.answers.get(q.id)
        attempts = f"Attempts: {progress.attempts.get(q.id, 0)}"
        if typed is None:
            views.append(QuestionView(q.id, "", attempts, "", "", ""))
            continue
        try:
            reading = parse_number(typed)
        except ParseError as exc:
            views.append(QuestionView(q.id, typed, attempts, "", str(exc), "invalid"))
            continue
        verdict = grade(q, reading.value, numbers)
        views.append(QuestionView(q.id, typed, attempts, reading.echo, verdict.message,
                                  "correct" if verdict.correct else "wrong"))
    return tuple(views)


@dataclass(frozen=True)
class ProjectionView:
    """The output projection: its entries, the vectors before and after, and the sentence."""

    entries: tuple[tuple[str, str], ...]
    badge: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    sentence: str


def projection_view(progress: Progress, numbers: D8Numbers) -> ProjectionView:
    """Project the concatenated heads through the learner's matrix."""
    before = tuple(decimals(x) for x in numbers.concatenated)
    after = tuple(decimals(x) for x in project(progress.projection, numbers.concatenated))
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


def hint_views(progress: Progress, numbers: D8Numbers) -> tuple[HintView, ...]:
    """Build the ladder: a question after the first threshold, the worked answer after the next."""
    a, b = numbers.heads
    question = _hint_question(a, numbers.single)
    answer = " ".join(f"{q.label}: {exact(truth(q, numbers))}." for q in QUESTIONS) + (
        f" Head A's sum of exponentials is {decimals(a.total)}, head B's is {decimals(b.total)}:"
        " each head normalises over its own scores only.")
    open_now = hints_available(progress.runs)
    views = []
    for rung, (kind, threshold, text) in enumerate(
            (("A question", HINT_RUNGS[0], question), ("The answer", HINT_RUNGS[1], answer)), 1):
        available = rung <= open_now
        status = f"{kind}." if available else (
            f"{kind}: available after {threshold} evaluated runs.")
        opened = available and rung <= progress.hints_opened
        views.append(HintView(rung, available, opened, status, text if opened else ""))
    return tuple(views)


def _hint_question(head: HeadTrace, single: HeadTrace) -> str:
    """Ask about the keys this head weighs most, set beside their scores in the single head."""
    top = sorted(sorted(range(len(head.weights)), key=lambda i: -head.weights[i])[:2])
    here = [exact(head.scores[i]) for i in top]
    there = " and ".join(exact(single.scores[i]) for i in top)
    if len(top) == 1:
        scored = f"key {top[0] + 1} scores {here[0]}. In the single head it scores {there}."
    else:
        i, j = (k + 1 for k in top)
        pair = (f"keys {i} and {j} both score {here[0]}" if here[0] == here[1]
                else f"key {i} scores {here[0]} and key {j} scores {here[1]}")
        scored = f"{pair}. In the single head they score {there}."
    return (f"In head A, {scored} Which scores does each softmax divide by, and what does "
            "that do to the weights?")


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


def gate_view(progress: Progress, numbers: D8Numbers) -> GateView:
    """Count the numbers within tolerance and describe the locked reading."""
    correct = correct_count(progress, numbers)
    if progress.reading is None:
        reading = "No reading locked in yet."
    elif progress.reading == CORRECT_READING:
        reading = "The right reading is locked in."
    else:
        reading = "The reading locked in is not the right one yet."
    counted = f"{correct} of {len(QUESTIONS)} numbers within tolerance, {GATE_NEEDED} needed."
    status = f"{counted} {reading}"
    if progress.gate:
        return GateView(True, "met", "Met. You demonstrated it on these numbers.", status)
    return GateView(False, "not yet", "Not met yet. Keep working the session.", status)


def compare_text(progress: Progress, numbers: D8Numbers) -> str:
    """Set the locked prediction beside what the computed differences show."""
    if progress.prediction is None:
        return ""
    gaps = " and ".join(decimals(d) for d in numbers.differences)
    fits = fitting_prediction(numbers.differences)
    said = f"You predicted: {PREDICTIONS[progress.prediction]}"
    shown = f"The two heads and the single head differ by {gaps}."
    if fits is None:
        return f"{said} {shown} None of the three predictions describes that exactly."
    if fits == progress.prediction:
        return f"{said} {shown} The numbers bear your prediction out."
    return f"{said} {shown} So the numbers say: {PREDICTIONS[fits]}"


@dataclass(frozen=True)
class ReadingView:
    """The locked reading, if any, and what it earns."""

    locked: str | None
    correct: bool
    feedback: str
    state: str  # "", "correct" or "wrong"


def reading_view(progress: Progress, numbers: D8Numbers) -> ReadingView:
    """Describe the locked reading, or ask for one."""
    if progress.reading is None:
        return ReadingView(None, False, "Choose one before locking it in.", "")
    correct = progress.reading == CORRECT_READING
    return ReadingView(progress.reading, correct, reading_feedback(progress.reading, numbers),
                       "correct" if correct else "wrong")

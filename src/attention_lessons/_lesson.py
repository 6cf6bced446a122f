"""What a lesson is: its prose and choices, its questions and slips, and the numbers it computes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from ._attention import HeadTrace, Vector, concat
from ._fixture import Fixture

Quantity = Literal["score", "scaled", "weight", "output"]


@dataclass(frozen=True)
class Slip:
    """A wrong number a learner plausibly types, with what it most likely means."""

    value: float
    message: str


@dataclass(frozen=True)
class Question:
    """One graded number: which head, which quantity, and which key (or output entry)."""

    id: str
    label: str
    head: int
    quantity: Quantity
    index: int = 0


@dataclass(frozen=True)
class Choice:
    """One radio choice: the value stored in progress and the label the page shows."""

    id: str
    label: str


@dataclass(frozen=True)
class HeadSpec:
    """One head's panel: its id (for the page's element ids), title, note and caption."""

    id: str
    name: str
    title: str
    note: str
    caption: str


@dataclass(frozen=True)
class Comparison:
    """A table setting the lesson's heads, concatenated, beside a reference head."""

    title: str
    caption: str
    concatenated: str
    reference: str
    note: str


@dataclass(frozen=True)
class ProjectionSpec:
    """The output projection panel's prose; the matrix itself is part of progress."""

    kicker: str
    title: str
    text: str
    aside: str
    columns: tuple[str, str]


@dataclass(frozen=True)
class Lesson:
    """Everything one lesson is: prose for the page, choices, questions and what it computes.

    The shared engine renders, grades and stores every lesson alike; it never names one. A lesson
    only describes itself here, and the callables derive their text from the computed numbers.
    """

    slug: str  # the page's folder and the name its progress is kept under
    code: str  # "8.2", "D8"
    title: str
    crumbs: str
    lede: str
    meta: tuple[str, ...]
    about: str
    question: tuple[str, ...]
    predict_kicker: str
    predict: str
    predictions: tuple[Choice, ...]
    try_title: str
    try_intro: str
    heads: tuple[HeadSpec, ...]
    questions: tuple[Question, ...]
    reading_question: str
    readings: tuple[Choice, ...]
    correct_reading: str
    gate_reading: str  # the gate asks for the right reading of this
    takeaway: str
    fixture: str  # a file name in fixtures/
    compute_heads: Callable[[Fixture], tuple[HeadTrace, ...]]
    describe: Callable[[int, HeadTrace], tuple[str, str]]  # a head's intro and summary lead
    slips: Callable[[Question, Worked], tuple[Slip, ...]]
    fitting_prediction: Callable[[Worked], str | None]
    shown: Callable[[Worked], str]  # what the numbers show, set beside the prediction
    reading_feedback: Callable[[str, Worked], str]
    hint_question: Callable[[Worked], str]
    hint_answer: Callable[[Worked], str]  # said after each question's value
    kind: str = "lesson"  # or "deep dive"
    minutes: int = 30
    reference: Callable[[Fixture], HeadTrace] | None = None
    comparison: Comparison | None = None
    projection: ProjectionSpec | None = None
    prerequisite: str | None = None  # the slug of a lesson this one builds on
    hint_rungs: tuple[int, int] = (3, 5)
    gate_needed: int = 5

    @property
    def question_ids(self) -> tuple[str, ...]:
        """Return the ids of the graded questions, in page order."""
        return tuple(q.id for q in self.questions)

    def prediction_label(self, choice: str) -> str:
        """Return the label of a prediction choice."""
        return next(c.label for c in self.predictions if c.id == choice)


@dataclass(frozen=True)
class Worked:
    """A lesson worked on its fixture: the heads, the reference head if any, and their gaps."""

    lesson: Lesson
    fixture: Fixture
    heads: tuple[HeadTrace, ...]
    single: HeadTrace | None
    concatenated: Vector
    differences: Vector | None


def work(lesson: Lesson, fixture: Fixture) -> Worked:
    """Run every head the lesson computes, and its reference head if it has one."""
    heads = lesson.compute_heads(fixture)
    concatenated = concat(heads)
    if lesson.reference is None:
        return Worked(lesson, fixture, heads, None, concatenated, None)
    single = lesson.reference(fixture)
    # Differences come from full precision, never from the rounded display strings.
    differences = tuple(c - s for c, s in zip(concatenated, single.output, strict=True))
    return Worked(lesson, fixture, heads, single, concatenated, differences)


def truth(question: Question, worked: Worked) -> float:
    """Return the full-precision value the question asks for."""
    head = worked.heads[question.head]
    series = {"score": head.scores, "scaled": head.scaled, "weight": head.weights,
              "output": head.output}[question.quantity]
    return series[question.index]

"""What a lesson is: its prose and choices, its questions and slips, and the numbers it computes."""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from .attention import HeadTrace, Matrix, Vector, attend, concat
from .fixture import PLAIN_INPUTS, Fixture, Input, load_fixture
from .format import decimals, largest, listing, vector
from .parts import (
    Choice,
    Comparison,
    Figure,
    HeadSpec,
    PlaneMark,
    ProjectionSpec,
    ScaleChoice,
    Step,
    plain_scale_text,
    plain_step_rows,
)
from .words import PLAIN_WORDS, Words


@dataclass(frozen=True)
class Slip:
    """A wrong number a learner plausibly types, with what it most likely means."""

    value: float
    message: str


def no_slips(worked: Worked) -> tuple[Slip, ...]:
    """Name no slip: every wrong answer is sent back to the step table."""
    return ()


@dataclass(frozen=True)
class Question:
    """One graded number: its label, and what the worked lesson says its truth and slips are.

    Any value a lesson computes can be asked for: the engine keeps no list of quantities."""

    id: str
    label: str
    truth: Callable[[Worked], float]  # at full precision
    slips: Callable[[Worked], tuple[Slip, ...]] = no_slips  # most specific first


@dataclass(frozen=True)
class Preset:
    """A place on Explore's plane that the package finds by search: the query that brings
    objective, a number computed from the worked lesson, to its smallest value."""

    id: str
    label: str  # says what the preset shows, so a test can hold it to its word
    objective: Callable[[Worked], float]


def _top_two(weights: tuple[float, ...]) -> tuple[float, float, float]:
    ranked = [*sorted(weights, reverse=True), 0.0, 0.0]
    return ranked[0], ranked[1], ranked[2]


def _spread(worked: Worked) -> float:
    # Only the keys the head may weigh at all: a masked key's weight is exactly 0.
    weights = [w for w in worked.heads[0].weights if w > 0]
    return max(weights) - min(weights)


def top_tie(worked: Worked) -> float:
    # Two keys level on top and the third well below them, so that the tie is between two.
    first, second, third = _top_two(worked.heads[0].weights)
    return (first - second) - min(second - third, 0.2)


def plain_presets(words: Words = PLAIN_WORDS) -> tuple[Preset, ...]:
    """The plain head's places worth a visit, in the lesson's words."""
    return (
        Preset("even", f"Every {words.key} the {words.query} may see gets about the same weight.",
               _spread),
        Preset("one_key", f"A single {words.key} takes almost all of the weight.",
               lambda w: -max(w.heads[0].weights)),
        Preset("tie", f"Two {words.keys} tie for the largest weight.", top_tie),
    )


@dataclass(frozen=True)
class Lesson(ABC):
    """Everything one lesson is: prose for the page, choices, questions and what it computes.

    A lesson is a subclass: its prose is data, its computation its methods. The methods given
    here serve the plain scaled dot-product head, and a lesson overrides only what is its own.
    The shared engine renders, grades and stores every lesson alike; it never names one.
    """

    slug: str  # the page's folder and the name its progress is kept under
    code: str  # "8.2", "D8"
    title: str
    crumbs: str
    lede: str
    meta: tuple[str, ...]
    about: str
    question: tuple[str, ...]
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
    fixture: str = "attention-8.2.json"  # a file name in fixtures/
    inputs: tuple[Input, ...] = PLAIN_INPUTS  # what its fixture holds, exactly
    words: Words = PLAIN_WORDS  # what it calls the query, the keys and the values
    predict_kicker: str = "Before anything runs"
    kind: str = "lesson"  # or "deep dive"
    minutes: int = 30
    optional: bool = False  # the track says so; a lesson that builds on another need not be
    comparison: Comparison | None = None
    projection: ProjectionSpec | None = None
    prerequisite: str | None = None  # the slug of a lesson this one builds on
    heatmap: bool = False  # Explore's readout: the heads' weights as a shaded matrix, a row each
    hint_rungs: tuple[int, int] = (3, 5)
    gate_needed: int = 5

    @property
    def question_ids(self) -> tuple[str, ...]:
        """Return the ids of the graded questions, in page order."""
        return tuple(q.id for q in self.questions)

    def prediction_label(self, choice: str) -> str:
        """Return the label of a prediction choice."""
        return next(c.label for c in self.predictions if c.id == choice)

    def compute_heads(self, fixture: Fixture,
                      scale: float | None = None) -> tuple[HeadTrace, ...]:
        """Run one head over the whole fixture (at the given scale, in an experiment)."""
        return (attend(fixture.query, fixture.keys, fixture.values, scale),)

    def intermediates(self, fixture: Fixture) -> Mapping[str, Vector | Matrix]:
        """Name what the lesson computes on the way to its heads (projected vectors, a mask),
        for its step tables, its questions, the CLI and the notebook; none for the plain head."""
        return {}

    def reference(self, fixture: Fixture) -> HeadTrace | None:
        """Return the head the lesson's heads are set beside, if it has one."""
        return None

    def describe(self, worked: Worked, index: int) -> tuple[str, str]:
        """Say what head `index` reads: its intro and the lead of its summary."""
        words, head = self.words, worked.heads[index]
        keys = ", ".join(vector(k) for k in head.keys)
        values = ", ".join(vector(v) for v in head.values)
        return (f"{words.query.capitalize()} {vector(head.query)}, {words.keys} {keys}, "
                f"{words.values} {values}.",
                f"The head reads both coordinates: {words.query} {vector(head.query)} against "
                f"{len(head.keys)} {words.keys}.")

    def step_rows(self, worked: Worked, index: int) -> tuple[Step, ...]:
        """Return head `index`'s step table as the page prints it: any of the worked lesson's
        numbers (its inputs, its intermediates, every head) may be a row."""
        return plain_step_rows(worked.heads[index], self.words)

    def scale_text(self, head: HeadTrace) -> str:
        """Return the head's scale badge."""
        return plain_scale_text(head)

    def scale_choices(self) -> tuple[ScaleChoice, ...]:
        """The scales an Explore experiment offers, the lesson's own first; none by default."""
        return ()

    def presets(self) -> tuple[Preset, ...]:
        """Name the places on Explore's plane worth a visit; the package finds each by search."""
        return plain_presets(self.words)

    def axis_names(self) -> tuple[str, str]:
        """Name the plane's two axes, across and up."""
        return ("coordinate 1", "coordinate 2")

    def figure(self, worked: Worked) -> Figure:
        """Say what Explore's plane draws: for the plain head, every head's lines from the query
        to each key, the query as an arrow, and the values, which stay put, as squares."""
        fixture, words = worked.fixture, self.words
        query = (fixture.query[0], fixture.query[1])
        keys = next(put for put in fixture.declared if put.name == "keys")
        return Figure(
            starts=(query,) * len(worked.heads),
            ends=tuple((k[0], k[1]) for k in fixture.keys),
            lines=f"from the {words.query} to every {words.key}",
            squares=tuple(PlaneMark(f"value_{k}", f"{words.value} {k}", f"{words.value} {k}",
                                    (v[0], v[1])) for k, v in enumerate(fixture.values, 1)),
            arrow="query",
            notes={point: f"{words.value} {vector(v)}" for point, v in
                   zip(keys.point_ids(len(fixture.keys)), fixture.values, strict=True)})

    def still(self) -> str:
        """Say what Explore leaves where the fixture has it, whatever the learner moves."""
        return f"The {self.words.values} stay the fixture's."

    def plane_marks(self, worked: Worked) -> tuple[PlaneMark, ...]:
        """Mark on Explore's plane each head's output that has two entries, then the reference
        head's: each is a weighted average of the values, so it lies among them."""
        one = len(self.heads) == 1
        marks = [PlaneMark(f"output_{spec.id}", "output" if one else spec.name,
                           f"the output of {spec.name}", (head.output[0], head.output[1]))
                 for spec, head in zip(self.heads, worked.heads, strict=True)
                 if len(head.output) == 2]
        return (*marks, *reference_mark(worked))

    def readout_note(self, worked: Worked) -> str:
        """Say, beside Explore's plane, how the heads compare with the reference head."""
        if self.comparison is None or worked.differences is None:
            return ""
        return (f"{self.comparison.concatenated.capitalize()}, less {self.comparison.reference}: "
                f"{listing(worked.differences)}.")

    @abstractmethod
    def fitting_prediction(self, worked: Worked) -> str | None:
        """Return the prediction the numbers bear out, or None if none of them does."""

    def largest(self, head: HeadTrace) -> str:
        """Say which of the head's keys takes the largest weight, in the lesson's words."""
        return largest(head.weights, self.words)

    @abstractmethod
    def shown(self, worked: Worked) -> str:
        """Say what the numbers show, set beside the locked prediction."""

    @abstractmethod
    def reading_feedback(self, reading: str, worked: Worked) -> str:
        """Return why a reading is right or, for a wrong one, what the numbers say instead."""

    @abstractmethod
    def hint_question(self, worked: Worked) -> str:
        """Return the first hint rung: a question that points at the step to work."""

    def hint_answer(self, worked: Worked) -> str:
        """Close the worked answer with the sum every weight is divided by."""
        return (f"The exponentials add up to {decimals(worked.heads[0].total)}, and each weight "
                "is one exponential divided by that sum.")


@dataclass(frozen=True)
class Worked:
    """A lesson worked on its fixture: the heads, the reference head if any, and their gaps."""

    lesson: Lesson
    fixture: Fixture
    heads: tuple[HeadTrace, ...]
    single: HeadTrace | None
    concatenated: Vector
    differences: Vector | None
    intermediates: Mapping[str, Vector | Matrix] = field(default_factory=dict)


def reference_mark(worked: Worked) -> tuple[PlaneMark, ...]:
    """The reference head's output as a mark on the plane, where the lesson has one."""
    comparison, single = worked.lesson.comparison, worked.single
    if comparison is None or single is None or len(single.output) != 2:
        return ()
    return (PlaneMark("reference", comparison.mark, f"the output of {comparison.reference}",
                      (single.output[0], single.output[1])),)


def work(lesson: Lesson, fixture: Fixture, scale: float | None = None) -> Worked:
    """Run every head the lesson computes, and its reference head if it has one; an experiment
    may give the lesson's heads another scale, and the reference head keeps its own."""
    heads = lesson.compute_heads(fixture, scale)
    concatenated = concat(heads)
    single, along = lesson.reference(fixture), lesson.intermediates(fixture)
    if single is None:
        return Worked(lesson, fixture, heads, None, concatenated, None, along)
    # Differences come from full precision, never from the rounded display strings.
    differences = tuple(c - s for c, s in zip(concatenated, single.output, strict=True))
    return Worked(lesson, fixture, heads, single, concatenated, differences, along)


def lesson_fixture(lesson: Lesson, folder: str | os.PathLike[str]) -> Fixture:
    """Read the lesson's fixture from `folder` (fixtures/, wherever the package finds it) and
    check it against the inputs the lesson declares."""
    return load_fixture(lesson.fixture, folder, lesson.inputs)


def truth(question: Question, worked: Worked) -> float:
    """Return the full-precision value the question asks for."""
    return question.truth(worked)

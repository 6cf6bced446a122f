"""The numbers of deep dive D8: two heads of dimension one against the single head of 8.2."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from ._attention import HeadTrace, Vector, attend, concat, split_heads
from ._errors import FixtureError
from ._fixture import Fixture

HEAD_NAMES = ("A", "B")
Quantity = Literal["score", "weight", "output"]


@dataclass(frozen=True)
class D8Numbers:
    """Both one-dimensional heads, the single head from 8.2, and how far apart they land."""

    fixture: Fixture
    heads: tuple[HeadTrace, ...]
    single: HeadTrace
    concatenated: Vector
    differences: Vector


def compute(fixture: Fixture) -> D8Numbers:
    """Cut a two-dimensional fixture into one head per coordinate and run everything."""
    if fixture.dimension != len(HEAD_NAMES):
        raise FixtureError(f"query: D8 needs vectors of dimension 2, got {fixture.dimension}")
    heads = split_heads(fixture.query, fixture.keys, fixture.values,
                        range(fixture.dimension + 1))
    single = attend(fixture.query, fixture.keys, fixture.values)
    concatenated = concat(heads)
    # Differences come from full precision, never from the rounded display strings.
    differences = tuple(c - s for c, s in zip(concatenated, single.output, strict=True))
    return D8Numbers(fixture, heads, single, concatenated, differences)


@dataclass(frozen=True)
class Question:
    """One of the six numbers: which head, which quantity and, for scores and weights, which key."""

    id: str
    label: str
    head: int
    quantity: Quantity
    key: int | None = None


QUESTIONS = (
    Question("a_score_1", "Head A, the score for key 1", 0, "score", 0),
    Question("a_weight_1", "Head A, the weight on key 1", 0, "weight", 0),
    Question("a_output", "Head A, the output", 0, "output"),
    Question("b_score_2", "Head B, the score for key 2", 1, "score", 1),
    Question("b_weight_1", "Head B, the weight on key 1", 1, "weight", 0),
    Question("b_output", "Head B, the output", 1, "output"),
)
QUESTION_IDS = tuple(q.id for q in QUESTIONS)


def truth(question: Question, numbers: D8Numbers) -> float:
    """Return the full-precision value the question asks for."""
    head = numbers.heads[question.head]
    if question.quantity == "output":
        return head.output[0]
    assert question.key is not None
    field = head.scores if question.quantity == "score" else head.weights
    return field[question.key]


@dataclass(frozen=True)
class Slip:
    """A wrong number a learner plausibly types, with what it most likely means."""

    value: float
    message: str


def slips(question: Question, numbers: D8Numbers) -> tuple[Slip, ...]:
    """Return the known slips for a question, most specific first, all computed from the numbers."""
    head = numbers.heads[question.head]
    single = numbers.single
    if question.quantity == "output":
        other = 1 - question.head
        return (
            Slip(single.output[question.head],
                 "That is the single head's output from 8.2. This head sees only its own "
                 "coordinate, so its weights are different."),
            Slip(numbers.heads[other].output[0], f"That is head {HEAD_NAMES[other]}'s output."),
            Slip(math.fsum(v[0] for v in head.values) / len(head.values),
                 "That is the plain average of the values. Weight each value by its key's weight."),
        )
    assert question.key is not None
    k = question.key
    key = f"key {k + 1}"
    if question.quantity == "score":
        return (
            Slip(head.weights[k], f"That is the weight on {key}, not its score. "
                                  "The score is the query times the key."),
            Slip(head.exps[k], f"That is e raised to {key}'s score. The score comes first."),
            Slip(single.scaled[k], "That is the single head's score, scaled by 1 over the square "
                                   "root of 2. This head has dimension 1, so its scale is 1."),
            Slip(head.keys[k][0], f"That is {key}'s own coordinate, not its score. "
                                  "Multiply it by the query."),
            Slip(head.values[k][0], f"That is {key}'s value. The score uses the key, "
                                    "not the value."),
        )
    return (
        Slip(head.scores[k], f"That is {key}'s score, not its weight. The weight is its "
                             "exponential divided by the sum of all of them."),
        Slip(head.exps[k], f"That is {key}'s exponential. Divide it by the sum to get the weight."),
        Slip(single.weights[k], f"That is the single head's weight on {key}. This head scores "
                                "its own coordinate only."),
        Slip(1 / len(head.scores), "That is one over the number of keys, the weight every key "
                                   "would get if all the scores were equal."),
    )

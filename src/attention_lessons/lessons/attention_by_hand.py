"""Lesson 8.2, "Attention by hand": one head of dimension two, every step worked and checked."""

from __future__ import annotations

import math
from functools import partial

from ..engine import (
    Choice,
    HeadSpec,
    HeadTrace,
    Lesson,
    Question,
    ScaleChoice,
    Slip,
    Worked,
    decimals,
    dot,
    even_weight,
    exact,
    exponential,
    on_top,
    plain_average,
    softmax,
)

KEYS = 4  # the prediction offers one choice per key of the course's fixture
EVEN_WITHIN = 0.05  # "about equally": every weight within this of every other


def unscaled(head: HeadTrace) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Return the weights and output the head would give if the scale were left out."""
    weights = softmax(head.scores)
    output = tuple(dot(weights, [v[j] for v in head.values]) for j in range(len(head.values[0])))
    return weights, output


def score_slips(k: int, worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for key k's score, most specific first, computed from the numbers."""
    head, key = worked.heads[0], f"key {k + 1}"
    return (
        Slip(head.scaled[k], f"That is {key}'s scaled score. The score comes before the "
                             "scale: the query times the key."),
        Slip(head.weights[k], f"That is the weight on {key}, not its score."),
        Slip(head.exps[k], f"That is e raised to {key}'s scaled score. The score comes "
                           "first."),
    )


def scaled_slips(k: int, worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for key k's scaled score: the scale left out, inverted or misread."""
    head, key = worked.heads[0], f"key {k + 1}"
    d = len(head.query)
    return (
        Slip(head.scores[k], f"That is {key}'s score before scaling. Multiply it by 1 over "
                             f"the square root of {d}."),
        Slip(head.scores[k] * math.sqrt(d), f"That is the score multiplied by the square root "
                                            f"of {d}. The scale is one over it."),
        Slip(head.scores[k] / d, f"That is the score divided by {d}, the dimension. The scale "
                                 "is one over its square root."),
        Slip(head.exps[k], f"That is e raised to {key}'s scaled score, one step too far."),
    )


def weight_slips(k: int, worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for the weight on key k: unscaled, unnormalised, or no softmax."""
    head, key = worked.heads[0], f"key {k + 1}"
    flat_weights, _ = unscaled(head)
    return (
        Slip(flat_weights[k], f"That is the weight on {key} without the scale: the softmax "
                              "of the raw scores. Scale the scores first."),
        exponential(head, k),
        Slip(head.scaled[k], f"That is {key}'s scaled score, not its weight."),
        even_weight(head),
    )


def output_slips(k: int, worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for the output's entry k: unscaled, the other entry, or unweighted."""
    head = worked.heads[0]
    _, flat_output = unscaled(head)
    other = 1 - k
    return (
        Slip(flat_output[k], "That is the output without the scale. Its weights are sharper "
                             "than the head's."),
        Slip(head.output[other], f"That is the output's entry {other + 1}, not entry {k + 1}."),
        plain_average(head, k),
    )


# The readings on offer, by the ids reading_feedback answers to.
READINGS = (
    Choice("dimension", "The vectors have two coordinates, and one over the square root of "
                        "the dimension keeps the scores from growing with it."),
    Choice("keys", "It shares the weight out between the keys."),
    Choice("sum", "Without it the weights would not add up to 1."),
    Choice("constant", "It is a convention; any constant would do."),
)


class AttentionByHand(Lesson):
    """One plain head: the engine's defaults compute and print it; the lesson says what it shows."""

    def scale_choices(self) -> tuple[ScaleChoice, ...]:
        """The head's own scale, none at all, or one for twice the dimension."""
        return (ScaleChoice("own", "1/sqrt(2), the head's own"), ScaleChoice("one", "1", 1),
                ScaleChoice("four", "1/sqrt(4)", 4))

    def fitting_prediction(self, worked: Worked) -> str | None:
        """Return the prediction the weights bear out: one key on top, all even, or none (a tie)."""
        weights = worked.heads[0].weights
        if max(weights) - min(weights) <= EVEN_WITHIN:
            return "even"
        top = on_top(weights)
        return f"key_{top[0]}" if len(top) == 1 else None

    def shown(self, worked: Worked) -> str:
        """Say which key the numbers put on top."""
        return self.largest(worked.heads[0])

    def reading_feedback(self, reading: str, worked: Worked) -> str:
        """Return why a reading is right or, for a wrong one, what the numbers say instead."""
        head = worked.heads[0]
        d, n = len(head.query), len(head.keys)
        if reading == "dimension":
            return (f"Right. A score adds up one product per coordinate, so scores spread wider "
                    f"as the dimension grows. One over the square root of {d} keeps the softmax "
                    "from turning sharper just because the vectors are longer.")
        top = max(range(n), key=lambda i: head.weights[i])
        if reading == "keys":
            by_keys = head.scores[top] / math.sqrt(n)
            return (f"The scale follows the dimension, {d}, not the number of keys, {n}. With one "
                    f"over the square root of {n}, key {top + 1}'s scaled score would be "
                    f"{decimals(by_keys)}, not {decimals(head.scaled[top])}.")
        flat_weights, _ = unscaled(head)
        if reading == "sum":
            return (f"The softmax makes the weights add up to 1 with any scale: here they add up "
                    f"to {decimals(math.fsum(head.weights))}, and without the scale they would "
                    f"too. The scale changes how sharp they are: without it key {top + 1} would "
                    f"take {decimals(flat_weights[top])}, not {decimals(head.weights[top])}. "
                    "Try it in Explore: set the scale to 1, or to 1/sqrt(4).")
        return (f"A constant would not follow the dimension. D8 runs heads of dimension 1 on the "
                f"same keys with scale 1; this head has dimension {d}, so its scale is "
                f"{decimals(head.scale)}. Try it in Explore: set the scale to 1, or to "
                "1/sqrt(4), and watch the weights move.")

    def hint_question(self, worked: Worked) -> str:
        """Ask for the two heaviest keys' scaled scores and exponentials."""
        head = worked.heads[0]
        d = len(head.query)
        i, j = sorted(sorted(range(len(head.weights)), key=lambda k: -head.weights[k])[:2])
        return (f"Key {i + 1} scores {exact(head.scores[i])} and key {j + 1} scores "
                f"{exact(head.scores[j])}. What does multiplying each by 1 over the square root "
                f"of {d} give, and what is e raised to each of those?")


LESSON = AttentionByHand(
    slug="8-2",
    code="8.2",
    title="Attention by hand",
    crumbs="Learn machine learning · lesson 8.2",
    lede=("One head of attention is a dot product, a scale, a softmax and a weighted average. "
          "Work each step on four keys in two dimensions, and every number you write is checked "
          "against the one computed here."),
    meta=("Lesson 8.2", "Computation", "About 30 minutes", "Your check: compute it yourself"),
    about=("The gate is five of six numbers within 0.02 and the right reading of why the scale "
           "is one over the square root of 2. Deep dive D8 opens once it is met, and nothing "
           "else waits on it."),
    question=(
        "A query is compared with every key. Each comparison is a score, the query times the key. "
        "The scores are multiplied by the scale, one over the square root of the dimension, which "
        "here is one over the square root of 2. A softmax turns the scaled scores into weights "
        "that add up to 1, and the output is the values averaged by those weights.",
        "Commit before you compute. Four keys compete for one query.",
    ),
    predict="Which key will take the largest weight?",
    predictions=(*(Choice(f"key_{k}", f"Key {k}.") for k in range(1, KEYS + 1)),
                 Choice("even", "All four about equally, within 0.05 of each other.")),
    try_title="The fixture",
    try_intro=("One head reads both coordinates of the query, of every key and of every value. "
               "Each step below is computed from the one before it."),
    heads=(HeadSpec("single", "the head", "one head, dimension 2",
                    "The scale is one over the square root of 2. Every score is multiplied by it "
                    "before the softmax, so the scaled scores are smaller than the scores.",
                    "the head computed on both coordinates, live in this browser."),),
    questions=(
        Question("score_3", "The score for key 3", lambda w: w.heads[0].scores[2],
                 partial(score_slips, 2)),
        Question("scaled_1", "The scaled score for key 1", lambda w: w.heads[0].scaled[0],
                 partial(scaled_slips, 0)),
        Question("weight_1", "The weight on key 1", lambda w: w.heads[0].weights[0],
                 partial(weight_slips, 0)),
        Question("weight_3", "The weight on key 3", lambda w: w.heads[0].weights[2],
                 partial(weight_slips, 2)),
        Question("output_1", "The output, first entry", lambda w: w.heads[0].output[0],
                 partial(output_slips, 0)),
        Question("output_2", "The output, second entry", lambda w: w.heads[0].output[1],
                 partial(output_slips, 1)),
    ),
    reading_question="Why is the scale one over the square root of 2?",
    readings=READINGS,
    correct_reading="dimension",
    gate_reading="why the scale is one over the square root of 2",
    takeaway=("A head scores each key by the query times the key, scales by one over the square "
              "root of the dimension, and averages the values by the softmax of those scores."),
)

"""Lesson 8.3, "Masked attention": 8.2's head under a causal mask, which hides the later keys."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from ..engine import (
    Choice,
    Comparison,
    Fixture,
    HeadSpec,
    HeadTrace,
    Lesson,
    Question,
    Slip,
    Step,
    Vector,
    Worked,
    attend,
    decimals,
    dot,
    exact,
    exponential,
    listing,
    scale_label,
    softmax,
    vector,
    with_and,
)

POSITION = 2  # the query's place in the sequence: it may see keys 1 and 2, never 3 or 4
SAME_WITHIN = 0.5 * 10**-4  # a weight that moves less than this prints the same


def mask(scaled: Sequence[float], position: int) -> Vector:
    """Set the scaled score of every key after the query's position to minus infinity."""
    return tuple(x if i < position else -math.inf for i, x in enumerate(scaled))


def _exp(x: float) -> float:
    # Explored vectors can score beyond float range: the step table then says inf, honestly.
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def average(weights: Sequence[float], values: Sequence[Sequence[float]]) -> Vector:
    """Return the values averaged by the weights, entry by entry."""
    return tuple(dot(weights, [v[j] for v in values]) for j in range(len(values[0])))


def masked_head(query: Sequence[float], keys: Sequence[Sequence[float]],
                values: Sequence[Sequence[float]], position: int,
                scale: float | None = None) -> HeadTrace:
    """Run one head with a causal mask between the scale and the softmax.

    The trace keeps the scaled scores as they were before the mask; its exponentials, sum,
    weights and output are the masked ones."""
    plain = attend(query, keys, values, scale)
    masked = mask(plain.scaled, position)
    exps = tuple(_exp(x) for x in masked)  # e to the minus infinity is exactly 0
    weights = softmax(masked)
    return replace(plain, exps=exps, total=math.fsum(exps), weights=weights,
                   output=average(weights, plain.values))


def zeroed(head: HeadTrace) -> tuple[Vector, Vector]:
    """Return the weights and output with the masked scores set to 0, not to minus infinity."""
    weights = softmax([0.0 if i >= POSITION else x for i, x in enumerate(head.scaled)])
    return weights, average(weights, head.values)


def struck_out(single: HeadTrace) -> tuple[Vector, Vector]:
    """Return 8.2's weights with the later keys struck out after the softmax, not renormalised."""
    weights = tuple(w if i < POSITION else 0.0 for i, w in enumerate(single.weights))
    return weights, average(weights, single.values)


def keys_named(keys: Sequence[int]) -> str:
    """Name keys as a sentence does: "key 3", "keys 3 and 4", "keys 1, 2 and 3"."""
    names = [str(k) for k in keys]
    if len(names) < 2:
        return f"key {names[0]}" if names else "no key"
    return f"keys {with_and(names)}"


def hidden(n: int) -> str:
    """Name the keys the mask hides from the query, of n: "keys 3 and 4"."""
    return keys_named(range(POSITION + 1, n + 1))


def seen() -> str:
    """Name the keys the query may see: "keys 1 and 2"."""
    return keys_named(range(1, POSITION + 1))


def shown_value(x: float) -> str:
    """Print a step's number, and minus infinity as the mask writes it."""
    return "-∞" if x == -math.inf else exact(x)


def _unmasked(worked: Worked) -> HeadTrace:
    assert worked.single is not None  # the lesson's reference head: 8.2's, with no mask
    return worked.single


def scaled_slips(k: int, worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for key k's scaled score: the score unscaled, or one step on."""
    head, key = worked.heads[0], f"key {k + 1}"
    return (
        Slip(head.scores[k], f"That is {key}'s score before the scale. Multiply it by 1 over the "
                             f"square root of {len(head.query)}."),
        Slip(head.exps[k], f"That is e raised to {key}'s scaled score, one step on."),
    )


def sum_slips(worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for the sum of the exponentials: 8.2's, or 0 for minus infinity."""
    head, single = worked.heads[0], _unmasked(worked)
    later = hidden(len(head.keys))
    return (
        Slip(single.total, f"That is 8.2's sum, with {later} still in it. Once masked, their "
                           "exponentials are 0."),
        Slip(math.fsum(math.exp(x) if i < POSITION else 1.0 for i, x in enumerate(head.scaled)),
             f"That is the sum with the scores of {later} set to 0: e raised to 0 is 1, so "
             "each of them still adds 1. A masked score is minus infinity."),
    )


def weight_slips(k: int, worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for the weight on key k: unmasked, masked with 0, or its exp."""
    head, single, key = worked.heads[0], _unmasked(worked), f"key {k + 1}"
    zero_weights, _ = zeroed(head)
    later = hidden(len(head.keys))
    unmasked = (f"Striking {later} out after the softmax leaves it there too: mask the scores, "
                "then take the softmax." if k < POSITION else
                f"{key.capitalize()} comes after the query, so its score is minus infinity.")
    # A masked key's exponential is 0, its weight too: no slip, so not named.
    return (
        Slip(single.weights[k], f"That is the weight on {key} in 8.2, with no mask. {unmasked}"),
        Slip(zero_weights[k], f"That is the weight on {key} with the masked scores set to 0, "
                              "not to minus infinity."),
        *((exponential(head, k),) if k < POSITION else ()),
    )


def output_slips(j: int, worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for the output's entry j, each from a mask applied wrongly."""
    head, single = worked.heads[0], _unmasked(worked)
    _, after = struck_out(single)
    _, zero_output = zeroed(head)
    return (
        Slip(single.output[j], "That is 8.2's output, with no mask. The query may not see "
                               f"{hidden(len(head.keys))}."),
        Slip(after[j], "That is the output with the later keys struck out after the softmax: "
                       "the weights left do not add up to 1. Mask the scores before it."),
        Slip(zero_output[j], "That is the output with the masked scores set to 0, not to minus "
                             "infinity."),
        Slip(head.output[1 - j], f"That is the output's entry {2 - j}, not entry {j + 1}."),
    )


# The six graded numbers, each with its truth and its slips, read off the worked lesson.
QUESTIONS = (
    Question("scaled_2", "The scaled score for key 2", lambda w: w.heads[0].scaled[1],
             partial(scaled_slips, 1)),
    Question("total", "The sum of the exponentials", lambda w: w.heads[0].total, sum_slips),
    Question("weight_1", "The weight on key 1", lambda w: w.heads[0].weights[0],
             partial(weight_slips, 0)),
    Question("weight_3", "The weight on key 3, which is masked",
             lambda w: w.heads[0].weights[2], partial(weight_slips, 2)),
    Question("output_1", "The output, first entry", lambda w: w.heads[0].output[0],
             partial(output_slips, 0)),
    Question("output_2", "The output, second entry", lambda w: w.heads[0].output[1],
             partial(output_slips, 1)),

)


# What the learner may predict and read, by the ids fitting_prediction and reading_feedback give.
PREDICTIONS = (
    Choice("rises", "It rises: keys 1 and 2 share what keys 3 and 4 gave up."),
    Choice("same", "It stays as it was: the mask only takes keys 3 and 4 away."),
    Choice("falls", "It falls: the mask takes weight from every key."),
)
READINGS = (
    Choice("no_weight", "e raised to minus infinity is exactly 0, so a masked key gets no "
                        "weight at all; a score of 0 would still get e raised to 0, which is "
                        "1, and a share of the weight."),
    Choice("zero_hides", "A score of 0 would hide the key just as well; minus infinity is a "
                         "convention."),
    Choice("sum", "Without minus infinity the weights would not add up to 1."),
    Choice("scale", "It keeps the scores from growing with the dimension, as the scale does."),
)


class MaskedAttention(Lesson):
    """One head of 8.2's kind, with the keys after the query's position masked out."""

    def compute_heads(self, fixture: Fixture,
                      scale: float | None = None) -> tuple[HeadTrace, ...]:
        """Run the masked head over the whole fixture."""
        return (masked_head(fixture.query, fixture.keys, fixture.values, POSITION, scale),)

    def reference(self, fixture: Fixture) -> HeadTrace:
        """Run 8.2's head, unmasked, over the same fixture."""
        return attend(fixture.query, fixture.keys, fixture.values)

    def describe(self, worked: Worked, index: int) -> tuple[str, str]:
        """Say where the query sits and which keys it may see: the intro and the summary's lead."""
        head = worked.heads[index]
        keys = ", ".join(vector(k) for k in head.keys)
        values = ", ".join(vector(v) for v in head.values)
        return (f"Query {vector(head.query)} at position {POSITION}, keys {keys}, values "
                f"{values}.",
                f"The query at position {POSITION} sees {seen()}; "
                f"{hidden(len(head.keys))} come after it and are masked.")

    def step_rows(self, worked: Worked, index: int) -> tuple[Step, ...]:
        """The step table with the mask in view, between the scaled scores and the softmax."""
        head = worked.heads[index]
        return (
            Step("scores, query times key", listing(head.scores, exact)),
            Step(scale_label(head), listing(head.scaled, exact)),
            Step(f"masked, keys after position {POSITION}",
                 listing(mask(head.scaled, POSITION), shown_value)),
            Step("exponentials", listing(head.exps, exact)),
            Step("their sum", decimals(head.total)),
            Step("weights", listing(head.weights, exact)),
            Step("output, weights against values", listing(head.output)),
        )

    def readout_note(self, worked: Worked) -> str:
        """Say that the hidden keys get no weight, wherever the learner puts them."""
        return (f"{hidden(len(worked.heads[0].keys)).capitalize()} come after the query: the "
                "mask gives them weight 0, wherever they are.")

    def fitting_prediction(self, worked: Worked) -> str | None:
        """Return whether key 1's weight rose, fell or stayed as the mask came in."""
        gap = worked.heads[0].weights[0] - _unmasked(worked).weights[0]
        if abs(gap) < SAME_WITHIN:
            return "same"
        return "rises" if gap > 0 else "falls"

    def shown(self, worked: Worked) -> str:
        """Say where key 1's weight went."""
        before, after = _unmasked(worked).weights[0], worked.heads[0].weights[0]
        return f"Key 1's weight is {decimals(before)} in 8.2 and {decimals(after)} with the mask."

    def reading_feedback(self, reading: str, worked: Worked) -> str:
        """Return why a reading is right or, for a wrong one, what the numbers say instead."""
        head = worked.heads[0]
        later = hidden(len(head.keys))
        zero_weights, _ = zeroed(head)
        if reading == "no_weight":
            return (f"Right. e raised to minus infinity is exactly 0, so {later} get no weight "
                    f"at all, and the softmax shares everything among the keys the query may "
                    "see.")
        with_zero = (f"with 0 in place of minus infinity, key {POSITION + 1} would take "
                     f"{decimals(zero_weights[POSITION])} and key 1 only "
                     f"{decimals(zero_weights[0])}, not {decimals(head.weights[0])}")
        if reading == "zero_hides":
            return f"A score of 0 is not a hidden key: e raised to 0 is 1, and {with_zero}."
        if reading == "sum":
            return (f"The softmax makes the weights add up to 1 either way: {with_zero}, and "
                    f"they would still add up to {decimals(math.fsum(zero_weights))}.")
        return (f"The scale divides every score alike, by the square root of {len(head.query)}. "
                f"The mask takes {later} out of the softmax altogether.")

    def hint_question(self, worked: Worked) -> str:
        """Ask for the exponentials of the keys the query sees, and of the masked ones."""
        head = worked.heads[0]
        scaled = " and ".join(exact(x) for x in head.scaled[:POSITION])
        return (f"{seen().capitalize()} scale to {scaled}, and {hidden(len(head.keys))} are "
                "masked to minus infinity. What is e raised to each of these, and what do they "
                "add up to?")


LESSON = MaskedAttention(
    slug="8-3",
    code="8.3",
    title="Masked attention",
    crumbs="Learn machine learning · lesson 8.3",
    meta=("Lesson 8.3", "Computation", "About 30 minutes", "Your check: compute it yourself"),
    lede=("A model that writes a sequence one step at a time must not read ahead. A causal mask "
          "hides every key after the query before the softmax runs, so a hidden key gets no "
          "weight at all. Work 8.2's head again with two of its four keys masked, and every "
          "number you write is checked against the one computed here."),
    about=("This builds on 8.2 Attention by hand. The gate is five of six numbers within 0.02 "
           "and the right reading of why a masked score is minus infinity rather than 0."),
    question=(
        "The fixture's four keys are four positions in a sequence, and the query sits at "
        "position 2. A causal mask lets it see only the keys at or before its own position, "
        "keys 1 and 2. The scaled scores of keys 3 and 4 become minus infinity before the "
        "softmax, so their exponentials, and their weights, are exactly 0.",
        "Commit before you compute. The same query, the same keys, and two of them out of sight.",
    ),
    predict="What happens to the weight key 1 took in 8.2 once keys 3 and 4 are masked?",
    predictions=PREDICTIONS,
    try_title="The fixture, masked",
    try_intro=("One head reads both coordinates, as in 8.2, with the mask between the scaled "
               "scores and the softmax. Each step below is computed from the one before it."),
    heads=(HeadSpec(id="masked", name="the masked head", title="one head, dimension 2, masked",
                    note=("The scale is one over the square root of 2, as in 8.2. Then every "
                          "key after position 2 gets minus infinity, and e raised to minus "
                          "infinity is 0."),
                    caption="the masked head computed on both coordinates, live in this "
                            "browser."),),
    questions=QUESTIONS,
    reading_question="Why set masked scores to minus infinity rather than to 0?",
    readings=READINGS,
    correct_reading="no_weight",
    gate_reading="why a masked score is minus infinity rather than 0",
    takeaway=("A causal mask sets the scores of the later keys to minus infinity before the "
              "softmax, so they get exactly no weight and the keys the query may see share all "
              "of it."),
    comparison=Comparison(
        title="Against the unmasked head", concatenated="the masked head",
        caption="The masked head against the unmasked head from 8.2",
        reference="the unmasked head, from 8.2",
        note="The mask is the only difference, and both are computed here, in this browser.",
        mark="unmasked"),
    prerequisite="8-2",
)

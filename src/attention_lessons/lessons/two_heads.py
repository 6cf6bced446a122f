"""Deep dive D8, "Two heads of dimension one": the 8.2 fixture cut into one head per coordinate."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from ..engine import (
    Choice,
    Comparison,
    Fixture,
    FixtureError,
    HeadSpec,
    HeadTrace,
    Lesson,
    PlaneMark,
    Preset,
    ProjectionSpec,
    Question,
    ScaleChoice,
    Slip,
    Worked,
    attend,
    decimals,
    even_weight,
    exact,
    exponential,
    listing,
    plain_average,
    reference_mark,
    split_heads,
    top_tie,
)

HEAD_NAMES = ("A", "B")
_SCALE_NOTE = ("The scale is one over the square root of one, which is 1, so the scores and the "
               "scaled scores are the same numbers here. That is the rule doing its job, not the "
               "rule being skipped.")


def output_slips(h: int, worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for head h's output: the single head's, the other's, no weights."""
    head, single = worked.heads[h], worked.single
    assert single is not None
    other = 1 - h
    return (
        Slip(single.output[h],
             "That is the single head's output from 8.2. This head sees only its own "
             "coordinate, so its weights are different."),
        Slip(worked.heads[other].output[0], f"That is head {HEAD_NAMES[other]}'s output."),
        plain_average(head, 0),
    )


def score_slips(h: int, k: int, worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for key k's score in head h, most specific first."""
    head, single = worked.heads[h], worked.single
    assert single is not None
    key = f"key {k + 1}"
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


def weight_slips(h: int, k: int, worked: Worked) -> tuple[Slip, ...]:
    """Return the known slips for the weight on key k in head h, most specific first."""
    head, single = worked.heads[h], worked.single
    assert single is not None
    key = f"key {k + 1}"
    return (
        Slip(head.scores[k], f"That is {key}'s score, not its weight. The weight is its "
                             "exponential divided by the sum of all of them."),
        exponential(head, k),
        Slip(single.weights[k], f"That is the single head's weight on {key}. This head scores "
                                "its own coordinate only."),
        even_weight(head),
    )


def fitting_gap(differences: Iterable[float]) -> str | None:
    """Name the prediction that gaps of this size fit: same, close, different, or none."""
    gaps = [abs(d) for d in differences]
    if max(gaps) < 0.5 * 10**-4:
        return "same"
    if max(gaps) <= 0.01:
        return "close"
    if min(gaps) > 0.1:
        return "different"
    return None



def widest_gap(worked: Worked) -> float:
    """Return how far the concatenated heads land from the single head, entry by entry."""
    assert worked.differences is not None
    return max(abs(d) for d in worked.differences)


PRESETS = (
    Preset("closest", "The two heads come closest to the single head.", widest_gap),
    Preset("furthest", "The two heads land furthest from the single head.",
           lambda w: -widest_gap(w)),
    Preset("tie", "Two keys tie for head A's largest weight.", top_tie),
)


class TwoHeads(Lesson):
    """The fixture cut into one head per coordinate, set beside 8.2's single head."""

    def compute_heads(self, fixture: Fixture,
                      scale: float | None = None) -> tuple[HeadTrace, ...]:
        """Cut a two-dimensional fixture into one head per coordinate and run each."""
        if fixture.dimension != len(HEAD_NAMES):
            raise FixtureError(
                f"query: D8 needs vectors of dimension 2, got {fixture.dimension}")
        bounds = range(fixture.dimension + 1)
        return split_heads(fixture.query, fixture.keys, fixture.values, bounds, scale)

    def reference(self, fixture: Fixture) -> HeadTrace:
        """Run 8.2's single head of dimension two over the whole fixture."""
        return attend(fixture.query, fixture.keys, fixture.values)

    def scale_choices(self) -> tuple[ScaleChoice, ...]:
        """Each head's own scale, or the single head's for every head: the scale experiment."""
        return (ScaleChoice("own", "Each head's own scale, 1/sqrt(1)"),
                ScaleChoice("single", "Give every head the single head's scale, 1/sqrt(2)", 2))

    def presets(self) -> tuple[Preset, ...]:
        """Where the heads meet the single head, where they part most, and a tie in head A."""
        return PRESETS

    def axis_names(self) -> tuple[str, str]:
        """Each axis is one head's coordinate."""
        return ("coordinate 1, which head A reads", "coordinate 2, which head B reads")

    def plane_marks(self, worked: Worked) -> tuple[PlaneMark, ...]:
        """Mark each head's output on the axis of the coordinate it reads, the two joined as a
        point, and the single head's output beside them."""
        a, b = (head.output[0] for head in worked.heads)
        return (PlaneMark("output_a", "head A", "the output of head A, on coordinate 1", (a, 0.0)),
                PlaneMark("output_b", "head B", "the output of head B, on coordinate 2", (0.0, b)),
                PlaneMark("concatenated", "[A, B]", "the two heads' outputs, concatenated",
                          (a, b)),
                *reference_mark(worked))

    def describe(self, worked: Worked, index: int) -> tuple[str, str]:
        """Say what one coordinate's head reads: its intro and the lead of its summary."""
        head = worked.heads[index]
        keys = listing((k[0] for k in head.keys), exact)
        values = listing((v[0] for v in head.values), exact)
        query = listing(head.query, exact)
        return (f"Query {query}, keys [{keys}], values [{values}].",
                f"head {HEAD_NAMES[index]} reads coordinate {index + 1} only: query {query}, "
                f"keys {keys}, values {values}.")

    def fitting_prediction(self, worked: Worked) -> str | None:
        """Return the prediction the computed differences bear out, or None if none of them does."""
        assert worked.differences is not None
        return fitting_gap(worked.differences)

    def shown(self, worked: Worked) -> str:
        """Say how far apart the two heads and the single head land."""
        assert worked.differences is not None
        gaps = " and ".join(decimals(d) for d in worked.differences)
        return f"The two heads and the single head differ by {gaps}."

    def reading_feedback(self, reading: str, worked: Worked) -> str:
        """Return why a reading is right or, for a wrong one, what the numbers say instead."""
        if reading == "own_scores":
            return ("Right. Each head's softmax sees only its own coordinate's scores, so the "
                    "weights differ from the single head's, and so do the outputs.")
        if reading == "scale":
            return ("The scales do differ, 1 for each head and 1 over the square root of 2 for "
                    "the single head, but that is not the reason: with equal scales the runs would "
                    "still differ, because each head normalises over its own scores. Try it in "
                    "Explore: give every head the single head's scale.")
        if reading == "rounding":
            assert worked.differences is not None
            biggest = max(abs(d) for d in worked.differences)
            return (f"The gap is as large as {decimals(biggest)}, and rounding to four decimals "
                    "moves a number by at most 0.00005. Rounding cannot explain it. See for "
                    "yourself in Explore: show full precision.")
        return ("Both runs are computed here from the same fixture and each matches its own step "
                "table. They are different operations, so different answers are expected.")

    def hint_question(self, worked: Worked) -> str:
        """Ask about the keys head A weighs most, set beside their scores in the single head."""
        head, single = worked.heads[0], worked.single
        assert single is not None
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

    def hint_answer(self, worked: Worked) -> str:
        """Close the worked answer with each head's own sum of exponentials."""
        a, b = worked.heads
        return (f"Head A's sum of exponentials is {decimals(a.total)}, head B's is "
                f"{decimals(b.total)}: each head normalises over its own scores only.")


def _head(index: int) -> HeadSpec:
    name = HEAD_NAMES[index]
    return HeadSpec(name.lower(), f"head {name}", f"head {name}, coordinate {index + 1}",
                    _SCALE_NOTE,
                    f"head {name} computed on its own coordinate, live in this browser.")


LESSON = TwoHeads(
    slug="d8",
    code="D8",
    kind="deep dive",
    minutes=45,
    title="Two heads of dimension one",
    crumbs="Learn machine learning · deep dive D8 · optional",
    lede=("Multi-head attention is the same operation run on disjoint slices of the same vectors. "
          "Split the 8.2 fixture down the middle, compute both halves, and the claim is either "
          "true on these numbers or it is not."),
    meta=("Deep dive D8", "Derivation", "About 45 minutes",
          "Your check: demonstrate the idea yourself"),
    about=("This is optional. It opens once 8.2 Attention by hand is done, and nothing in the "
           "track waits on it. The gate is five of six numbers within 0.02 and the right reading "
           "of why the two results differ."),
    question=(
        "8.2 computed one head over two-dimensional vectors. Here the same fixture is cut into its "
        "first and second coordinates, and each half is run as its own head of dimension one. The "
        "scale is one over the square root of the head's dimension, which here is one over the "
        "square root of one. It is printed as 1 so that the rule is visible rather than mistaken "
        "for a constant somebody dropped.",
        "Commit before you compute. The two head outputs, side by side, against the single head's "
        "two-dimensional output from 8.2.",
    ),
    predict=("How will the two one-dimensional heads compare with the single two-dimensional "
             "head from 8.2?"),
    predictions=(
        Choice("same", "The same two numbers."),
        Choice("close", "Within about 0.01 of each other."),
        Choice("different", "Clearly different, by more than 0.1."),
    ),
    try_title="The fixture, split",
    try_intro=("Head A takes the first coordinate of the query, of every key and of every value. "
               "Head B takes the second. Nothing else changes: same operation, same softmax, same "
               "weighted average."),
    heads=(_head(0), _head(1)),
    questions=(
        Question("a_score_1", "Head A, the score for key 1", lambda w: w.heads[0].scores[0],
                 partial(score_slips, 0, 0)),
        Question("a_weight_1", "Head A, the weight on key 1", lambda w: w.heads[0].weights[0],
                 partial(weight_slips, 0, 0)),
        Question("a_output", "Head A, the output", lambda w: w.heads[0].output[0],
                 partial(output_slips, 0)),
        Question("b_score_2", "Head B, the score for key 2", lambda w: w.heads[1].scores[1],
                 partial(score_slips, 1, 1)),
        Question("b_weight_1", "Head B, the weight on key 1", lambda w: w.heads[1].weights[0],
                 partial(weight_slips, 1, 0)),
        Question("b_output", "Head B, the output", lambda w: w.heads[1].output[0],
                 partial(output_slips, 1)),
    ),
    reading_question="Why do the two results differ?",
    readings=(
        Choice("own_scores", "Each head normalises over its own scores, so a key that is strong "
                             "in one coordinate cannot be outvoted by the other coordinate inside "
                             "that head."),
        Choice("scale", "The two runs use different scale factors."),
        Choice("rounding", "The difference is rounding."),
        Choice("broken", "They should be identical and one of the two runs is wrong."),
    ),
    correct_reading="own_scores",
    gate_reading="why the concatenated heads are not the single head's answer",
    takeaway=("Each head normalises over its own scores, so two heads of dimension one are not "
              "the single two-dimensional head cut in half."),
    comparison=Comparison(
        title="Against the single head",
        caption="The concatenated heads against the single two-dimensional head",
        concatenated="two heads, concatenated",
        reference="one head of dimension two, from 8.2",
        note="Both are computed here, in this browser, from the same fixture.",
        mark="single",
    ),
    projection=ProjectionSpec(
        kicker="After the concatenation",
        title="The output projection",
        text=("The two head outputs are joined into one vector and then multiplied by a matrix "
              "before they leave the layer. Set the four numbers and watch what arrives at the "
              "next layer. At the identity nothing moves, which is why the identity is where it "
              "starts."),
        aside="Concatenation is one step; the projection after it is part of the same operation.",
        columns=("head A", "head B"),
    ),
    prerequisite="8-2",
    optional=True,
)

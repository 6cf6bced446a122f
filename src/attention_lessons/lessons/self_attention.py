"""Lesson 8.4, "Self-attention: every token asks": four tokens, each projected to a query, a key
and a value by three matrices, and every token's query run against every token's key."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import partial

from ..engine import (
    Choice,
    Figure,
    Fixture,
    HeadSpec,
    HeadTrace,
    Input,
    Lesson,
    Matrix,
    PlaneMark,
    Question,
    Slip,
    Space,
    Step,
    Vector,
    Words,
    Worked,
    attend,
    decimals,
    dot,
    exact,
    listing,
    on_top,
    project,
    scale_label,
    softmax,
    vector,
)

TOKENS = 4  # the fixture's tokens, and the rows of the weights: one head a token that asks
ASKING = 2  # the prediction's row, from 0: token 3 asks
EVEN_WITHIN = 0.05  # "about equally": every weight in the row within this of every other
INPUTS = (Input("tokens", ("n", 2), "token"), Input("w_q", (2, 2)), Input("w_k", (2, 2)),
          Input("w_v", (2, 2)))
WORDS = Words(query="token that asks", key="token", keys="tokens", value="value",
              values="values", key_vector="its key")
MATRICES = ("w_q", "w_k", "w_v")
# The projected space runs this far each way: W_Q, W_K and W_V times a token anywhere on the
# plane (within 3 of the origin each way) lands within 9 (W_Q's row 1, 2 at 3, 3 gives 9).
PROJECTED_EDGE = 9.0


def transposed(matrix: Matrix) -> Matrix:
    """Return the matrix with its rows and columns swapped."""
    return tuple(zip(*matrix, strict=True))


def projections(fixture: Fixture, flip: bool = False) -> tuple[Matrix, Matrix, Matrix]:
    """Every token's query, key and value: each matrix times the token (its transpose, flip)."""
    tokens = fixture.matrix("tokens")
    found = []
    for name in MATRICES:
        matrix = fixture.matrix(name)
        matrix = transposed(matrix) if flip else matrix
        found.append(tuple(project(matrix, x) for x in tokens))
    return found[0], found[1], found[2]


def every_row(queries: Matrix, keys: Matrix, values: Matrix,
              scale: float | None = None) -> tuple[HeadTrace, ...]:
    """Run one head for each token's query against every token's key: a row of weights each."""
    return tuple(attend(q, keys, values, scale) for q in queries)


def by_column(rows: Sequence[HeadTrace]) -> tuple[Matrix, Matrix]:
    """Return the weights and outputs with the softmax run down each column of the scaled
    scores, not along each row: what normalising a column instead of a row gives."""
    columns = [softmax([row.scaled[k] for row in rows]) for k in range(len(rows[0].scaled))]
    weights = tuple(tuple(column[i] for column in columns) for i in range(len(rows)))
    values = rows[0].values
    outputs = tuple(tuple(dot(w, [v[j] for v in values]) for j in range(len(values[0])))
                    for w in weights)
    return weights, outputs


class Slipped:
    """The lesson worked again as each named slip works it."""

    def __init__(self, worked: Worked) -> None:
        fixture, tokens = worked.fixture, worked.fixture.matrix("tokens")
        self.unprojected = every_row(tokens, tokens, tokens)
        self.flipped = every_row(*projections(fixture, flip=True))
        rows = worked.heads
        self.unscaled = every_row(tuple(r.query for r in rows), rows[0].keys, rows[0].values,
                                  1.0)
        self.column_weights, self.column_outputs = by_column(rows)


_LAST: dict[str, tuple[Worked, Slipped]] = {}  # the worked lesson slipped last, and its slips


def slipped(worked: Worked) -> Slipped:
    """The lesson worked as each slip works it, once for a worked lesson: a Check grades all six
    questions on one worked lesson, and each question's slips read the same wrong methods."""
    last = _LAST.get("worked")
    if last is None or last[0] is not worked:
        last = _LAST["worked"] = (worked, Slipped(worked))
    return last[1]


def token(i: int) -> str:
    """Name token i, counted from 0: "token 3"."""
    return f"token {i + 1}"


def query_slips(i: int, j: int, worked: Worked) -> tuple[Slip, ...]:
    """Token i's query, entry j: the token itself, or the transposed matrix."""
    wrong = slipped(worked)
    return (
        Slip(wrong.unprojected[i].query[j],
             f"That is {token(i)} itself, not its query. The query is W_Q times the token."),
        Slip(wrong.flipped[i].query[j],
             f"That is {token(i)} times W_Q's transpose: each column of W_Q against the token. "
             "Take each row of W_Q against it."),
    )


def scaled_slips(i: int, k: int, worked: Worked) -> tuple[Slip, ...]:
    """Token i's scaled score on token k: the scale forgotten, no projection, or transposed."""
    wrong, d = slipped(worked), len(worked.heads[i].query)
    return (
        Slip(worked.heads[i].scores[k],
             f"That is the score before the scale. Multiply it by 1 over the square root of {d}."),
        Slip(wrong.unprojected[i].scaled[k],
             f"That is {token(i)} against {token(k)} as they are, unprojected. Score {token(i)}'s "
             f"query, W_Q times it, against {token(k)}'s key, W_K times it."),
        Slip(wrong.flipped[i].scaled[k],
             "That is the score with W_Q and W_K transposed. Take each row of a matrix against "
             "the token."),
    )


def total_slips(i: int, worked: Worked) -> tuple[Slip, ...]:
    """The sum of row i's exponentials: unscaled, unprojected, or transposed."""
    wrong = slipped(worked)
    return (
        Slip(wrong.unscaled[i].total,
             "That is the sum with the scale forgotten: e raised to each score as it is. Scale "
             "the scores first."),
        Slip(wrong.unprojected[i].total,
             "That is the sum for the tokens as they are, unprojected. Project each token to "
             "its query and its key first."),
        Slip(wrong.flipped[i].total,
             "That is the sum with W_Q and W_K transposed. Take each row of a matrix against "
             "the token."),
    )


def weight_slips(i: int, k: int, worked: Worked) -> tuple[Slip, ...]:
    """Row i's weight on token k: each of the four named slips."""
    wrong = slipped(worked)
    return (
        Slip(wrong.column_weights[i][k],
             f"That is the weight normalised down column {k + 1}, over the tokens that ask. A "
             f"row's weights add up to 1: divide by the sum of {token(i)}'s row."),
        Slip(wrong.unscaled[i].weights[k],
             "That is the weight with the scale forgotten: the softmax of the raw scores. Scale "
             "them first."),
        Slip(wrong.unprojected[i].weights[k],
             "That is the weight for the tokens as they are, unprojected. Project each token "
             "to its query and its key first."),
        Slip(wrong.flipped[i].weights[k],
             "That is the weight with W_Q and W_K transposed. Take each row of a matrix against "
             "the token."),
    )


def output_slips(i: int, j: int, worked: Worked) -> tuple[Slip, ...]:
    """Row i's output, entry j: column-normalised, unscaled, unprojected, or transposed."""
    wrong = slipped(worked)
    return (
        Slip(wrong.column_outputs[i][j],
             "That is the output with the weights normalised down each column. A row's weights "
             "add up to 1."),
        Slip(wrong.unscaled[i].output[j],
             "That is the output with the scale forgotten. Its weights are sharper than the "
             "row's."),
        Slip(wrong.unprojected[i].output[j],
             "That is the tokens themselves averaged, unprojected. Average the values, W_V times "
             "each token."),
        Slip(wrong.flipped[i].output[j],
             "That is the output with every matrix transposed. Take each row of a matrix against "
             "the token."),
    )


QUESTIONS = (
    Question("query_4", "Token 4's query, first entry",
             lambda w: w.heads[3].query[0], partial(query_slips, 3, 0)),
    Question("scaled_4_3", "Token 4's scaled score on token 3",
             lambda w: w.heads[3].scaled[2], partial(scaled_slips, 3, 2)),
    Question("total_4", "The sum of token 4's exponentials",
             lambda w: w.heads[3].total, partial(total_slips, 3)),
    Question("weight_3_4", "Token 3's weight on token 4",
             lambda w: w.heads[2].weights[3], partial(weight_slips, 2, 3)),
    Question("weight_1_2", "Token 1's weight on token 2",
             lambda w: w.heads[0].weights[1], partial(weight_slips, 0, 1)),
    Question("output_3", "Token 3's output, second entry",
             lambda w: w.heads[2].output[1], partial(output_slips, 2, 1)),
)

READINGS = (
    Choice("matrices", "Its query is W_Q times it and its key is W_K times it: two different "
                       "matrices, so a token's query need not point along its own key."),
    Choice("itself", "Self-attention leaves each token out of its own row."),
    Choice("scale", "The scale shrinks a token's score on itself more than the others."),
    Choice("columns", "The weights are shared down each column, so the other tokens take "
                      "token 1's share."),
)


class SelfAttention(Lesson):
    """Every token asks: one row of weights, worked as a head, for each token's query."""

    def compute_heads(self, fixture: Fixture,
                      scale: float | None = None) -> tuple[HeadTrace, ...]:
        """Project every token, then run each token's query against every token's key."""
        return every_row(*projections(fixture), scale)

    def intermediates(self, fixture: Fixture) -> Mapping[str, Vector | Matrix]:
        """Every token's query, key and value, as the three matrices make them."""
        queries, keys, values = projections(fixture)
        return {"queries": queries, "keys": keys, "values": values}

    def describe(self, worked: Worked, index: int) -> tuple[str, str]:
        """Say which token asks and what it asks with: the intro and the summary's lead."""
        head, x = worked.heads[index], worked.fixture.matrix("tokens")[index]
        return (f"{token(index).capitalize()} is {vector(x)}. Its query is W_Q times it, "
                f"{vector(head.query)}, and it asks every token's key, W_K times the token.",
                f"{token(index).capitalize()} asks all {len(head.keys)} tokens, itself among "
                "them.")

    def step_rows(self, worked: Worked, index: int) -> tuple[Step, ...]:
        """Row `index` from its token to its output: the projections first, then the head."""
        head, x = worked.heads[index], worked.fixture.matrix("tokens")[index]
        return (
            Step(f"{token(index)}", listing(x, exact)),
            Step("its query, W_Q times it", listing(head.query, exact)),
            Step("every token's key, W_K times it",
                 "; ".join(listing(k, exact) for k in head.keys)),
            Step("every token's value, W_V times it",
                 "; ".join(listing(v, exact) for v in head.values)),
            Step("scores, its query times each key", listing(head.scores, exact)),
            Step(scale_label(head), listing(head.scaled, exact)),
            Step("exponentials", listing(head.exps)),
            Step("their sum", decimals(head.total)),
            Step("weights", listing(head.weights)),
            Step("output, weights against values", listing(head.output)),
        )

    def figure(self, worked: Worked) -> Figure:
        """The tokens where they are; each row's lines run from its token to every token."""
        tokens = tuple((x[0], x[1]) for x in worked.fixture.matrix("tokens"))
        rows = worked.heads  # each row's head has its own query, and every token's keys and values
        queries, keys, values = tuple(h.query for h in rows), rows[0].keys, rows[0].values
        projected = tuple(
            PlaneMark(f"{kind[0]}_{i + 1}", f"{kind[0]}{i + 1}", f"token {i + 1}'s {kind}",
                      (at[0], at[1]))
            for kind, made in (("query", queries), ("key", keys), ("value", values))
            for i, at in enumerate(made))
        return Figure(
            starts=tokens, ends=tokens, lines="from the token that asks to every token but itself",
            notes={f"token_{i + 1}": f"query {vector(q)}, key {vector(k)}, value {vector(v)}"
                   for i, (q, k, v) in enumerate(zip(queries, keys, values, strict=True))},
            spaces=(Space("projected", "the queries (q), keys (k) and values (v): W_Q, W_K and "
                          "W_V times each token", PROJECTED_EDGE, projected),))

    def still(self) -> str:
        """The three matrices stay the fixture's."""
        return "The matrices W_Q, W_K and W_V stay the fixture's."

    def presets(self) -> tuple[()]:
        """No presets: four tokens move at once, and the heatmap says where the weight went."""
        return ()

    def plane_marks(self, worked: Worked) -> tuple[()]:
        """No marks: the outputs are in the values' space, not the tokens'."""
        return ()

    def fitting_prediction(self, worked: Worked) -> str | None:
        """Return which token takes token 3's largest weight, all about equally, or none."""
        weights = worked.heads[ASKING].weights
        if max(weights) - min(weights) <= EVEN_WITHIN:
            return "even"
        top = on_top(weights)
        return f"token_{top[0]}" if len(top) == 1 else None

    def shown(self, worked: Worked) -> str:
        """Say which token takes token 3's largest weight."""
        largest = self.largest(worked.heads[ASKING])  # "The largest weight is ..."
        return f"In {token(ASKING)}'s row, {largest[0].lower()}{largest[1:]}"

    def reading_feedback(self, reading: str, worked: Worked) -> str:
        """Return why a reading is right or, for a wrong one, what the numbers say instead."""
        first, second = worked.heads[0], worked.heads[1]
        own = (f"token 1's score on itself is {exact(first.scores[0])} and on token 2 "
               f"{exact(first.scores[1])}")
        if reading == "matrices":
            return (f"Right. Token 1's query is {vector(first.query)} and its key is "
                    f"{vector(first.keys[0])}: W_Q and W_K turn the same token different ways, "
                    f"so {own}, and token 2 takes {decimals(first.weights[1])} of its weight.")
        if reading == "itself":
            return (f"Every token is in its own row: token 1 gives itself "
                    f"{decimals(first.weights[0])}, and token 2 gives itself "
                    f"{decimals(second.weights[1])}, the most of its row.")
        if reading == "scale":
            return (f"The scale divides every score in the row alike, by the square root of "
                    f"{len(first.query)}: {own} before it and after it.")
        return (f"Each row is a softmax of its own: token 1's weights add up to "
                f"{decimals(math.fsum(first.weights))}, whatever the other rows do.")

    def hint_question(self, worked: Worked) -> str:
        """Ask for token 3's query and its scores."""
        head, x = worked.heads[ASKING], worked.fixture.matrix("tokens")[ASKING]
        keys = ", ".join(vector(k) for k in head.keys)
        return (f"Token 3 is {vector(x)}, so its query is W_Q times it, {vector(head.query)}. "
                f"The keys are {keys}. What is the query times each key, and what does "
                f"multiplying each by 1 over the square root of {len(head.query)} give?")

    def hint_answer(self, worked: Worked) -> str:
        """Close with token 3's sum of exponentials."""
        head = worked.heads[ASKING]
        return (f"Token 3's exponentials add up to {decimals(head.total)}, and each weight in "
                "its row is one exponential divided by that sum.")


LESSON = SelfAttention(
    slug="8-4",
    code="8.4",
    title="Self-attention: every token asks",
    crumbs="Learn machine learning · lesson 8.4",
    lede=("In self-attention every token is a query, a key and a value at once. Three matrices "
          "turn each token into all three, and every token asks every token, itself too. Work "
          "the projections and the rows of weights on four tokens, and every number you write "
          "is checked against the one computed here."),
    meta=("Lesson 8.4", "Computation", "About 40 minutes", "Your check: compute it yourself"),
    about=("This builds on 8.2 Attention by hand. The gate is five of six numbers within 0.02 "
           "and the right reading of why token 1 gives itself so little weight."),
    question=(
        "Four tokens, each two numbers. W_Q times a token is its query, W_K times it its key, "
        "and W_V times it its value: each entry is a row of the matrix times the token. Each "
        "token's query is scored against every token's key, scaled by one over the square root "
        "of 2 and put through a softmax: one row of weights for each token that asks, a 4 by 4 "
        "matrix in all. Each row averages the values.",
        "Commit before you compute. Token 3 asks all four tokens, itself among them.",
    ),
    predict="Which token will take the largest weight in token 3's row?",
    predictions=(*(Choice(f"token_{k}", f"Token {k}.") for k in range(1, TOKENS + 1)),
                 Choice("even", "All four about equally, within 0.05 of each other.")),
    try_title="The fixture: four tokens and three matrices",
    try_intro=("Each panel is one token asking: its query, every token's key and value, and its "
               "row of weights. Each step below is computed from the one before it."),
    heads=tuple(HeadSpec(f"row_{k}", f"token {k}'s row", f"token {k} asks, dimension 2",
                         "The scale is one over the square root of 2, the dimension of the "
                         "queries and keys.",
                         f"token {k}'s row of weights, computed live in this browser.")
                for k in range(1, TOKENS + 1)),
    questions=QUESTIONS,
    reading_question="Why does token 1 give itself so little of its weight?",
    readings=READINGS,
    correct_reading="matrices",
    gate_reading="why token 1 gives itself so little weight",
    takeaway=("Self-attention projects every token to a query, a key and a value with three "
              "matrices, and every token's query asks every key: a row of weights for each "
              "token, each row a softmax of its own."),
    fixture="attention-8.4.json",
    inputs=INPUTS,
    words=WORDS,
    minutes=40,
    heatmap=True,
    prerequisite="8-2",
)

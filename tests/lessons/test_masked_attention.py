"""Every number lesson 8.3 shows, as the package prints it and as numpy computes it, and the
causal mask's properties on any vectors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_lessons import (
    LESSONS,
    Progress,
    attend,
    explore_view,
    fixed_view,
    grade,
    lock_prediction,
    lock_reading,
    open_hint,
    progress_view,
    truth,
    work,
)
from attention_lessons.engine import Explore, Fixture, decimals
from attention_lessons.lessons.masked_attention import POSITION, masked_head
from attention_lessons.progress import check
from explored import HALF_LAST_DIGIT, explored, moves, row, vectors
from oracles import LessonOracle, own_fixture, rows
from strategies import Array, assert_close, assert_head, fixtures, numpy_attention

LESSON = LESSONS["8-3"]
FIXTURE = own_fixture(LESSON)
L83 = work(LESSON, FIXTURE)
HEAD = L83.heads[0]
VIEW = fixed_view(L83).heads[0]
Q = {q.id: q for q in LESSON.questions}
RIGHT = {"scaled_2": "-0.7071", "total": "4.6063", "weight_1": "0.8930", "weight_3": "0",
         "output_1": "0.8930", "output_2": "0.2141"}


def numpy_masked(query: Any, keys: Any, values: Any, position: int,
                 fill: float = -np.inf) -> dict[str, Array]:
    """The oracle: scale, then every key after the position gets `fill`, then the softmax."""
    q, k, v = (np.asarray(x, dtype=np.float64) for x in (query, keys, values))
    scaled = (k @ q) / np.sqrt(q.shape[0])
    masked = np.where(np.arange(len(k)) < position, scaled, fill)
    exps = np.exp(masked)
    weights = np.exp(masked - masked.max())
    weights = weights / weights.sum()
    return {"scaled": scaled, "masked": masked, "exps": exps, "weights": weights,
            "output": weights @ v}


def oracle(fixture: Fixture) -> LessonOracle:
    """8.3 by numpy: the query at POSITION sees only the keys up to it, and 8.2's unmasked head
    is set beside it; the plane marks both outputs."""
    head = numpy_masked(fixture.query, fixture.keys, fixture.values, POSITION)
    unmasked = numpy_attention(fixture.query, fixture.keys, fixture.values)["output"]
    return LessonOracle(weights=(rows(head["weights"]),), outputs=(rows(head["output"]),),
                        reference=unmasked,
                        marks={"output_masked": tuple(head["output"]),
                               "reference": tuple(unmasked)},
                        values=np.asarray(fixture.values, dtype=np.float64))


ORACLE = numpy_masked(FIXTURE.query, FIXTURE.keys, FIXTURE.values, POSITION)
UNMASKED = numpy_attention(FIXTURE.query, FIXTURE.keys, FIXTURE.values)
ZEROED = numpy_masked(FIXTURE.query, FIXTURE.keys, FIXTURE.values, POSITION, fill=0.0)


def test_the_masked_head_matches_numpy_to_full_precision() -> None:
    assert_head(HEAD, {**ORACLE, "scores": UNMASKED["scores"]})  # the mask comes after the scores
    # Masked means exactly nothing, not a small number.
    assert HEAD.exps[POSITION:] == HEAD.weights[POSITION:] == (0.0, 0.0)


def test_the_reference_is_8_2s_unmasked_head() -> None:
    assert L83.single is not None
    assert_close(L83.single.weights, UNMASKED["weights"])
    assert_close(L83.single.output, UNMASKED["output"])
    assert L83.single == work(LESSONS["8-2"], FIXTURE).heads[0]


def test_the_step_table_shows_the_mask_between_the_scale_and_the_softmax() -> None:
    assert [(s.label, s.value) for s in VIEW.steps] == [
        ("scores, query times key", "2, -1, 1, -3"),
        ("scaled by 1 over the square root of 2", "1.4142, -0.7071, 0.7071, -2.1213"),
        ("masked, keys after position 2", "1.4142, -0.7071, -∞, -∞"),
        ("exponentials", "4.1133, 0.4931, 0, 0"),
        ("their sum", "4.6063"),
        ("weights", "0.8930, 0.1070, 0, 0"),
        ("output, weights against values", "0.8930, 0.2141"),
    ]
    printed = [s.value for s in VIEW.steps]
    assert printed[4] == decimals(float(ORACLE["exps"].sum()))
    assert printed[5].split(", ")[:POSITION] == [decimals(w) for w in ORACLE["weights"][:POSITION]]
    assert printed[6] == ", ".join(decimals(x) for x in ORACLE["output"])


def test_scale_bars_summary_and_key_table() -> None:
    assert VIEW.scale == f"scale 1 / sqrt(2) = {decimals(1 / np.sqrt(2))}"
    assert [(b.key, b.weight) for b in VIEW.bars] == [
        ("key 1", "0.8930"), ("key 2", "0.1070"), ("key 3", "0.0000"), ("key 4", "0.0000")]
    assert_close([b.share for b in VIEW.bars], ORACLE["weights"])
    assert VIEW.intro == ("Query [2, -1] at position 2, keys [1, 0], [0, 1], [1, 1], [-1, 1], "
                          "values [1, 0], [0, 2], [2, 2], [-2, 1].")
    assert VIEW.summary == ("The query at position 2 sees keys 1 and 2; keys 3 and 4 come after "
                            "it and are masked. The largest weight is 0.8930 on key 1. The output "
                            "is 0.8930, 0.2141.")
    assert [(r.key, r.score, r.weight) for r in VIEW.keys] == [
        ("1", "2", "0.8930"), ("2", "-1", "0.1070"), ("3", "1", "0.0000"), ("4", "-3", "0.0000")]


def test_the_six_truths_are_the_numpy_numbers_and_the_masked_weight_is_exactly_0() -> None:
    expected = [ORACLE["scaled"][1], ORACLE["exps"].sum(), ORACLE["weights"][0],
                ORACLE["weights"][2], ORACLE["output"][0], ORACLE["output"][1]]
    assert_close([truth(q, L83) for q in LESSON.questions], expected)
    assert truth(Q["weight_3"], L83) == 0.0
    assert [grade(Q[qid], float(typed), L83).correct for qid, typed in RIGHT.items()] == [True] * 6


def _says(qid: str, typed: float) -> str:
    return grade(Q[qid], typed, L83).message


def test_the_unmasked_weight_and_masking_after_the_softmax_are_named() -> None:
    unmasked = _says("weight_1", float(UNMASKED["weights"][0]))
    assert unmasked.startswith("Not within 0.02. That is the weight on key 1 in 8.2, with no mask.")
    assert "Striking keys 3 and 4 out after the softmax leaves it there too" in unmasked
    assert "key 3 in 8.2" in _says("weight_3", float(UNMASKED["weights"][2]))
    # Striking keys out after the softmax, without dividing again: weights that sum to under 1.
    struck = np.where(np.arange(4) < POSITION, UNMASKED["weights"], 0.0)
    after = struck @ np.asarray(FIXTURE.values)
    for qid, entry in (("output_1", 0), ("output_2", 1)):
        assert "struck out after the softmax" in _says(qid, float(after[entry]))
        assert "8.2's output, with no mask" in _says(qid, float(UNMASKED["output"][entry]))


def test_a_mask_of_0_instead_of_minus_infinity_is_named() -> None:
    # On key 1 the two slips land within 0.02 of each other (0.6226 and 0.6090): 8.2's is named.
    assert abs(ZEROED["weights"][0] - UNMASKED["weights"][0]) <= 0.02
    assert "key 1 in 8.2" in _says("weight_1", float(ZEROED["weights"][0]))
    assert "set to 0, not to minus infinity" in _says("weight_3", float(ZEROED["weights"][2]))
    assert "set to 0, not to minus infinity" in _says("output_2", float(ZEROED["output"][1]))
    assert "e raised to 0 is 1" in _says("total", float(ZEROED["exps"].sum()))
    assert "8.2's sum" in _says("total", float(np.exp(UNMASKED["scaled"]).sum()))
    assert "before the scale" in _says("scaled_2", float(UNMASKED["scores"][1]))


def test_compare_says_key_1s_weight_rises_from_the_numbers() -> None:
    before, after = decimals(float(UNMASKED["weights"][0])), decimals(float(ORACLE["weights"][0]))
    assert LESSON.fitting_prediction(L83) == "rises"
    shown = f"Key 1's weight is {before} in 8.2 and {after} with the mask."
    for choice in LESSON.predictions:
        said = progress_view(lock_prediction(Progress(), LESSON, choice.id), L83).compare
        assert said.startswith(f"You predicted: {choice.label} {shown}")
        assert said.endswith("The numbers bear your prediction out." if choice.id == "rises"
                             else "So the numbers say: It rises: keys 1 and 2 share what keys 3 "
                                  "and 4 gave up.")
    table = fixed_view(L83).comparison
    assert table is not None
    assert table.differences == tuple(
        decimals(float(d)) for d in ORACLE["output"] - UNMASKED["output"])


def test_the_readings_feedback_comes_from_the_numbers() -> None:
    def feedback(reading: str) -> str:
        return progress_view(lock_reading(Progress(), reading, LESSON), L83).reading.feedback

    assert feedback("no_weight").startswith("Right. e raised to minus infinity is exactly 0")
    with_zero = (f"key 3 would take {decimals(float(ZEROED['weights'][2]))} and key 1 only "
                 f"{decimals(float(ZEROED['weights'][0]))}, not "
                 f"{decimals(float(ORACLE['weights'][0]))}")
    assert with_zero in feedback("zero_hides")
    assert with_zero in feedback("sum")
    assert "out of the softmax altogether" in feedback("scale")


def test_the_hints_and_the_gate() -> None:
    hints = progress_view(open_hint(Progress(runs=5), LESSON, 2), L83).hints
    assert hints[0].text.startswith("Keys 1 and 2 scale to 1.4142 and -0.7071, and keys 3 and 4 "
                                    "are masked to minus infinity.")
    assert hints[1].text.startswith("The scaled score for key 2: -0.7071. The sum of the "
                                    "exponentials: 4.6063.")
    assert "The weight on key 3, which is masked: 0." in hints[1].text
    five = check(Progress(), {**RIGHT, "output_2": "9"}, L83)
    assert progress_view(lock_reading(five, "no_weight", LESSON), L83).gate.met
    assert not progress_view(lock_reading(five, "zero_hides", LESSON), L83).gate.met
    four = check(five, {"weight_3": "0.3003"}, L83)  # 8.2's weight on key 3: a slip
    assert not progress_view(lock_reading(four, "no_weight", LESSON), L83).gate.met


@given(fixtures(), st.integers(0, 12))
def test_a_masked_head_is_the_numpy_oracle_and_masked_keys_get_exactly_nothing(
    vectors: tuple[list[float], list[list[float]], list[list[float]]], position: int
) -> None:
    query, keys, values = vectors
    position = max(1, min(position, len(keys)))  # the query always sees at least its own key
    head = masked_head(query, keys, values, position)
    oracle = numpy_masked(query, keys, values, position)
    assert_allclose_weights(head.weights, oracle["weights"])
    assert head.weights[position:] == (0.0,) * (len(keys) - position)
    assert abs(sum(head.weights) - 1) < 1e-9
    # Masking before the softmax is the unmasked weights of the seen keys, divided again.
    seen = attend(query, keys[:position], values[:position]).weights
    assert_allclose_weights(head.weights[:position], seen)


@given(fixtures())
def test_a_mask_that_hides_nothing_is_the_plain_head(
    vectors: tuple[list[float], list[list[float]], list[list[float]]],
) -> None:
    query, keys, values = vectors
    plain, masked = attend(query, keys, values), masked_head(query, keys, values, len(keys))
    assert masked.weights == plain.weights
    assert masked.output == pytest.approx(plain.output, abs=1e-12)


def assert_allclose_weights(actual: Any, desired: Any) -> None:
    np.testing.assert_allclose(np.asarray(actual), np.asarray(desired), rtol=1e-9, atol=1e-12)


def test_a_masked_key_draws_no_line_on_the_plane_and_the_readout_says_it_gets_nothing() -> None:
    view = explore_view(LESSON, FIXTURE, Explore())
    widths = [line.width for line in view.plane.lines]
    assert widths[2:] == [0.0, 0.0]
    assert all(w > 0 for w in widths[:2])
    (weights,) = oracle(FIXTURE).weights
    assert view.readout.weights == (tuple(f"{w:.4f}" for w in weights.ravel()),)
    assert view.readout.weights[0][2:] == ("0.0000", "0.0000")
    assert view.readout.note == ("Keys 3 and 4 come after the query: the mask gives them weight "
                                 "0, wherever they are.")


# Explore: the explored masked head against numpy.
@given(moves(FIXTURE))
def test_the_explored_masked_head_weighs_only_the_first_two_keys(
        moved: list[tuple[str, float, float]]) -> None:
    explore = explored(FIXTURE, moved)
    q, k, v = vectors(FIXTURE, explore)
    (head,) = explore_view(LESSON, FIXTURE, explore).heads
    seen = numpy_attention(q, k[:2], v[:2])
    weights = np.concatenate([seen["weights"], [0.0, 0.0]])
    np.testing.assert_allclose(row(head, "weights"), weights, atol=HALF_LAST_DIGIT)
    np.testing.assert_allclose(row(head, "output, weights against values"), seen["output"],
                               atol=HALF_LAST_DIGIT)


def test_a_masked_keys_weight_names_no_exponential_which_is_its_truth() -> None:
    masked = L83
    weight = next(q for q in masked.lesson.questions if q.id == "weight_3")
    assert all(slip.value != 0.0 for slip in weight.slips(masked))
    assert grade(weight, 0.0, masked).correct

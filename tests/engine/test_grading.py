"""Grading: the tolerance edges, the six truths, the known slips, hints, the gate, predictions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_lessons import TOLERANCE, compute, grade, parse_fixture, truth
from attention_lessons.engine import Question, gate_met, hints_available, within
from attention_lessons.lessons.two_heads import fitting_gap
from strategies import D8, QUESTIONS, READINGS

Q = {q.id: q for q in QUESTIONS}
TRUTHS = [truth(q, D8) for q in QUESTIONS]
WRONG = "Not within 0.02. Work it again from the step table."


def test_tolerance_is_the_spec_0_02() -> None:
    assert TOLERANCE == 0.02


@pytest.mark.parametrize("q", QUESTIONS, ids=[q.id for q in QUESTIONS])
def test_exactly_0_02_away_is_accepted_and_0_0201_is_not(q: Question) -> None:
    t = truth(q, D8)
    for answer in (t + 0.02, t - 0.02):
        assert within(answer, t)
        assert grade(q, answer, D8).correct
    for answer in (t + 0.0201, t - 0.0201):
        assert not within(answer, t)
        assert not grade(q, answer, D8).correct


@settings(max_examples=200)
@given(st.floats(-10, 10), st.floats(-0.02, 0.02))
def test_anything_up_to_0_02_away_is_within(target: float, offset: float) -> None:
    assert within(target + offset, target)


@settings(max_examples=200)
@given(st.floats(-10, 10), st.floats(0.0201, 100), st.booleans())
def test_anything_0_0201_or_more_away_is_not(target: float, gap: float, below: bool) -> None:
    assert not within(target - gap if below else target + gap, target)


@pytest.mark.parametrize(("qid", "message"), [
    ("a_score_1", "Within 0.02 of 2, computed here."),
    ("a_weight_1", "Within 0.02 of 0.4643, computed here."),
    ("a_output", "Within 0.02 of 1.3760, computed here."),
    ("b_score_2", "Within 0.02 of -1, computed here."),
    ("b_weight_1", "Within 0.02 of 0.4754, computed here."),
    ("b_output", "Within 0.02 of 0.8744, computed here."),
])
def test_every_question_is_correct_at_its_truth(qid: str, message: str) -> None:
    verdict = grade(Q[qid], truth(Q[qid], D8), D8)
    assert verdict.correct
    assert verdict.message == message


@pytest.mark.parametrize(("qid", "answer", "says"), [
    ("a_output", 1.1740, "That is the single head's output from 8.2. This head sees only its own "
                         "coordinate, so its weights are different."),
    ("a_output", 0.8744, "That is head B's output."),
    ("a_output", 0.25, "That is the plain average of the values."),
    ("b_output", 0.7643, "That is the single head's output from 8.2."),
    ("b_output", 1.3760, "That is head A's output."),
    ("b_output", 1.25, "That is the plain average of the values."),
    ("a_score_1", 0.4643, "That is the weight on key 1, not its score."),
    ("a_score_1", 7.3891, "That is e raised to key 1's score."),
    ("a_score_1", 1.4142, "That is the single head's score, scaled by 1 over the square root "
                          "of 2. This head has dimension 1, so its scale is 1."),
    # Key 1's coordinate and value are both 1: the coordinate, listed first, is named.
    ("a_score_1", 1.0, "That is key 1's own coordinate, not its score."),
    ("b_score_2", 0.1749, "That is the weight on key 2, not its score."),
    ("b_score_2", 0.3679, "That is e raised to key 2's score."),
    ("b_score_2", -0.7071, "That is the single head's score"),
    ("b_score_2", 1.0, "That is key 2's own coordinate, not its score. Multiply it by the query."),
    ("b_score_2", 2.0, "That is key 2's value. The score uses the key, not the value."),
    ("a_weight_1", 2.0, "That is key 1's score, not its weight."),
    ("a_weight_1", 7.3891, "That is key 1's exponential. Divide it by the sum"),
    ("a_weight_1", 0.6090, "That is the single head's weight on key 1."),
    ("a_weight_1", 0.25, "That is one over the number of keys"),
    ("b_weight_1", 0.0, "That is key 1's score, not its weight."),
    ("b_weight_1", 1.0, "That is key 1's exponential."),
    ("b_weight_1", 0.6090, "That is the single head's weight on key 1."),
])
def test_a_known_slip_is_named(qid: str, answer: float, says: str) -> None:
    verdict = grade(Q[qid], answer, D8)
    assert not verdict.correct
    assert verdict.message.startswith(f"Not within 0.02. {says}")


@pytest.mark.parametrize(("qid", "answer"), [
    ("a_output", 42.0), ("a_output", 1.0), ("b_output", -0.8744), ("a_score_1", -2.0),
    ("b_score_2", 0.0), ("a_weight_1", 0.9), ("b_weight_1", 0.1749),
])
def test_an_unrecognised_wrong_answer_gets_the_generic_message(qid: str, answer: float) -> None:
    assert grade(Q[qid], answer, D8).message == WRONG


def test_a_slip_that_lands_within_tolerance_of_the_truth_is_never_named() -> None:
    # With a zero query both heads average their values, so head B's output sits 0.015 from
    # head A's. 1.03 is near head B's output, but calling it "head B's output" would be false
    # comfort: head B's output itself would be graded correct.
    numbers = compute(parse_fixture(
        '{"query": [0, 0], "keys": [[1, 0], [0, 1]], "values": [[1, 1.015], [1, 1.015]]}'))
    verdict = grade(Q["a_output"], 1.03, numbers)
    assert verdict.message == WRONG
    assert grade(Q["a_output"], 1.015, numbers).correct


@settings(max_examples=100)
@given(st.sampled_from(QUESTIONS), st.floats(-0.02, 0.02))
def test_within_tolerance_of_a_truth_is_always_correct(q: Question, offset: float) -> None:
    verdict = grade(q, truth(q, D8) + offset, D8)
    assert verdict.correct
    assert verdict.message.startswith("Within 0.02 of ")


@settings(max_examples=100)
@given(st.sampled_from(QUESTIONS), st.floats(0.0201, 50), st.booleans())
def test_outside_tolerance_is_never_correct(q: Question, gap: float, below: bool) -> None:
    t = truth(q, D8)
    verdict = grade(q, t - gap if below else t + gap, D8)
    assert not verdict.correct
    assert verdict.message.startswith("Not within 0.02. ")


def test_the_d8_differences_bear_out_clearly_different() -> None:
    assert D8.differences is not None
    assert fitting_gap(D8.differences) == "different"


@pytest.mark.parametrize(("differences", "fits"), [
    ((0.0, 0.0), "same"),
    ((0.00004, -0.00004), "same"),
    ((0.00005, 0.0), "close"),
    ((0.01, -0.01), "close"),
    ((0.005, 0.0), "close"),
    ((0.2, -0.15), "different"),
    ((0.1001, 0.5), "different"),
    ((0.2, 0.05), None),
    ((0.0101, 0.0), None),
    ((0.1, 0.2), None),
])
def test_fitting_prediction_unit_cases(differences: tuple[float, float], fits: str | None) -> None:
    assert fitting_gap(differences) == fits


@pytest.mark.parametrize(("runs", "rungs"), [(0, 0), (1, 0), (2, 0), (3, 1), (4, 1), (5, 2),
                                             (6, 2), (1000, 2)])
def test_hints_open_at_three_and_five_runs(runs: int, rungs: int) -> None:
    assert hints_available(runs, D8.lesson) == rungs


@pytest.mark.parametrize(("correct", "reading", "met"), [
    (5, "own_scores", True), (6, "own_scores", True), (4, "own_scores", False),
    (6, "scale", False), (6, "rounding", False), (6, None, False), (0, "own_scores", False),
])
def test_gate_needs_five_numbers_and_the_right_reading(correct: int, reading: str | None,
                                                       met: bool) -> None:
    assert gate_met(correct, reading, D8.lesson) is met


def test_reading_feedback_says_why() -> None:
    feedback = {r: D8.lesson.reading_feedback(r, D8) for r in READINGS}
    assert feedback["own_scores"].startswith("Right. Each head's softmax sees only its own")
    assert "1 over the square root of 2" in feedback["scale"]
    # The rounding reading is answered with the computed gap, not a constant.
    assert "as large as 0.2019" in feedback["rounding"]
    assert "0.00005" in feedback["rounding"]
    assert feedback["broken"].startswith("Both runs are computed here from the same fixture")
    assert all(not f.startswith("Right.") for r, f in feedback.items() if r != "own_scores")

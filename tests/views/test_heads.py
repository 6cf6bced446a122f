"""The view models: fields, compare, hints, gate, projection and what a Check announces."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from attention_lessons import (
    Progress,
    attend,
    compute,
    lock_prediction,
    lock_reading,
    open_hint,
    parse_fixture,
    progress_view,
    set_projection,
)
from attention_lessons.engine import decimals, exact, largest, listing
from attention_lessons.progress import check, gate
from course_work import announced
from strategies import D8, QIDS

RIGHT = {"a_score_1": "2", "a_weight_1": "0.4643", "a_output": "1.376", "b_score_2": "-1",
         "b_weight_1": "0.4754", "b_output": "0.8744"}
# A zero query weighs every key alike in every head, so the heads equal the single head.
EVEN = compute(parse_fixture('{"query": [0, 0], "keys": [[1, 0], [0, 1], [1, 1], [-1, 1]], '
                             '"values": [[1, 2], [3, 4], [5, 6], [7, 8]]}'))


def fields(progress: Progress) -> dict[str, tuple[str, str, str, str, str]]:
    """Return each question's (typed, attempts, echo, feedback, state) as the page shows them."""
    return {q.id: (q.typed, q.attempts, q.echo, q.feedback, q.state)
            for q in progress_view(progress, D8).questions}


def test_fields_before_any_check_are_blank() -> None:
    assert fields(Progress()) == dict.fromkeys(QIDS, ("", "Attempts: 0", "", "", ""))


def test_a_right_answer_echoes_how_it_was_read() -> None:
    shown = fields(check(Progress(), {"a_output": " 1,376 "}, D8))["a_output"]
    assert shown == (" 1,376 ", "Attempts: 0", "", shown[3], "invalid")
    assert shown[3].startswith("\u201c1,376\u201d could mean 1.376 or 1376")
    shown = fields(check(Progress(), {"a_output": "1,37"}, D8))["a_output"]
    assert shown == ("1,37", "Attempts: 1", "read as 1.37", "Within 0.02 of 1.3760, computed here.",
                     "correct")


def test_a_wrong_answer_names_its_slip_and_counts_attempts() -> None:
    progress = check(check(Progress(), {"a_output": "1.1740"}, D8), {"a_output": "1.174"}, D8)
    typed, attempts, echo, feedback, state = fields(progress)["a_output"]
    assert (typed, attempts, echo, state) == ("1.174", "Attempts: 1", "read as 1.174", "wrong")
    assert feedback == ("Not within 0.02. That is the single head's output from 8.2. This head "
                        "sees only its own coordinate, so its weights are different.")


def test_an_unreadable_answer_says_why_and_costs_nothing() -> None:
    shown = fields(check(Progress(), {"b_weight_1": "abc"}, D8))
    assert shown["b_weight_1"] == (
        "abc", "Attempts: 0", "", "\u201cabc\u201d is not a number. Type digits, such as 0.46 or "
        "7/8.", "invalid")
    # Check reads every field; one left blank is told what to do.
    assert shown["a_output"] == ("", "Attempts: 0", "", "Type a number first.", "invalid")


def test_all_six_right_is_six_correct_fields() -> None:
    shown = fields(check(Progress(), RIGHT, D8))
    assert [s[4] for s in shown.values()] == ["correct"] * 6
    assert shown["b_score_2"][3] == "Within 0.02 of -1, computed here."


def test_compare_is_empty_until_a_prediction_is_locked() -> None:
    assert progress_view(Progress(), D8).compare == ""


def test_compare_for_a_right_prediction() -> None:
    view = progress_view(lock_prediction(Progress(), D8.lesson, "different"), D8)
    assert view.compare == ("You predicted: Clearly different, by more than 0.1. The two heads "
                            "and the single head differ by 0.2019 and 0.1101. The numbers bear "
                            "your prediction out.")


@pytest.mark.parametrize("choice", ["same", "close"])
def test_compare_for_a_wrong_prediction_says_what_the_numbers_say(choice: str) -> None:
    compare = progress_view(lock_prediction(Progress(), D8.lesson, choice), D8).compare
    assert compare.endswith("differ by 0.2019 and 0.1101. So the numbers say: Clearly "
                            "different, by more than 0.1.")
    assert "bear your prediction out" not in compare


def test_compare_is_derived_from_the_numbers_not_hard_coded() -> None:
    assert EVEN.differences == (0.0, 0.0)
    same = progress_view(lock_prediction(Progress(), D8.lesson, "same"), EVEN).compare
    assert same.endswith("differ by 0.0000 and 0.0000. The numbers bear your prediction out.")
    different = progress_view(lock_prediction(Progress(), D8.lesson, "different"), EVEN).compare
    assert different.endswith("So the numbers say: The same two numbers.")


def test_the_page_builds_for_any_two_dimensional_fixture() -> None:
    two_keys = compute(parse_fixture('{"query": [1, 1], "keys": [[1, 0], [0, 1]], '
                                     '"values": [[1, 2], [3, 4]]}'))
    view = progress_view(open_hint(Progress(runs=3), D8.lesson, 1), two_keys)
    assert view.gate.status.startswith("0 of 6")
    assert view.hints[0].text.startswith(
        "In head A, key 1 scores 1 and key 2 scores 0. In the single head they score 1 and 1.")


def test_hint_texts_appear_only_once_available_and_opened() -> None:
    available = progress_view(Progress(runs=3), D8).hints
    assert [(h.available, h.opened, h.text) for h in available] == [(True, False, ""),
                                                                     (False, False, "")]
    assert [h.status for h in available] == ["A question.",
                                             "The answer: available after 5 evaluated runs."]
    opened = progress_view(open_hint(Progress(runs=3), D8.lesson, 1), D8).hints
    assert opened[0].text == ("In head A, keys 1 and 3 both score 2. In the single head they "
                              "score 2 and 1. Which scores does each softmax divide by, and what "
                              "does that do to the weights?")
    assert opened[1].text == ""
    # A record claiming more rungs than its runs allow shows no more than the runs opened.
    assert progress_view(replace(Progress(runs=3), hints_opened=2), D8).hints[1].text == ""


def test_the_answer_hint_gives_all_six_numbers_and_both_sums() -> None:
    answer = progress_view(open_hint(Progress(runs=5), D8.lesson, 2), D8).hints[1]
    assert (answer.available, answer.opened, answer.status) == (True, True, "The answer.")
    # Scores print as integers, as everywhere else on the page; the rest to four decimals.
    assert answer.text.startswith(
        "Head A, the score for key 1: 2. Head A, the weight on key 1: 0.4643. Head A, the "
        "output: 1.3760. Head B, the score for key 2: -1. Head B, the weight on key 1: 0.4754. "
        "Head B, the output: 0.8744.")
    assert answer.text.endswith("Head A's sum of exponentials is 15.9134, head B's is 2.1036: "
                                "each head normalises over its own scores only.")


def test_gate_view_met_and_not_met() -> None:
    five = check(Progress(), {**RIGHT, "b_output": "2"}, D8)
    gate = progress_view(lock_reading(five, "own_scores", D8.lesson), D8).gate
    assert (gate.met, gate.badge, gate.headline) == (True, "met",
                                                     "Met. You demonstrated it on these numbers.")
    assert gate.status == ("5 of 6 numbers within tolerance, 5 needed. "
                           "The right reading is locked in.")
    wrong = progress_view(lock_reading(check(Progress(), RIGHT, D8), "scale", D8.lesson), D8).gate
    assert (wrong.met, wrong.badge) == (False, "not yet")
    assert wrong.status == ("6 of 6 numbers within tolerance, 5 needed. "
                            "The reading locked in is not the right one yet.")


def test_reading_view() -> None:
    unlocked = progress_view(Progress(), D8).reading
    assert (unlocked.locked, unlocked.state) == (None, "")
    assert unlocked.feedback == "Choose one before locking it in."
    wrong = progress_view(lock_reading(Progress(), "rounding", D8.lesson), D8).reading
    assert (wrong.locked, wrong.correct, wrong.state) == ("rounding", False, "wrong")
    assert "as large as 0.2019" in wrong.feedback
    right = progress_view(lock_reading(Progress(), "own_scores", D8.lesson), D8).reading
    assert (right.locked, right.correct, right.state) == ("own_scores", True, "correct")
    assert right.feedback.startswith("Right.")


def test_check_announcement_counts_the_run() -> None:
    after = check(Progress(), {"a_output": "1.376", "b_output": "3"}, D8)
    assert announced(Progress(), after, D8) == (
        "Checked. 1 of 6 within tolerance. You have run it 1 time.")


def test_check_announcement_says_when_nothing_was_new() -> None:
    once = check(Progress(), {"a_output": "1.376"}, D8)
    assert announced(once, check(once, {"a_output": "1.3760"}, D8), D8) == (
        "Nothing new was graded: these values were checked already, so this did not count as "
        "a run.")


def test_check_announcement_says_when_new_text_could_not_be_read() -> None:
    once = check(Progress(), {"a_output": "1.376"}, D8)
    one = check(once, {"a_output": "abc"}, D8)
    assert announced(once, one, D8) == (
        "Nothing new was graded, so this did not count as a run: 1 answer could not be read, "
        "and the message beside it says why.")
    assert announced(Progress(), check(Progress(), {"b_output": "1/0"}, D8), D8) == (
        "Nothing new was graded, so this did not count as a run: 6 answers could not be read, "
        "and the message beside each says why.")
    assert announced(one, check(one, {"a_output": "abc"}, D8), D8).startswith(
        "Nothing new was graded: these values were checked already")


@pytest.mark.parametrize(("runs", "opens"), [(2, " Hint 1 is now available."),
                                             (4, " Hint 2 is now available."), (3, ""), (5, "")])
def test_check_announcement_names_a_newly_available_hint(runs: int, opens: str) -> None:
    before = replace(Progress(), runs=runs)
    after = check(before, {"b_output": "9"}, D8)
    assert announced(before, after, D8) == (
        f"Checked. 0 of 6 within tolerance. You have run it {runs + 1} times.{opens}")


def test_check_announcement_says_when_the_check_is_met() -> None:
    four = check(Progress(), {**RIGHT, "a_output": "0", "b_output": "0"}, D8)
    before = lock_reading(four, "own_scores", D8.lesson)
    assert not gate(before, D8)
    after = check(before, {"a_output": "1.38"}, D8)
    assert announced(before, after, D8) == (
        "Checked. 5 of 6 within tolerance. You have run it 2 times. Your check is met.")


def test_projection_view_follows_the_learner_matrix() -> None:
    progress = set_projection(set_projection(Progress(), 0, 1, 2.0), 1, 0, -0.5)
    view = progress_view(progress, D8).projection
    assert view is not None
    expected = np.array([[1.0, 2.0], [-0.5, 1.0]]) @ np.array(D8.concatenated)
    assert view.badge == "your matrix"
    assert view.before == ("1.3760", "0.8744")
    assert view.after == tuple(f"{x:.4f}" for x in expected) == ("3.1248", "0.1864")
    assert view.sentence == ("The concatenated heads are 1.3760 and 0.8744. Through this "
                             "projection they come out as 3.1248 and 0.1864.")


def test_runs_text_and_passthrough_fields() -> None:
    progress = lock_prediction(Progress(), D8.lesson, "close", "why not")
    view = progress_view(check(progress, {"a_output": "1"}, D8), D8)
    assert view.runs == "You have run it 1 time."
    assert (view.prediction, view.takeaway) == ("close", None)
    assert view.why == "Your reason then: why not"
    assert view.prediction_message == "Locked in. Reset your progress to change it."
    fresh = progress_view(Progress(), D8)
    assert (fresh.prediction_message, fresh.why) == ("Choose something first.", "")


def test_a_three_way_tie_names_all_three_keys() -> None:
    head = attend([1.0], [[1.0], [1.0], [1.0], [0.0]], [[1.0], [2.0], [3.0], [4.0]])
    assert largest(head.weights) == "The largest weight, 0.2969, is shared by keys 1, 2 and 3."


def test_weights_that_print_alike_are_a_tie_too() -> None:
    head = attend([1.0], [[1.0], [1.0 + 1e-9], [-3.0]], [[1.0], [2.0], [3.0]])
    assert head.weights[1] > head.weights[0]
    assert largest(head.weights).endswith("is shared by keys 1 and 2.")


@pytest.mark.parametrize(("x", "four", "whole"), [
    (-0.00001, "0.0000", "0.0000"), (-0.0, "0.0000", "0"), (2.0, "2.0000", "2"),
    (-1.0, "-1.0000", "-1"), (2.5, "2.5000", "2.5000"), (0.46432780248952427, "0.4643", "0.4643"),
    (1e20, "100000000000000000000.0000", "100000000000000000000.0000"),
])
def test_numbers_print_as_the_page_prints_them(x: float, four: str, whole: str) -> None:
    assert (decimals(x), exact(x)) == (four, whole)


def test_listing_joins_with_commas() -> None:
    assert listing([2.0, -0.0, -2.0], exact) == "2, 0, -2"
    assert listing([1.0, 0.36787944117144233]) == "1.0000, 0.3679"

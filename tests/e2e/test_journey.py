"""The whole D8 journey: predict, compute, check six numbers, hints, reading, compare, takeaway."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from learner import (
    ANSWER_LABELS,
    MIXED_ANSWERS,
    SINGLE_HEAD_OUTPUT,
    WHY_LABEL,
    answer_field,
    check_answers,
    echo,
    gate,
    lock_prediction,
    lock_reading,
    open_d8,
    press_check,
    reload_d8,
    reset_progress,
    row_cells,
    runs,
    save_takeaway,
)

HEAD_A_OUTPUT = "Head A, the output"
WITH_SLIP = {**MIXED_ANSWERS, HEAD_A_OUTPUT: SINGLE_HEAD_OUTPUT}
STEPS_A = "Scores, exponentials and weights for head A"
STEPS_B = "Scores, exponentials and weights for head B"
AGAINST = "The concatenated heads against the single two-dimensional head"


def described(text: str) -> re.Pattern[str]:
    """Match an accessible description that contains text."""
    return re.compile(re.escape(text))


def nothing_opens_before_a_prediction_is_locked(page: Page) -> None:
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_hidden()
    for label in ANSWER_LABELS:
        expect(answer_field(page, label)).to_be_hidden()
    lock = page.get_by_role("button", name="Lock in my prediction")
    expect(lock).to_be_enabled()
    lock.click()
    predict = page.get_by_role("region", name="02 · Predict")
    expect(predict.get_by_text("Choose one of the three predictions first.")).to_be_visible()
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_hidden()
    expect(page.get_by_role("heading", name="04 · Compare")).to_be_hidden()
    expect(answer_field(page, HEAD_A_OUTPUT)).to_be_hidden()


def a_locked_prediction_opens_try_it_with_both_heads_computed_here(page: Page) -> None:
    page.get_by_label(WHY_LABEL).fill("Two softmaxes, not one.")
    lock_prediction(page)
    for choice in ("The same two numbers.", "Within about 0.01 of each other.",
                   "Clearly different, by more than 0.1."):
        expect(page.get_by_role("radio", name=choice)).to_be_disabled()
    expect(page.get_by_role("radio", name="Clearly different, by more than 0.1.")).to_be_checked()
    expect(page.get_by_role("button", name="Prediction locked in")).to_be_disabled()

    for head in ("head A, coordinate 1", "head B, coordinate 2"):
        panel = page.get_by_role("article", name=head)
        expect(panel.get_by_text("computed in this browser", exact=True)).to_be_visible()
        expect(panel.get_by_text("scale 1 / sqrt(1) = 1", exact=True)).to_be_visible()
    expect(row_cells(page, STEPS_A, "weights")).to_have_text(["0.4643, 0.0628, 0.4643, 0.0085"])
    expect(row_cells(page, STEPS_A, "output, weights against values")).to_have_text(["1.3760"])
    expect(row_cells(page, STEPS_B, "output, weights against values")).to_have_text(["0.8744"])
    try_it = page.get_by_role("region", name="03 · Try it")  # Explore has explored copies
    expect(try_it.get_by_text("head A reads coordinate 1 only")).to_contain_text(
        "The output is 1.3760.")
    expect(try_it.get_by_text("head B reads coordinate 2 only")).to_contain_text(
        "The output is 0.8744.")
    expect(row_cells(page, AGAINST, "two heads, concatenated")).to_have_text(["1.3760", "0.8744"])
    expect(row_cells(page, AGAINST, "one head of dimension two, from 8.2")).to_have_text(
        ["1.1740", "0.7643"])
    expect(row_cells(page, AGAINST, "difference")).to_have_text(["0.2019", "0.1101"])


def compare_bears_out_a_right_prediction(page: Page) -> None:
    compare = page.get_by_role("region", name="04 · Compare")
    expect(compare).to_contain_text("You predicted: Clearly different, by more than 0.1.")
    expect(compare).to_contain_text("differ by 0.2019 and 0.1101")
    expect(compare).to_contain_text("The numbers bear your prediction out.")
    expect(compare).to_contain_text("Your reason then: Two softmaxes, not one.")


def six_numbers_in_mixed_forms_are_read_and_graded_and_a_slip_is_named(page: Page) -> None:
    expect(runs(page)).to_have_text("You have run it 0 times.")
    check_answers(page, WITH_SLIP)

    expect(answer_field(page, "Head A, the score for key 1")).to_have_accessible_description(
        described("Within 0.02 of 2, computed here."))
    expect(answer_field(page, "Head A, the weight on key 1")).to_have_accessible_description(
        described("Within 0.02 of 0.4643, computed here."))
    expect(answer_field(page, HEAD_A_OUTPUT)).to_have_accessible_description(described(
        "Not within 0.02. That is the single head's output from 8.2. This head sees only its "
        "own coordinate, so its weights are different."))
    expect(answer_field(page, "Head B, the score for key 2")).to_have_accessible_description(
        described("Within 0.02 of -1, computed here."))
    expect(answer_field(page, "Head B, the output")).to_have_accessible_description(
        described("Within 0.02 of 0.8744, computed here."))
    expect(echo(page, "Head A, the weight on key 1")).to_have_text("read as 0.4643")
    expect(echo(page, "Head B, the score for key 2")).to_have_text("read as -1")
    expect(echo(page, "Head B, the weight on key 1")).to_have_text("read as 0.4754")
    expect(echo(page, "Head B, the output")).to_have_text("read as 0.875")
    for label in ANSWER_LABELS:
        expect(answer_field(page, label)).to_have_accessible_description(
            re.compile(r"Attempts: 1$"))
    expect(answer_field(page, HEAD_A_OUTPUT)).to_have_attribute("aria-invalid", "true")
    expect(answer_field(page, "Head A, the score for key 1")).to_have_attribute(
        "aria-invalid", "false")
    expect(runs(page)).to_have_text("You have run it 1 time.")


def a_wrong_reading_gets_feedback_and_the_right_one_meets_the_gate(page: Page) -> None:
    """From five of six numbers right (the slip above)."""
    panel = gate(page)
    expect(panel).to_have_accessible_name("Your check: an outcome you produce not yet")
    expect(panel).to_contain_text(
        "5 of 6 numbers within tolerance, 5 needed. No reading locked in yet.")

    lock_reading(page, "The difference is rounding.")
    try_it = page.get_by_role("region", name="03 · Try it")
    expect(try_it.get_by_text(re.compile(r"^The gap is as large as 0\.2019.*Rounding cannot "
                                       r"explain it\. See for yourself in Explore: show full "
                                       r"precision\.$"))).to_be_visible()
    expect(panel).to_contain_text("The reading locked in is not the right one yet.")
    expect(panel).to_contain_text("Not met yet.")

    lock_reading(page)
    expect(try_it.get_by_text(re.compile(r"^Right\. Each head's softmax sees only its own"))
           ).to_be_visible()
    expect(panel).to_have_accessible_name("Your check: an outcome you produce met")
    expect(panel).to_contain_text("Met. You demonstrated it on these numbers.")
    expect(panel).to_contain_text(
        "5 of 6 numbers within tolerance, 5 needed. The right reading is locked in.")
    expect(page.get_by_role("button", name="Lock in this reading")).to_be_disabled()

    check_answers(page, {HEAD_A_OUTPUT: "1.376"})
    expect(panel).to_contain_text("6 of 6 numbers within tolerance, 5 needed.")


def test_from_a_locked_prediction_to_six_numbers_graded_and_a_reading_that_meets_the_gate(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    """One visit for five steps in turn, each of which began with the same start of D8."""
    open_d8(page, d8_url)
    nothing_opens_before_a_prediction_is_locked(page)
    a_locked_prediction_opens_try_it_with_both_heads_computed_here(page)
    compare_bears_out_a_right_prediction(page)
    six_numbers_in_mixed_forms_are_read_and_graded_and_a_slip_is_named(page)
    a_wrong_reading_gets_feedback_and_the_right_one_meets_the_gate(page)
    assert console_errors == []


def hints_open_with_evaluated_runs_and_a_recheck_does_not_count(page: Page) -> None:
    lock_prediction(page)
    question = page.get_by_role("button", name="Show the question")
    answer = page.get_by_role("button", name="Show the answer")
    expect(question).to_be_disabled()
    expect(answer).to_be_disabled()

    check_answers(page, WITH_SLIP)
    expect(runs(page)).to_have_text("You have run it 1 time.")
    press_check(page)
    numbers = page.get_by_role("form", name="Six numbers")
    expect(numbers.get_by_text(re.compile("^Nothing new was graded"))).to_be_visible()
    # The same value typed another way is the same answer, so it is not a new attempt either.
    check_answers(page, {"Head A, the weight on key 1": "0.4643"})
    expect(numbers.get_by_text(re.compile("^Nothing new was graded"))).to_be_visible()
    expect(runs(page)).to_have_text("You have run it 1 time.")
    expect(answer_field(page, "Head A, the weight on key 1")).to_have_accessible_description(
        re.compile(r"Attempts: 1$"))

    check_answers(page, {HEAD_A_OUTPUT: "1.376"})
    expect(runs(page)).to_have_text("You have run it 2 times.")
    expect(answer_field(page, HEAD_A_OUTPUT)).to_have_accessible_description(
        re.compile(r"Within 0\.02 of 1\.3760, computed here\. Attempts: 2$"))
    expect(question).to_be_disabled()
    check_answers(page, {"Head B, the output": "0.87"})
    expect(runs(page)).to_have_text("You have run it 3 times.")
    expect(question).to_be_enabled()
    expect(answer).to_be_disabled()
    question.click()
    hints = page.get_by_role("region", name="Ask for a hint")
    expect(hints.get_by_text(re.compile(
        r"^In head A, keys 1 and 3 both score 2\. .*Which scores does each softmax divide by"
    ))).to_be_visible()
    expect(question).to_be_disabled()

    check_answers(page, {"Head B, the output": "0.8744"})
    expect(runs(page)).to_have_text("You have run it 4 times.")
    expect(answer).to_be_disabled()
    check_answers(page, {"Head B, the weight on key 1": "0.475"})
    expect(runs(page)).to_have_text("You have run it 5 times.")
    expect(answer).to_be_enabled()
    answer.click()
    expect(hints.get_by_text(re.compile(
        r"^Head A, the score for key 1: 2\. Head A, the weight on key 1: 0\.4643\. .*"
        r"each head normalises over its own scores only\.$"))).to_be_visible()


def compare_says_what_the_numbers_show_against_a_wrong_prediction(page: Page) -> None:
    lock_prediction(page, "The same two numbers.")
    compare = page.get_by_role("region", name="04 · Compare")
    expect(compare).to_contain_text("You predicted: The same two numbers.")
    expect(compare).to_contain_text("differ by 0.2019 and 0.1101")
    expect(compare).to_contain_text("So the numbers say: Clearly different, by more than 0.1.")
    expect(compare).not_to_contain_text("bear your prediction out")


def the_takeaway_is_saved_and_a_blank_one_is_refused(page: Page) -> None:
    """Last: it reloads."""
    lock_prediction(page)
    takeaway = page.get_by_label("Your takeaway", exact=True)
    expect(takeaway).to_have_value(re.compile("^Each head normalises over its own scores"))
    mine = "Two small heads each run their own softmax; they are not one big head halved."
    save_takeaway(page, mine)
    expect(takeaway).to_have_accessible_description(re.compile("Saved in this browser.$"))

    save_takeaway(page, "   ")
    expect(takeaway).to_have_accessible_description(
        re.compile("Write a line first, or keep the suggested one.$"))
    reload_d8(page)
    expect(takeaway).to_have_value(mine)


def test_a_wrong_prediction_compared_hints_by_evaluated_runs_and_a_takeaway_kept(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    """One start of D8 shared by three checks that each began with the same visit, in turn,
    with a Reset between: the wrong prediction's Compare, then the right one's hints and
    takeaway."""
    open_d8(page, d8_url)
    compare_says_what_the_numbers_show_against_a_wrong_prediction(page)
    reset_progress(page)
    hints_open_with_evaluated_runs_and_a_recheck_does_not_count(page)
    reset_progress(page)
    the_takeaway_is_saved_and_a_blank_one_is_refused(page)
    assert console_errors == []

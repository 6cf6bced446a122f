"""Lesson 8.2 end to end: predict, the head computed here, slips, hints, reading, gate, reload."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from learner import (
    L82,
    WHY_LABEL,
    answer_field,
    beside,
    check_answers,
    gate,
    lock_prediction,
    lock_reading,
    open_page,
    press_check,
    reload_d8,
    row_cells,
    runs,
    save_takeaway,
)

STEPS = "Scores, exponentials and weights for the head"
SCALED = "The scaled score for key 1"
WEIGHT = "The weight on key 1"


def see_the_head_computed(page: Page) -> None:
    """Every step of the head, its figure, summary and per-key table, as printed here."""
    head = page.get_by_role("article", name="one head, dimension 2")
    expect(head.get_by_text("scale 1 / sqrt(2) = 0.7071")).to_be_visible()
    expect(head.get_by_text("computed in this browser")).to_be_visible()
    for step, printed in [
        ("scores, query times key", "2, -1, 1, -3"),
        ("scaled by 1 over the square root of 2", "1.4142, -0.7071, 0.7071, -2.1213"),
        ("exponentials", "4.1133, 0.4931, 2.0281, 0.1199"),
        ("their sum", "6.7543"),
        ("weights", "0.6090, 0.0730, 0.3003, 0.0177"),
        ("output, weights against values", "1.1740, 0.7643"),
    ]:
        expect(row_cells(page, STEPS, step)).to_have_text([printed])
    expect(head.get_by_role("img")).to_have_accessible_name(
        "Weights of the head: key 1, 0.6090; key 2, 0.0730; key 3, 0.3003; key 4, 0.0177.")
    expect(head.get_by_text("The largest weight is 0.6090 on key 1.")).to_be_visible()
    head.get_by_text("Show this head's numbers").click()
    expect(row_cells(page, "Values shown in the figure above", "3")).to_have_text(
        ["1, 1", "2, 2", "1", "0.3003"])


def meet_slips_and_hints(page: Page) -> None:
    """Wrong answers named as slips, runs counted, and both hint rungs opened in turn."""
    check_answers(page, L82.wrong_answers)
    expect(beside(page, SCALED)).to_contain_text(
        "Not within 0.02. That is key 1's score before scaling. Multiply it by 1 over the square "
        "root of 2.")
    expect(beside(page, WEIGHT)).to_contain_text(
        "That is the weight on key 1 without the scale: the softmax of the raw scores.")
    expect(answer_field(page, WEIGHT)).to_have_attribute("aria-invalid", "true")
    check_answers(page, L82.one_wrong)
    expect(beside(page, "The weight on key 3")).to_contain_text("That is key 3's exponential.")
    expect(runs(page)).to_have_text("You have run it 2 times.")
    press_check(page)  # nothing new: no run
    expect(runs(page)).to_have_text("You have run it 2 times.")

    check_answers(page, L82.right_answers)
    expect(runs(page)).to_have_text("You have run it 3 times.")
    page.get_by_role("button", name="Show the question").click()
    expect(page.get_by_text(re.compile(r"^Key 1 scores 2 and key 3 scores 1\."))).to_be_focused()
    expect(page.get_by_role("button", name="Show the answer")).to_be_disabled()
    for typed in ("1.2", "1.174"):
        check_answers(page, {"The output, first entry": typed})
    page.get_by_role("button", name="Show the answer").click()
    answer = page.get_by_text(re.compile(r"^The score for key 3: 1\. The scaled score"))
    expect(answer).to_contain_text("The exponentials add up to 6.7543")


def test_the_whole_lesson_from_prediction_to_a_met_gate_and_back_after_reload(
    page: Page, site_url: str, console_errors: list[str]
) -> None:
    open_page(page, f"{site_url}8-2/")
    expect(page.get_by_role("heading", name="Attention by hand", level=1)).to_be_visible()
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_hidden()
    page.get_by_label(WHY_LABEL).fill("Key 3 points along the query.")
    lock_prediction(page, L82.wrong_prediction)
    see_the_head_computed(page)
    meet_slips_and_hints(page)

    lock_reading(page, L82.wrong_reading)
    try_it = page.get_by_role("region", name="03 · Try it")
    feedback = try_it.get_by_text(re.compile(r"^The softmax makes the weights add up to 1"))
    expect(feedback).to_contain_text("without it key 1 would take 0.7020, not 0.6090.")
    expect(gate(page)).to_contain_text("Not met yet.")
    lock_reading(page, L82.right_reading)
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")
    expect(gate(page)).to_contain_text(
        "6 of 6 numbers within tolerance, 5 needed. The right reading is locked in.")
    compare = page.get_by_role("region", name="04 · Compare")
    expect(compare).to_contain_text(
        "You predicted: Key 3. The largest weight is 0.6090 on key 1. So the numbers say: Key 1.")
    expect(compare).to_contain_text("Your reason then: Key 3 points along the query.")
    save_takeaway(page, "Scale, softmax, average: by hand it is four lines.")
    expect(page.get_by_text("Saved in this browser.")).to_be_visible()

    reload_d8(page)
    expect(page.get_by_label(L82.wrong_prediction)).to_be_checked()
    expect(page.get_by_label(L82.wrong_prediction)).to_be_disabled()
    for label, typed in {**L82.right_answers, "The output, first entry": "1.174"}.items():
        expect(answer_field(page, label)).to_have_value(typed)
    expect(runs(page)).to_have_text("You have run it 5 times.")
    expect(page.get_by_text(re.compile(r"^The score for key 3: 1\."))).to_be_visible()
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_value(
        "Scale, softmax, average: by hand it is four lines.")
    assert console_errors == []

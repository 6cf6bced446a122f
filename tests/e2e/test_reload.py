"""Progress survives a reload, can be reset, and degrades visibly when storage cannot hold it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from learner import (
    ANSWER_LABELS,
    MIXED_ANSWERS,
    PROJECTION_LABELS,
    RIGHT_PREDICTION,
    RIGHT_READING,
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
    set_projection,
)

STORE_KEY = "attention-lessons:d8:progress"
WHY = "Two softmaxes cannot add up to one."
SCALE_READING = "The two runs use different scale factors."
VECTORS = "The concatenated head outputs before and after the output projection"
TAKEAWAY = "Each small head runs its own softmax, so halves do not make the whole."
# Three evaluated runs, each grading new values, with head A's output slipped and head B's blank.
RUNS = (
    {"Head A, the score for key 1": "2", "Head A, the weight on key 1": " 0,4643 ",
     "Head A, the output": "1.1740"},
    {"Head B, the score for key 2": "−1"},
    {"Head B, the weight on key 1": ".4754"},
)
TYPED = {label: typed for run in RUNS for label, typed in run.items()}


def gate_reads(page: Page, badge: str) -> None:
    """Expect the gate panel's badge to read badge ("met" or "not yet")."""
    expect(gate(page)).to_have_accessible_name(f"Your check: an outcome you produce {badge}")


def reading_feedback(page: Page, start: str) -> None:
    """Expect the reading's feedback, beginning with start, in Try it."""
    try_it = page.get_by_role("region", name="03 · Try it")
    expect(try_it.get_by_text(re.compile("^" + re.escape(start)))).to_be_visible()


def expect_midway(page: Page) -> None:
    """Everything done before the midway reload, as the page shows it."""
    prediction = page.get_by_role("radio", name=RIGHT_PREDICTION)
    expect(prediction).to_be_checked()
    expect(prediction).to_be_disabled()
    expect(page.get_by_role("button", name="Prediction locked in")).to_be_disabled()
    expect(page.get_by_label(WHY_LABEL)).to_have_value(WHY)
    expect(page.get_by_label(WHY_LABEL)).to_be_disabled()
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_visible()
    for label, typed in TYPED.items():
        expect(answer_field(page, label)).to_have_value(typed)
        expect(answer_field(page, label)).to_have_accessible_description(
            re.compile(r"Attempts: 1$"))
    expect(answer_field(page, "Head B, the output")).to_have_value("")
    expect(answer_field(page, "Head B, the output")).to_have_accessible_description(
        re.compile(r"Attempts: 0$"))
    expect(answer_field(page, "Head A, the output")).to_have_accessible_description(
        re.compile(r"That is the single head's output from 8\.2\."))
    expect(echo(page, "Head A, the weight on key 1")).to_have_text("read as 0.4643")
    expect(runs(page)).to_have_text("You have run it 3 times.")
    hints = page.get_by_role("region", name="Ask for a hint")
    expect(hints.get_by_text(re.compile(r"^In head A, .*Which scores does each softmax"))
           ).to_be_visible()
    expect(page.get_by_role("button", name="Show the question")).to_be_disabled()
    expect(page.get_by_role("button", name="Show the answer")).to_be_disabled()
    expect(page.get_by_role("radio", name=SCALE_READING)).to_be_checked()
    reading_feedback(page, "The scales do differ")
    for labels, row in zip(PROJECTION_LABELS, (("0", "1"), ("1", "0")), strict=True):
        for label, entry in zip(labels, row, strict=True):
            expect(page.get_by_label(label, exact=True)).to_have_value(entry)
            expect(page.get_by_label(f"{label}, slider", exact=True)).to_have_value(entry)
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text(["0.8744", "1.3760"])
    gate_reads(page, "not yet")
    expect(page.get_by_text(re.compile(r"^\d of 6 numbers within"))).to_have_text(
        "4 of 6 numbers within tolerance, 5 needed. "
        "The reading locked in is not the right one yet.")


def a_reload_midway_brings_everything_back(page: Page) -> None:
    page.get_by_label(WHY_LABEL).fill(WHY)
    lock_prediction(page)
    for answers in RUNS:
        check_answers(page, answers)
    page.get_by_role("button", name="Show the question").click()
    lock_reading(page, SCALE_READING)
    set_projection(page, (("0", "1"), ("1", "0")))
    expect_midway(page)

    reload_d8(page)
    expect_midway(page)
    # What was graded came back too, not only what is shown: the same values are no new run.
    press_check(page)
    numbers = page.get_by_role("form", name="Six numbers")
    expect(numbers.get_by_text(re.compile("^Nothing new was graded"))).to_be_visible()
    expect(runs(page)).to_have_text("You have run it 3 times.")


def a_reload_at_the_end_keeps_the_gate_and_a_reset_starts_again(page: Page) -> None:
    lock_prediction(page)
    check_answers(page, MIXED_ANSWERS)
    lock_reading(page)
    set_projection(page, (("2", "0"), ("0", "1")))
    save_takeaway(page, TAKEAWAY)
    gate_reads(page, "met")

    reload_d8(page)
    gate_reads(page, "met")
    expect(page.get_by_text("6 of 6 numbers within tolerance, 5 needed. "
                            "The right reading is locked in.")).to_be_visible()
    expect(page.get_by_role("radio", name=RIGHT_READING)).to_be_checked()
    expect(page.get_by_role("radio", name=RIGHT_READING)).to_be_disabled()
    reading_feedback(page, "Right. Each head's softmax")
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_value(TAKEAWAY)
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text(["2.7519", "0.8744"])
    for label, typed in MIXED_ANSWERS.items():
        expect(answer_field(page, label)).to_have_value(typed)
    expect(runs(page)).to_have_text("You have run it 1 time.")

    reset_progress(page)
    expect_the_start(page)
    reload_d8(page)
    expect_the_start(page)
    lock_prediction(page, "The same two numbers.")
    for label in ANSWER_LABELS:
        expect(answer_field(page, label)).to_have_value("")
        expect(answer_field(page, label)).to_have_accessible_description("± 0.02 Attempts: 0")
    expect(runs(page)).to_have_text("You have run it 0 times.")
    expect(page.get_by_role("radio", name=RIGHT_READING)).not_to_be_checked()
    expect(page.get_by_role("radio", name=RIGHT_READING)).to_be_enabled()
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_value(
        re.compile("^Each head normalises over its own scores, so two heads"))
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text(["1.3760", "0.8744"])
    expect(page.get_by_role("button", name="Show the question")).to_be_disabled()
    gate_reads(page, "not yet")


def expect_the_start(page: Page) -> None:
    """The page as a learner first finds it: nothing locked, nothing after the prediction."""
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_hidden()
    for choice in (RIGHT_PREDICTION, "The same two numbers."):
        expect(page.get_by_role("radio", name=choice)).not_to_be_checked()
        expect(page.get_by_role("radio", name=choice)).to_be_enabled()
    expect(page.get_by_label(WHY_LABEL)).to_be_enabled()
    expect(page.get_by_role("button", name="Lock in my prediction")).to_be_enabled()


def test_a_reload_midway_brings_everything_back_and_one_at_the_end_keeps_the_gate_until_reset(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    """One start of D8 for two checks in turn, each of which began with the same visit: Reset
    between them takes the page back to the start the second one needs."""
    open_d8(page, d8_url)
    a_reload_midway_brings_everything_back(page)
    reset_progress(page)
    expect_the_start(page)
    a_reload_at_the_end_keeps_the_gate_and_a_reset_starts_again(page)
    assert console_errors == []


CORRUPT = f'localStorage.setItem("{STORE_KEY}", "{{\\"version\\": 1, oops");'


def test_a_corrupt_saved_record_is_set_aside_with_a_notice(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    page.add_init_script(CORRUPT)
    open_d8(page, d8_url)
    notice = page.get_by_role("alert")
    expect(notice).to_have_text(re.compile(
        r"^Your saved progress could not be read, so it was set aside just now \(kept in this "
        rf"browser as {STORE_KEY}:unreadable\) and you start afresh\.$"))
    expect_the_start(page)
    lock_prediction(page)
    check_answers(page, MIXED_ANSWERS)
    expect(runs(page)).to_have_text("You have run it 1 time.")
    lock_reading(page)
    gate_reads(page, "met")
    # The notice stays up: the learner may not have read it before their first step.
    expect(notice).to_contain_text("set aside")
    assert console_errors == []


THROWING = "Storage.prototype.getItem = Storage.prototype.setItem = () => {{ {error} }};"
FULL = "Storage.prototype.setItem = () => {{ {error} }};"
QUOTA = 'throw new DOMException("The quota has been exceeded.", "QuotaExceededError");'
DENIED = 'throw new DOMException("Access is denied for this document.", "SecurityError");'


NOT_SAVING = ("This browser is not letting the page save, so your progress lasts only while "
              "this tab is open.")
NOT_SAVED_YET = ("Your latest change is not saved: this browser's storage refused it (it may be "
                 "full). The page tries again at every change; this notice goes once a save works.")


# A store that refuses every save says the latest change is not saved, and keeps trying.
@pytest.mark.parametrize(("broken", "said"), [(THROWING.format(error=DENIED), NOT_SAVING),
                                               (FULL.format(error=QUOTA), NOT_SAVED_YET)],
                         ids=["throwing", "full"])
def test_storage_that_fails_keeps_progress_for_the_tab_with_a_notice(
    page: Page, d8_url: str, console_errors: list[str], broken: str, said: str
) -> None:
    page.add_init_script(broken)
    open_d8(page, d8_url)
    notice = page.get_by_role("alert")
    lock_prediction(page)
    expect(notice).to_have_text(said)
    check_answers(page, MIXED_ANSWERS)
    expect(runs(page)).to_have_text("You have run it 1 time.")
    lock_reading(page)
    save_takeaway(page, TAKEAWAY)
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_accessible_description(
        re.compile("Kept while this tab is open"))
    gate_reads(page, "met")
    expect(notice).to_be_visible()
    assert console_errors == []


def test_a_corrupt_record_in_storage_too_full_to_set_it_aside_is_left_alone(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    page.add_init_script(CORRUPT + FULL.format(error=QUOTA))
    open_d8(page, d8_url)
    notice = page.get_by_role("alert")
    expect(notice).to_have_text(
        "Your saved progress could not be read, and there is no room to set it aside, so it is "
        "left as it was and nothing you do here is saved. Reset my progress offers to clear it.")
    lock_prediction(page)
    check_answers(page, MIXED_ANSWERS)
    expect(runs(page)).to_have_text("You have run it 1 time.")
    expect(notice).to_contain_text("there is no room to set it aside")
    assert console_errors == []

"""Unreadable answers get a plain message beside the field and cost neither an attempt nor a run."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from learner import (
    answer_field,
    check_answers,
    echo,
    lock_prediction,
    open_d8,
    reset_progress,
    runs,
)

TOO_LONG = "1" * 10_000
# What a learner might type, and what the page says back, word for word.
UNREADABLE = [
    ("", "Type a number first."),
    ("abc", "“abc” is not a number. Type digits, such as 0.46 or 7/8."),
    ("nan", "NaN is not a number you can check; type a real value."),
    ("1e999", "That number is too large to use."),
    ("1/0", "Division by zero has no value; check the denominator."),
    (TOO_LONG, "That is too long to be a number (at most 64 characters)."),
    ("<b>1</b>", "“<b>1</b>” is not a number. Type digits, such as 0.46 or 7/8."),
]
IDS = ["blank", "text", "nan", "overflow", "division-by-zero", "10000-characters", "markup"]
FIELD = "Head A, the output"


def expect_unread(page: Page, label: str, message: str, attempts: int = 0) -> None:
    """Expect the field to carry the message, no echo and the attempts it had."""
    field = answer_field(page, label)
    expect(field).to_have_accessible_description(f"± 0.02 {message} Attempts: {attempts}")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(echo(page, label)).to_have_count(0)


def each_unreadable_answer_is_explained_beside_its_field(
    page: Page, subtests: pytest.Subtests
) -> None:
    """Each one after the other: an unreadable answer counts no attempt and no run (the next
    step shows it), so each finds the field as a fresh record has it."""
    lock_prediction(page)
    numbers = page.get_by_role("form", name="Six numbers")
    for case, (typed, message) in zip(IDS, UNREADABLE, strict=True):
        with subtests.test(case):
            check_answers(page, {FIELD: typed})
            expect_unread(page, FIELD, message)
            expect(answer_field(page, FIELD)).to_have_value(typed)
            expect(runs(page)).to_have_text("You have run it 0 times.")
            expect(numbers.get_by_text(re.compile(r"^Nothing new was graded"))).to_contain_text(
                "could not be read")


def unreadable_answers_in_a_row_cost_nothing_until_a_number_is_read(page: Page) -> None:
    label = "Head B, the weight on key 1"
    lock_prediction(page)
    for typed, message in UNREADABLE:
        check_answers(page, {label: typed})
        expect_unread(page, label, message)
        expect(runs(page)).to_have_text("You have run it 0 times.")

    check_answers(page, {label: ".4754"})
    expect(answer_field(page, label)).to_have_accessible_description(
        "± 0.02 read as 0.4754 Within 0.02 of 0.4754, computed here. Attempts: 1")
    expect(echo(page, label)).to_have_text("read as 0.4754")
    expect(runs(page)).to_have_text("You have run it 1 time.")

    check_answers(page, {label: "abc"})
    expect_unread(page, label, UNREADABLE[1][1], attempts=1)
    expect(runs(page)).to_have_text("You have run it 1 time.")


def test_unreadable_answers_are_explained_and_cost_nothing_until_a_number_is_read(
    page: Page, d8_url: str, console_errors: list[str], subtests: pytest.Subtests
) -> None:
    """One start of D8 shared by two checks that each began with the same visit, in turn, with
    a Reset between, which empties the fields the first one left unreadable."""
    open_d8(page, d8_url)
    each_unreadable_answer_is_explained_beside_its_field(page, subtests)
    reset_progress(page)
    unreadable_answers_in_a_row_cost_nothing_until_a_number_is_read(page)
    assert console_errors == []

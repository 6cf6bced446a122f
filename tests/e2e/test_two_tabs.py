"""Two tabs on one lesson: what one saves shows in the other within a second; nothing is lost."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from learner import (
    MIXED_ANSWERS,
    RIGHT_READING,
    answer_field,
    check_answers,
    gate,
    lock_prediction,
    lock_reading,
    open_d8,
    reload_d8,
    runs,
)

SECOND = 1_000


@pytest.mark.timed  # within a second
def test_what_one_tab_saves_shows_in_the_other_and_nothing_is_lost(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    other = page.context.new_page()
    open_d8(page, d8_url)
    open_d8(other, d8_url)
    lock_prediction(page)
    expect(other.get_by_role("button", name="Prediction locked in")).to_be_disabled(timeout=SECOND)
    expect(other.get_by_role("status").filter(has_text="another tab")).to_be_visible()
    first = dict(list(MIXED_ANSWERS.items())[:3])
    rest = dict(list(MIXED_ANSWERS.items())[3:])
    check_answers(other, first)
    for label, typed in first.items():
        expect(answer_field(page, label)).to_have_value(typed, timeout=SECOND)
    check_answers(page, rest)  # a second run, on answers the first tab never typed
    for tab in (page, other):
        for label, typed in MIXED_ANSWERS.items():
            expect(answer_field(tab, label)).to_have_value(typed, timeout=SECOND)
        expect(runs(tab)).to_have_text("You have run it 2 times.", timeout=SECOND)
    lock_reading(other, RIGHT_READING)
    expect(gate(page)).to_have_accessible_name("Your check: an outcome you produce met",
                                               timeout=SECOND)
    other.close()
    reload_d8(page)
    expect(gate(page)).to_have_accessible_name("Your check: an outcome you produce met")
    expect(page.get_by_role("radio", name=RIGHT_READING)).to_be_checked()
    assert console_errors == []

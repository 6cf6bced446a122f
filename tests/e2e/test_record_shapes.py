"""Stored records of any shape and size: Python starts, an unreadable one is set aside once."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from learner import lock_prediction, open_d8, reload_d8

KEY = "attention-lessons:d8:progress"
BACKUP = f"{KEY}:unreadable"
# Seed the record once, so a reload sees what the page left, not a fresh seed.
SEED = "if (localStorage.getItem({key}) === null) localStorage.setItem({key}, {value});"
SHAPES = {
    "deep": "[" * 100_000 + "]" * 100_000,
    "huge": json.dumps({"version": 1, "why": "x" * 2_000_000}),
    "odd types": json.dumps({"version": 1, "runs": "lots", "answers": [None, True, 1e308]}),
    "null": "null",
    "big number": "9" * 5000,
    "crafted": "[" * 21 + '"' + '\\"' * 99_980,  # the nesting check took minutes on this
}
# So big that this browser has no room for a copy: the crafted text, 5 MB.
FILLS_THE_QUOTA = "[" * 21 + '"' + '\\"' * 2_500_000
FULL_FOR_BACKUPS = """
const realSetItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (key.endsWith(":unreadable")) throw new DOMException("Full.", "QuotaExceededError");
  return realSetItem.call(this, key, value);
};
"""


def seed(page: Page, value: str) -> None:
    page.add_init_script(SEED.format(key=json.dumps(KEY), value=json.dumps(value)))


def stored_keys(page: Page) -> list[str]:
    return sorted(page.evaluate("() => Object.keys(localStorage)"))


@pytest.mark.parametrize("shape", SHAPES)
def test_any_record_lets_python_start_and_is_set_aside_once(
    page: Page, d8_url: str, console_errors: list[str], shape: str
) -> None:
    seed(page, SHAPES[shape])
    open_d8(page, d8_url)
    notice = page.get_by_role("alert")
    aside = re.compile(rf"set aside just now \(kept in this browser as {BACKUP}\)")
    expect(notice).to_have_text(aside)
    reload_d8(page)
    expect(notice).to_have_text(re.compile("set aside on an earlier visit"))
    assert stored_keys(page) == [KEY, BACKUP]
    lock_prediction(page)
    reload_d8(page)
    expect(notice).to_be_hidden()
    expect(page.get_by_role("button", name="Prediction locked in")).to_be_disabled()
    assert console_errors == []


def test_a_record_that_cannot_be_set_aside_is_cleared_by_reset_which_says_so(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    page.add_init_script(FULL_FOR_BACKUPS)
    seed(page, SHAPES["odd types"])
    open_d8(page, d8_url)
    expect(page.get_by_role("alert")).to_contain_text("there is no room to set it aside")
    lock_prediction(page)  # the lesson still works, in memory
    page.get_by_text("Reset my progress", exact=True).click()
    expect(page.get_by_text(re.compile(r"^It also removes the unreadable saved record \(\d+ "
                                       r"characters\)"))).to_be_visible()
    page.get_by_role("button", name="Yes, forget my progress").click()
    expect(page.get_by_role("alert")).to_be_hidden()  # saving works again, and it says so
    lock_prediction(page)
    expect(page.get_by_role("alert")).to_be_hidden()
    reload_d8(page)
    expect(page.get_by_role("alert")).to_be_hidden()
    expect(page.get_by_role("button", name="Prediction locked in")).to_be_disabled()
    assert stored_keys(page) == [KEY]
    assert console_errors == []


def test_reset_removes_the_copy_set_aside_and_says_so_first(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    seed(page, "{not json")
    open_d8(page, d8_url)
    expect(page.get_by_role("alert")).to_contain_text("set aside just now")
    page.get_by_text("Reset my progress", exact=True).click()
    expect(page.get_by_text("It also removes the copy of unreadable saved progress (9 characters) "
                            "that this browser set aside.")).to_be_visible()
    page.get_by_role("button", name="Yes, forget my progress").click()
    expect(page.get_by_role("alert")).to_be_hidden()
    assert stored_keys(page) == [KEY]
    assert console_errors == []


def test_a_record_filling_the_quota_is_cleared_by_reset_and_saving_works_again(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    seed(page, FILLS_THE_QUOTA)
    open_d8(page, d8_url)
    notice = page.get_by_role("alert")
    expect(notice).to_contain_text("there is no room to set it aside")
    page.get_by_text("Reset my progress", exact=True).click()
    page.get_by_role("button", name="Yes, forget my progress").click()
    expect(notice).to_be_hidden()
    lock_prediction(page)
    expect(notice).to_be_hidden()
    reload_d8(page)
    expect(page.get_by_role("button", name="Prediction locked in")).to_be_disabled()
    assert stored_keys(page) == [KEY]
    assert console_errors == []

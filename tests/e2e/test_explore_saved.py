"""Explore's points are progress: reload restores them, Reset clears them, two tabs share them,
Download and Import carry them, and a record written before Explore loads whole."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from explore_page import MINUS, field, slider
from learner import (
    RIGHT_PREDICTION,
    download_progress,
    lock_prediction,
    open_d8,
    reload_d8,
    reset_progress,
)
from test_explore_two_heads import assert_d8_readout

QUERY_MOVED = f"query at 2.1, {MINUS}1.0"
QUERY_AT_FIXTURE = f"query at 2.0, {MINUS}1.0"
KEY = "attention-lessons:d8:progress"
# Plants a record before the page's own scripts run, once: a reload finds what the page saved.
PLANT = "if (localStorage.getItem({key}) === null) localStorage.setItem({key}, {record});"


def move_two_points(page: Page) -> None:
    """The query one step right by keyboard, key 3 typed to (-0.25, 2)."""
    slider(page, "query").focus()
    page.keyboard.press("ArrowRight")
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", QUERY_MOVED)
    field(page, "key 3", 1).fill("-0.25")
    field(page, "key 3", 2).fill("2")
    expect(slider(page, "key 3")).to_have_attribute("aria-valuetext", f"key 3 at {MINUS}0.25, 2.0")


def assert_moved(page: Page) -> None:
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", QUERY_MOVED)
    expect(slider(page, "key 3")).to_have_attribute("aria-valuetext", f"key 3 at {MINUS}0.25, 2.0")
    expect(field(page, "key 3", 1)).to_have_value("-0.25")
    assert_d8_readout(page)


def a_reload_restores_what_was_explored_and_reset_clears_it(page: Page) -> None:
    lock_prediction(page)
    move_two_points(page)
    reload_d8(page)
    assert_moved(page)
    reset_progress(page)
    lock_prediction(page)
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", QUERY_AT_FIXTURE)
    expect(page.get_by_role("button", name="Back to the fixture")).to_be_disabled()
    reload_d8(page)
    expect(slider(page, "key 3")).to_have_attribute("aria-valuetext", "key 3 at 1.0, 1.0")


def download_and_import_carry_the_explored_points(page: Page) -> None:
    lock_prediction(page)
    move_two_points(page)
    download = download_progress(page)
    saved = json.loads(download.path().read_text(encoding="utf-8"))
    assert saved["progress"]["explore"]["moved"]["query"] == [2.1, -1.0]
    reset_progress(page)
    page.get_by_label("Import progress").set_input_files(download.path())
    page.get_by_role("button", name="Replace my progress with the file's").click()
    expect(page.get_by_text("Imported: your progress here is now the file's.")).to_be_visible()
    assert_moved(page)


def two_tabs_see_each_others_moves_and_the_latest_wins(page: Page, d8_url: str) -> None:
    lock_prediction(page)
    other = page.context.new_page()
    open_d8(other, d8_url)
    move_two_points(page)
    expect(slider(other, "query")).to_have_attribute("aria-valuetext", QUERY_MOVED)
    expect(slider(other, "key 3")).to_have_attribute("aria-valuetext",
                                                     f"key 3 at {MINUS}0.25, 2.0")
    other.get_by_role("button", name="Back to the fixture").click()
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", QUERY_AT_FIXTURE)
    assert_d8_readout(page)
    other.close()


def test_reload_reset_download_import_and_a_second_tab_carry_what_was_explored(
        page: Page, d8_url: str, console_errors: list[str]) -> None:
    """One start of D8 shared by three checks that each began with the same visit, in turn,
    with a Reset between (the reloads are the first check's own)."""
    open_d8(page, d8_url)
    a_reload_restores_what_was_explored_and_reset_clears_it(page)
    reset_progress(page)
    download_and_import_carry_the_explored_points(page)
    reset_progress(page)
    two_tabs_see_each_others_moves_and_the_latest_wins(page, d8_url)
    assert console_errors == []


def test_a_record_saved_before_explore_loads_whole_with_nothing_explored(
        page: Page, d8_url: str, console_errors: list[str]) -> None:
    """The record is in storage before the page's first load; planted only where none is, so
    the reload finds what the page saved."""
    today = {"version": 1, "prediction": "different", "why": "own softmax",
             "answers": {"a_output": "1.376"}, "graded": {"a_output": 1.376},
             "attempts": {"a_output": 1}, "runs": 1, "hints_opened": 0, "reading": None,
             "projection": [[1, 0], [0, 1]], "takeaway": "kept from before"}
    page.add_init_script(PLANT.format(key=json.dumps(KEY), record=json.dumps(json.dumps(today))))
    open_d8(page, d8_url)
    expect(page.get_by_role("radio", name=RIGHT_PREDICTION)).to_be_checked()
    expect(page.get_by_label("Head A, the output", exact=True)).to_have_value("1.376")
    expect(page.get_by_text("You have run it 1 time.")).to_be_visible()
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_value("kept from before")
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", QUERY_AT_FIXTURE)
    move_two_points(page)
    reload_d8(page)
    assert_moved(page)
    expect(page.get_by_text("You have run it 1 time.")).to_be_visible()
    assert console_errors == []

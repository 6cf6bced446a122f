"""Another tab on another build: a record this build cannot read is never written over, and a
version-1 record an old tab writes across a deploy loses nothing of this tab's work."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import FilePayload, Page, expect

from explore_page import MINUS, field, slider
from learner import (
    answer_field,
    download_progress,
    gate,
    lock_prediction,
    open_d8,
    reload_d8,
    save_takeaway,
)

KEY = "attention-lessons:d8:progress"
QUERY_MOVED = f"query at 2.1, {MINUS}1.0"
MINE = "Each head weighs the values on its own."
# A D8 record of version 1, as the build before explored points wrote it: the gate met.
OLD: dict[str, Any] = {"answers": {"a_output": "1.376", "a_score_1": "3", "a_weight_1": "0.46",
                   "b_output": "0.874", "b_score_2": "-1", "b_weight_1": "0.47"},
       "attempts": {"a_output": 2, "a_score_1": 3, "a_weight_1": 3, "b_output": 5,
                    "b_score_2": 1, "b_weight_1": 3},
       "graded": {"a_output": 1.376, "a_score_1": 3.0, "a_weight_1": 0.46, "b_output": 0.874,
                  "b_score_2": -1.0, "b_weight_1": 0.47},
       "hints_opened": 2, "prediction": "close", "projection": [[1.0, 0.5], [-1.5, 1.0]],
       "reading": "own_scores", "runs": 5, "takeaway": "The old tab's takeaway.", "version": 1,
       "why": "heads are halves"}
WRITE = "([key, record]) => localStorage.setItem(key, record)"
STORED = """() => Object.fromEntries(Object.keys(localStorage)
    .filter(k => k.startsWith('attention-lessons:')).map(k => [k, localStorage.getItem(k)]))"""


def newer(record: dict[str, Any], kind: str) -> str:
    """A record as a newer build might save it, which this build cannot read whole."""
    if kind == "a newer version":
        return json.dumps({**record, "version": 3})
    if kind == "an unknown field":
        return json.dumps({**record, "streak": 4})
    return json.dumps({**record, "explore": {**record["explore"], "moved": {"query": [9, 9]}}})


def other_tab(page: Page, site_url: str) -> Page:
    """A second page of the site's origin, as a tab of another build is: its writes reach this
    tab by a storage event."""
    other = page.context.new_page()
    other.goto(f"{site_url}style.css")
    return other


def move_query(page: Page) -> None:
    slider(page, "query").focus()
    page.keyboard.press("ArrowRight")
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", QUERY_MOVED)


@pytest.mark.parametrize("kind", ["a newer version", "an unknown field", "a refused point"])
def test_a_record_another_build_saved_in_another_tab_is_never_written_over(
    page: Page, d8_url: str, site_url: str, console_errors: list[str], kind: str
) -> None:
    open_d8(page, d8_url)
    lock_prediction(page)
    save_takeaway(page, MINE)
    expect(page.get_by_role("status").filter(has_text="Saved in this browser.")).to_be_visible()
    other = other_tab(page, site_url)
    theirs = newer(json.loads(other.evaluate(f"() => localStorage.getItem('{KEY}')")), kind)
    other.evaluate(WRITE, [KEY, theirs])
    expect(page.get_by_role("alert")).to_have_text(
        re.compile(r"^This page is out of date: .* Reload to keep working\.$"))
    move_query(page)  # the next save, a single Explore move
    save_takeaway(page, f"{MINE} Again.")
    kept = page.get_by_role("status").filter(has_text="Kept while this tab is open")
    expect(kept).to_be_visible()
    assert other.evaluate(STORED) == {KEY: theirs}
    assert console_errors == []


def test_an_old_tab_saving_version_1_across_a_deploy_loses_nothing_of_this_tab(
    page: Page, d8_url: str, site_url: str, console_errors: list[str]
) -> None:
    old = other_tab(page, site_url)
    old.evaluate(WRITE, [KEY, json.dumps(OLD)])  # tab OLD met the gate before the deploy
    open_d8(page, d8_url)
    met = "Your check: an outcome you produce met"
    expect(gate(page)).to_have_accessible_name(met)
    move_query(page)
    save_takeaway(page, MINE)
    expect(page.get_by_role("status").filter(has_text="Saved in this browser.")).to_be_visible()
    edited = {**OLD, "answers": {**OLD["answers"], "a_weight_1": "0.464"}}
    old.evaluate(WRITE, [KEY, json.dumps(edited)])  # OLD edits an answer, writing version 1
    head_a_weight = "Head A, the weight on key 1"
    expect(answer_field(page, head_a_weight)).to_have_value("0.464")
    expect(page.get_by_role("status").filter(has_text="another tab")).to_be_visible()
    for when in ("now", "after a reload"):
        expect(page.get_by_label("Your takeaway", exact=True)).to_have_value(MINE)
        expect(slider(page, "query")).to_have_attribute("aria-valuetext", QUERY_MOVED)
        expect(answer_field(page, head_a_weight)).to_have_value("0.464")
        expect(gate(page)).to_have_accessible_name(met)
        if when == "now":
            reload_d8(page)
    assert json.loads(old.evaluate(STORED)[KEY])["version"] == 2
    assert console_errors == []


def an_explore_move_after_choosing_an_import_does_not_make_it_stale(page: Page) -> None:
    file: FilePayload = {"name": "progress.json", "mimeType": "application/json",
                         "buffer": download_progress(page).path().read_bytes()}
    page.get_by_label("Import progress").set_input_files(file)
    summary = page.get_by_role("status").filter(has_text="Importing replaces")
    expect(summary).to_be_visible()
    move_query(page)
    page.get_by_role("button", name="Replace my progress with the file's").click()
    expect(page.get_by_text("Imported: your progress here is now the file's.")).to_be_visible()
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", f"query at 2.0, {MINUS}1.0")


def a_keyboard_move_clears_the_not_a_number_message_of_its_point(page: Page) -> None:
    field(page, "query", 1).fill("abc")
    wrong = page.get_by_text("\N{LEFT DOUBLE QUOTATION MARK}abc\N{RIGHT DOUBLE QUOTATION MARK} "
                             "is not a number")
    expect(wrong).to_be_visible()
    move_query(page)
    expect(field(page, "query", 1)).to_have_value("2.1")
    expect(wrong).to_be_hidden()


def test_a_move_after_choosing_an_import_leaves_it_current_and_a_key_move_clears_not_a_number(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    """One start of D8 for two checks in turn, each of which began with the same visit and a
    locked prediction: the import puts the query back where the second check needs it."""
    open_d8(page, d8_url)
    lock_prediction(page)
    an_explore_move_after_choosing_an_import_does_not_make_it_stale(page)
    a_keyboard_move_clears_the_not_a_number_message_of_its_point(page)
    assert console_errors == []


def test_a_record_with_bad_explored_points_loads_its_graded_work_and_names_what_was_dropped(
    page: Page, d8_url: str, site_url: str, console_errors: list[str]
) -> None:
    explore = {"moved": {"query": "far", "key_2": [1e-320, -1e-320]}, "preset": "nearest",
               "scale": "", "full_precision": False}
    record = json.dumps({**OLD, "version": 2, "explore": explore})
    other_tab(page, site_url).evaluate(WRITE, [KEY, record])
    open_d8(page, d8_url)
    expect(page.get_by_role("alert")).to_have_text(re.compile(
        r"^Part of your saved progress could not be read, so it was left out: which Explore "
        r"preset the points were put at; where Explore's query was\. The rest of your work is "
        rf"here; the whole record was set aside just now \(kept in this browser as "
        rf"{KEY}:unreadable\)\.$"))
    expect(gate(page)).to_have_accessible_name("Your check: an outcome you produce met")
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_value(OLD["takeaway"])
    expect(slider(page, "key 2")).to_have_attribute("aria-valuetext", "key 2 at 0.0, 0.0")
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", f"query at 2.0, {MINUS}1.0")
    assert page.evaluate(STORED)[f"{KEY}:unreadable"] == record
    assert console_errors == []

"""The track's writes in Chromium: its Import and the progress link never write over a record
this page cannot read, never replace a takeaway or a locked prediction unasked, and store every
lesson or none; its backup never saves a lesson it cannot read as empty."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import FilePayload, Page, expect

from attention_lessons import (
    LESSONS,
    Progress,
    Unreadable,
    brought_in,
    confirm_course,
    export_course,
    incoming_update,
    lock_prediction,
    read_course,
    read_link,
    save_takeaway,
    store_key,
    track_view,
)
from attention_lessons.progress import (
    CourseIncoming,
    backup_key,
    load_record,
    progress_link,
    to_json,
)
from conftest import watch_errors
from course_work import FINISHED, WORKED, started
from learner import L82, WHY_LABEL, open_page
from stored import newer_records
from test_site_data_blocked import blocked_page
from test_track import lesson_row
from test_track_backup import SEED, STORED

__all__ = ["blocked_page"]  # a fixture, used by name

LINK = progress_link(FINISHED)
D8_KEY = store_key(LESSONS["d8"])
L82_KEY = store_key(LESSONS["8-2"])
CUT_SHORT = to_json(FINISHED["d8"])[:-30]
UNREADABLE = {"a newer version": newer_records()["a newer version"], "cut short": CUT_SHORT}
REFUSED_POINT = newer_records()["a refused explored point"]
WRITE = "([key, value]) => localStorage.setItem(key, value)"
OPEN_LINK = "(fragment) => { location.hash = fragment; }"
# D8's record refused by a storage that is full, until the test frees it.
D8_REFUSED = """
window.storageFull = true;
const realSetItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (window.storageFull && key === D8_KEY) {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  }
  return realSetItem.call(this, key, value);
};
""".replace("D8_KEY", json.dumps(D8_KEY))
BRING_IN = "Bring in the link's progress"


def seed(page: Page, records: Mapping[str, str]) -> None:
    keys = {store_key(LESSONS[slug]): record for slug, record in records.items()}
    page.add_init_script(f"({SEED})({json.dumps(keys)})")


def here(records: Mapping[str, str]) -> dict[str, Progress | Unreadable]:
    """The progress here as the track reads it from the seeded records."""
    return {slug: load_record(records.get(slug), lesson).here for slug, lesson in LESSONS.items()}


def summary(incoming: CourseIncoming, trouble: str = "") -> str:
    return incoming_update(incoming, WORKED, trouble=trouble).texts["course_import_message"]


def message(page: Page) -> Any:
    return page.locator("#course_import_message")


def open_the_track(page: Page, site_url: str, records: Mapping[str, str]) -> list[str]:
    seed(page, records)
    errors = watch_errors(page)
    open_page(page, site_url)
    return errors


@pytest.mark.parametrize("kind", UNREADABLE)
def test_a_record_this_page_cannot_read_is_named_left_as_it_is_and_never_backed_up_as_empty(
    page: Page, site_url: str, kind: str
) -> None:
    raw = UNREADABLE[kind]
    records = {"8-2": to_json(started(WORKED["8-2"])), "d8": raw}
    errors = open_the_track(page, site_url, records)
    expect(lesson_row(page, "D8")).to_contain_text(track_view(here(records), WORKED)[1].status)
    page.evaluate(OPEN_LINK, LINK)
    incoming = read_link(LINK, here(records), WORKED)
    expect(message(page)).to_have_text(summary(incoming))
    page.get_by_role("button", name=BRING_IN).click()
    expect(message(page)).to_have_text(brought_in(incoming, WORKED))
    stored = page.evaluate(STORED)
    assert stored[D8_KEY] == raw
    assert backup_key(LESSONS["d8"]) not in stored
    assert json.loads(stored[L82_KEY]) == json.loads(to_json(incoming.records()["8-2"]))
    expect(page).not_to_have_url(re.compile("#"))  # every lesson it could bring is stored

    with page.expect_download() as download:
        page.get_by_role("button", name="Download all my progress").click()
    saved = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert set(saved["lessons"]) == set(LESSONS) - {"d8"}  # left out, never saved as empty
    expect(page.get_by_role("status").filter(has_text="The file leaves out D8 (")).to_be_visible()
    expect(page.get_by_text("Last backed up: never.")).to_be_visible()
    page.get_by_role("button", name="Copy link").click()
    field = page.get_by_label("Your progress link")
    expect(field).to_have_value(re.compile(r"#progress=1\."))  # written once Python has it
    link = field.input_value()
    in_link = read_link(link.partition("#")[2], here({}), WORKED).records()
    assert set(in_link) == set(LESSONS) - {"d8"}
    expect(page.get_by_text("Last backed up: never.")).to_be_visible()
    assert page.evaluate(STORED)[D8_KEY] == raw
    assert errors == []


def test_a_record_read_without_a_part_is_set_aside_before_the_import_writes_it(
    page: Page, site_url: str
) -> None:
    records = {"d8": REFUSED_POINT}
    errors = open_the_track(page, site_url, records)
    file: FilePayload = {"name": "progress.json", "mimeType": "application/json",
                         "buffer": export_course(FINISHED).encode()}
    page.get_by_label("Import progress: the course's file, or one lesson's").set_input_files(file)
    incoming = read_course(export_course(FINISHED), here(records), WORKED)
    expect(message(page)).to_have_text(summary(incoming))
    page.get_by_role("button", name="Bring in the file's progress").click()
    expect(message(page)).to_have_text(brought_in(incoming, WORKED))
    stored = page.evaluate(STORED)
    assert stored[backup_key(LESSONS["d8"])] == REFUSED_POINT
    assert json.loads(stored[D8_KEY]) == json.loads(to_json(incoming.records()["d8"]))
    assert errors == []


def test_a_record_a_newer_build_saves_while_the_summary_waits_is_never_written_over(
    page: Page, site_url: str
) -> None:
    records = {"8-2": to_json(started(WORKED["8-2"]))}
    errors = open_the_track(page, site_url, records)
    page.evaluate(OPEN_LINK, LINK)
    incoming = read_link(LINK, here(records), WORKED)
    expect(message(page)).to_have_text(summary(incoming))
    newer = newer_records()["a newer version"]
    page.evaluate(WRITE, [D8_KEY, newer])  # a lesson tab of a newer deploy saves meanwhile
    page.get_by_role("button", name=BRING_IN).click()
    again = confirm_course(incoming, here({**records, "d8": newer}), WORKED)
    assert again.changed
    expect(message(page)).to_have_text(summary(again))
    stored = page.evaluate(STORED)
    assert (stored[D8_KEY], stored[L82_KEY]) == (newer, records["8-2"])
    page.get_by_role("button", name=BRING_IN).click()
    expect(message(page)).to_have_text(brought_in(again, WORKED))
    assert page.evaluate(STORED)[D8_KEY] == newer
    assert errors == []


def takeaway_choice(page: Page) -> Any:
    return page.get_by_role("group", name="8.2: which takeaway to keep")


def test_of_two_takeaways_the_learner_chooses_and_a_later_one_shows_the_summary_again(
    page: Page, site_url: str
) -> None:
    mine = "written here, later"
    records = {"8-2": to_json(save_takeaway(FINISHED["8-2"], mine))}
    errors = open_the_track(page, site_url, records)
    page.evaluate(OPEN_LINK, progress_link({"8-2": FINISHED["8-2"]}))
    expect(message(page)).to_contain_text("8.2: the link brings nothing new but its takeaway")
    choice = takeaway_choice(page)
    expect(choice.get_by_role("radio", name=f"Yours here: “{mine}”")).to_be_checked()
    theirs = choice.get_by_role("radio", name=f"The link's: “{FINISHED['8-2'].takeaway}”")
    expect(page.get_by_role("button", name=BRING_IN)).to_be_hidden()  # nothing would change
    theirs.check()
    page.get_by_role("button", name=BRING_IN).click()
    expect(message(page)).to_have_text(re.compile("^Brought in from the link: 8.2."))
    expect(choice).to_be_hidden()
    assert json.loads(page.evaluate(STORED)[L82_KEY])["takeaway"] == FINISHED["8-2"].takeaway

    # A takeaway saved in another tab while the summary waits: it is shown again, to choose.
    page.evaluate(WRITE, [L82_KEY, to_json(started(WORKED["8-2"]))])
    page.evaluate(OPEN_LINK, LINK)
    expect(choice).to_be_hidden()
    meanwhile = "saved in another tab meanwhile"
    page.evaluate(WRITE, [L82_KEY, to_json(save_takeaway(started(WORKED["8-2"]), meanwhile))])
    page.get_by_role("button", name=BRING_IN).click()
    expect(message(page)).to_contain_text("Your progress here changed since you opened the link")
    expect(choice.get_by_role("radio", name=f"Yours here: “{meanwhile}”")).to_be_checked()
    page.get_by_role("button", name=BRING_IN).click()
    expect(message(page)).to_have_text(re.compile("^Brought in from the link: 8.2, D8, "))
    assert json.loads(page.evaluate(STORED)[L82_KEY])["takeaway"] == meanwhile
    assert errors == []


def test_a_prediction_locked_here_stays_with_its_reason_and_the_summary_says_so(
    page: Page, site_url: str
) -> None:
    lesson = LESSONS["8-2"]
    first = lesson.predictions[0]
    theirs = FINISHED["8-2"].prediction
    assert theirs is not None
    assert theirs != first.id
    mine = lock_prediction(Progress(), lesson, first.id, "my own reason")
    errors = open_the_track(page, site_url, {"8-2": to_json(mine)})
    page.evaluate(OPEN_LINK, LINK)
    expect(message(page)).to_contain_text(
        f"The link's locked prediction (“{lesson.prediction_label(theirs)}”)"
        f" differs from yours here (“{first.label}”): yours stays")
    page.get_by_role("button", name=BRING_IN).click()
    expect(message(page)).to_have_text(re.compile("^Brought in from the link: 8.2, D8, "))
    assert errors == []
    open_page(page, f"{site_url}8-2/")
    assert first.label == L82.right_prediction
    expect(page.get_by_role("radio", name=first.label)).to_be_checked()
    expect(page.get_by_role("radio", name=first.label)).to_be_disabled()
    expect(page.get_by_label(WHY_LABEL)).to_have_value("my own reason")


def test_a_confirm_storage_refuses_stores_nothing_names_the_lesson_and_keeps_the_link(
    page: Page, site_url: str
) -> None:
    records = {"8-2": to_json(started(WORKED["8-2"]))}
    page.add_init_script(D8_REFUSED)
    errors = open_the_track(page, site_url, records)
    page.evaluate(OPEN_LINK, LINK)
    before = page.evaluate(STORED)
    page.get_by_role("button", name=BRING_IN).click()
    incoming = read_link(LINK, here(records), WORKED)
    refused = ("Nothing was brought in: this browser's storage refused D8's progress (it may be "
               "full), so every lesson is as it was. Free some space for this site, then bring "
               "it in again.")
    expect(message(page)).to_have_text(summary(incoming, refused))
    assert page.evaluate(STORED) == before  # 8.2, written first, is back as it was
    expect(page).to_have_url(re.compile(re.escape(LINK)))
    expect(lesson_row(page, "8.2")).to_contain_text("Status: in progress")
    page.evaluate("() => { window.storageFull = false; }")
    page.get_by_role("button", name=BRING_IN).click()
    expect(message(page)).to_have_text(brought_in(incoming, WORKED))
    expect(page).not_to_have_url(re.compile("#"))
    expect(lesson_row(page, "8.2")).to_contain_text("Status: done")
    assert errors == []


def test_with_site_data_blocked_the_summary_says_nothing_can_be_kept_and_offers_no_confirm(
    blocked_page: Page, site_url: str
) -> None:
    page = blocked_page
    errors = watch_errors(page)
    open_page(page, f"{site_url}{LINK}")
    expect(message(page)).to_have_text(re.compile(
        r"This browser is not letting the page save, so nothing can be brought in here: allow "
        r"this site to keep data, then try again\.$"))
    expect(page.get_by_role("button", name=BRING_IN)).to_be_hidden()
    expect(page).to_have_url(re.compile(re.escape(LINK)))
    assert errors == []


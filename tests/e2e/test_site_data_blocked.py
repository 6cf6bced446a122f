"""D8 starts and its lesson works in memory when IndexedDB, or all site data, is refused."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserType, Page, expect

from conftest import watch_errors
from learner import MIXED_ANSWERS, check_answers, gate, lock_prediction, lock_reading, open_d8, runs

NOT_SAVING = ("This browser is not letting the page save, so your progress lasts only while "
              "this tab is open.")
# indexedDB.open itself throws, as it may where storage is denied.
OPEN_THROWS = """IDBFactory.prototype.open = function () {
  throw new DOMException("The user denied permission to access the database.", "SecurityError");
};"""
# indexedDB.open returns a real request that then fails: the database is first made newer
# than the version asked for, so the request gets a VersionError event.
OPEN_FAILS = """{
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (name) {
    open.call(this, name, 2);
    return open.call(this, name, 1);
  };
}"""
# Run through the DevTools protocol, so the page's CSP does not apply to it.
TRY_INDEXEDDB = """async () => {
  try {
    const request = indexedDB.open("attention-lessons-probe");
    return await new Promise((resolve) => {
      request.onsuccess = () => resolve("opened");
      request.onerror = () => resolve(`failed: ${request.error}`);
    });
  } catch (error) {
    return `threw: ${error}`;
  }
}"""


def work_the_lesson(page: Page, d8_url: str) -> None:
    """Boot, lock the prediction, see both heads' numbers, check six answers, meet the gate."""
    open_d8(page, d8_url)
    lock_prediction(page)
    for head, output in (("head A, coordinate 1", "1.3760"), ("head B, coordinate 2", "0.8744")):
        expect(page.get_by_role("article", name=head)).to_contain_text(
            f"The output is {output}.")
    check_answers(page, MIXED_ANSWERS)
    expect(runs(page)).to_have_text("You have run it 1 time.")
    lock_reading(page)
    expect(gate(page)).to_have_accessible_name("Your check: an outcome you produce met")
    expect(page.get_by_text("6 of 6 numbers within tolerance, 5 needed. "
                            "The right reading is locked in.")).to_be_visible()


@pytest.fixture
def blocked_page(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any], tmp_path: Path
) -> Iterator[Page]:
    """A page in a Chromium profile whose preferences block all site data."""
    default = tmp_path / "profile" / "Default"
    default.mkdir(parents=True)
    blocked = {"profile": {"default_content_setting_values": {"cookies": 2}}}
    (default / "Preferences").write_text(json.dumps(blocked), encoding="utf-8")
    context = browser_type.launch_persistent_context(tmp_path / "profile",
                                                     **browser_type_launch_args)
    try:
        yield context.pages[0] if context.pages else context.new_page()
    finally:
        context.close()


def test_with_all_site_data_blocked_the_lesson_works_in_memory(
    blocked_page: Page, d8_url: str
) -> None:
    page = blocked_page
    errors = watch_errors(page)
    work_the_lesson(page, d8_url)
    # The fault is real: this profile refuses IndexedDB as well as localStorage.
    assert page.evaluate(TRY_INDEXEDDB).startswith("failed: ")
    expect(page.get_by_role("alert")).to_have_text(NOT_SAVING)
    assert errors == []


@pytest.mark.parametrize("fault", [OPEN_THROWS, OPEN_FAILS], ids=["open-throws", "open-fails"])
def test_when_indexeddb_fails_the_lesson_still_works(
    page: Page, d8_url: str, console_errors: list[str], fault: str
) -> None:
    page.add_init_script(fault)
    work_the_lesson(page, d8_url)
    assert page.evaluate(TRY_INDEXEDDB).startswith(("threw: ", "failed: "))
    # Only IndexedDB fails here, so progress is still saved and no notice shows.
    expect(page.get_by_role("alert")).to_be_hidden()
    assert console_errors == []

"""Storage full, then free again: every change tries to save and nothing called saved is lost."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from learner import (
    MIXED_ANSWERS,
    check_answers,
    lock_prediction,
    open_d8,
    reload_d8,
    runs,
    save_takeaway,
)

# A quota the test can switch on and off; evaluate runs over DevTools, outside the page's CSP.
QUOTA = """
window.storageFull = true;
const realSetItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (window.storageFull) {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  }
  return realSetItem.call(this, key, value);
};
"""
NOT_SAVED = re.compile(r"^Your latest change is not saved: this browser's storage refused it")


def test_saving_resumes_once_storage_is_free_and_nothing_is_lost(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    page.add_init_script(QUOTA)
    open_d8(page, d8_url)
    notice = page.get_by_role("alert")
    lock_prediction(page)
    expect(notice).to_have_text(NOT_SAVED)
    save_takeaway(page, "Kept while full.")
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_accessible_description(
        re.compile("this browser has not saved it"))
    page.evaluate("() => { window.storageFull = false; }")
    check_answers(page, MIXED_ANSWERS)
    expect(notice).to_be_hidden()
    page.evaluate("() => { window.storageFull = true; }")
    page.get_by_role("button", name="Save takeaway").click()
    expect(notice).to_have_text(NOT_SAVED)
    page.evaluate("() => { window.storageFull = false; }")
    save_takeaway(page, "Saved once free.")
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_accessible_description(
        re.compile("Saved in this browser"))
    expect(notice).to_be_hidden()
    reload_d8(page)
    expect(page.get_by_role("button", name="Prediction locked in")).to_be_disabled()
    expect(runs(page)).to_have_text("You have run it 1 time.")
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_value("Saved once free.")
    assert console_errors == []

"""Download my progress, and import it back: checked first, it says what it will replace."""

from __future__ import annotations

import json

from learner import (
    MIXED_ANSWERS,
    check_answers,
    lock_prediction,
    open_d8,
    reset_progress,
    runs,
)
from playwright.sync_api import FilePayload, Page, expect


def test_a_downloaded_file_imports_back_after_a_reset(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    open_d8(page, d8_url)
    lock_prediction(page)
    check_answers(page, MIXED_ANSWERS)
    page.get_by_text("Download or import my progress", exact=True).click()
    with page.expect_download() as info:
        page.get_by_role("button", name="Download my progress").click()
    download = info.value
    assert download.suggested_filename == "attention-lessons-d8-progress.json"
    saved = json.loads(download.path().read_text(encoding="utf-8"))
    assert (saved["lesson"], saved["progress"]["runs"]) == ("d8", 1)
    reset_progress(page)
    expect(runs(page)).to_have_text("You have run it 0 times.")
    page.get_by_label("Import progress").set_input_files(download.path())
    expect(page.get_by_text("Importing replaces your progress here (no prediction, zero runs",
                            exact=False)).to_be_visible()
    page.get_by_role("button", name="Replace my progress with the file's").click()
    expect(page.get_by_text("Imported: your progress here is now the file's.")).to_be_visible()
    expect(runs(page)).to_have_text("You have run it 1 time.")
    expect(page.get_by_role("button", name="Prediction locked in")).to_be_disabled()
    assert console_errors == []


def test_a_bad_file_gets_a_clear_message_and_changes_nothing(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    open_d8(page, d8_url)
    lock_prediction(page)
    page.get_by_text("Download or import my progress", exact=True).click()
    bad: FilePayload = {"name": "progress.json", "mimeType": "application/json",
                        "buffer": b"{not json"}
    page.get_by_label("Import progress").set_input_files(bad)
    expect(page.get_by_text("That file is not a progress file (it is not JSON). Nothing was "
                            "changed.")).to_be_visible()
    expect(page.get_by_role("button", name="Replace my progress with the file's")).to_be_hidden()
    page.reload()
    expect(page.get_by_role("button", name="Prediction locked in")).to_be_disabled(timeout=60_000)
    assert console_errors == []

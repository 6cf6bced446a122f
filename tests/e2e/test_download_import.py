"""Download my progress, and import it back: checked first, it says what it will replace."""

from __future__ import annotations

import json
import re
from pathlib import Path

from playwright.sync_api import FilePayload, Page, expect

from learner import (
    MIXED_ANSWERS,
    check_answers,
    download_progress,
    lock_prediction,
    open_d8,
    reset_progress,
    runs,
)

REPLACE = "Replace my progress with the file's"
TOO_BIG = "That file is far too big to be progress saved from this site. Nothing was changed."
TRANSFER = "Download or import my progress"


def progress_file(page: Page) -> FilePayload:
    """Lock a prediction, check the answers once, download the file, and reset."""
    lock_prediction(page)
    check_answers(page, MIXED_ANSWERS)
    download = download_progress(page)
    reset_progress(page)
    expect(runs(page)).to_have_text("You have run it 0 times.")
    return {"name": "progress.json", "mimeType": "application/json",
            "buffer": download.path().read_bytes()}


def start_again(page: Page) -> None:
    """Reset, and close "Download or import my progress", which a Reset leaves open: each step
    opens it, as a page just started has it closed."""
    reset_progress(page)
    page.get_by_text(TRANSFER, exact=True).click()
    expect(page.get_by_role("button", name="Download my progress")).to_be_hidden()
    expect(runs(page)).to_have_text("You have run it 0 times.")


def a_downloaded_file_imports_back_after_a_reset(page: Page) -> None:
    lock_prediction(page)
    check_answers(page, MIXED_ANSWERS)
    download = download_progress(page)
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


def the_confirm_replaces_only_what_the_summary_said_at_that_moment(page: Page) -> None:
    file = progress_file(page)
    page.get_by_label("Import progress").set_input_files(file)
    expect(page.get_by_role("status").filter(has_text="Importing replaces")).to_have_text(
        re.compile(r"^Importing replaces your progress here \(no prediction, zero runs"))
    lock_prediction(page)  # the progress here changes after the summary was shown
    check_answers(page, {**MIXED_ANSWERS, "Head A, the output": "1.3760"})
    expect(runs(page)).to_have_text("You have run it 1 time.")
    page.get_by_role("button", name=REPLACE).click()
    expect(page.get_by_role("status").filter(has_text="Importing replaces")).to_have_text(
        re.compile(r"^Your progress here changed since you chose the file, so nothing was "
                   r"replaced yet\. Importing replaces your progress here \(a locked "
                   r"prediction, one run, "))
    page.get_by_role("button", name=REPLACE).click()
    expect(page.get_by_text("Imported: your progress here is now the file's.")).to_be_visible()


def a_far_too_big_file_then_a_good_one_leaves_only_the_good_ones_verdict(
    page: Page, tmp_path: Path
) -> None:
    """The Replace button shows only once the good file's summary replaced the message, so
    the "Imported" that follows is this step's, not the step's before."""
    file = progress_file(page)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as out:
        out.truncate(50_000_000)
    chooser = page.get_by_label("Import progress")
    chooser.set_input_files(huge)
    chooser.set_input_files(file)
    expect(page.get_by_role("button", name=REPLACE)).to_be_visible()
    page.get_by_role("button", name=REPLACE).click()
    expect(page.get_by_text("Imported: your progress here is now the file's.")).to_be_visible()
    expect(page.get_by_text(TOO_BIG)).to_have_count(0)
    chooser.set_input_files(huge)
    expect(page.get_by_text(TOO_BIG)).to_be_visible()
    expect(page.get_by_role("button", name=REPLACE)).to_be_hidden()


def a_crafted_file_is_refused_at_once(page: Page) -> None:
    """The issue's crafted text, 200 KB: the nesting check used to take minutes on it."""
    page.get_by_text(TRANSFER, exact=True).click()
    crafted = "[" * 21 + '"' + '\\"' * 99_980
    assert len(crafted) < 200_000
    page.get_by_label("Import progress").set_input_files(
        {"name": "crafted.json", "mimeType": "application/json", "buffer": crafted.encode()})
    expect(page.get_by_text("That file nests deeper than 20 levels, so it is not progress saved "
                            "from this site. Nothing was changed.")).to_be_visible(timeout=5_000)
    lock_prediction(page)  # and the page answers again at once


def a_bad_file_gets_a_clear_message_and_changes_nothing(page: Page) -> None:
    """Last: it reloads."""
    lock_prediction(page)
    page.get_by_text(TRANSFER, exact=True).click()
    bad: FilePayload = {"name": "progress.json", "mimeType": "application/json",
                        "buffer": b"{not json"}
    page.get_by_label("Import progress").set_input_files(bad)
    expect(page.get_by_text("That file is not a progress file (it is not JSON). Nothing was "
                            "changed.")).to_be_visible()
    expect(page.get_by_role("button", name="Replace my progress with the file's")).to_be_hidden()
    page.reload()
    expect(page.get_by_role("button", name="Prediction locked in")).to_be_disabled(timeout=60_000)


def test_files_import_back_as_summarised_and_huge_crafted_or_bad_ones_change_nothing(
    page: Page, d8_url: str, tmp_path: Path, console_errors: list[str]
) -> None:
    """One start of D8 shared by five checks that each began with the same visit, in turn,
    with a Reset between; the bad file's, which reloads, comes last."""
    open_d8(page, d8_url)
    a_downloaded_file_imports_back_after_a_reset(page)
    start_again(page)
    the_confirm_replaces_only_what_the_summary_said_at_that_moment(page)
    start_again(page)
    a_far_too_big_file_then_a_good_one_leaves_only_the_good_ones_verdict(page, tmp_path)
    start_again(page)
    a_crafted_file_is_refused_at_once(page)
    start_again(page)
    a_bad_file_gets_a_clear_message_and_changes_nothing(page)
    assert console_errors == []

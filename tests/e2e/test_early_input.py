"""Input made while Python starts is kept: a prediction locked early is applied once it is ready."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import BrowserContext, FilePayload, Page, Route, expect

from attention_lessons import COURSE_FILE, DOWNLOADED, LESSONS, export_json
from conftest import python_ready
from course_work import FINISHED
from learner import D8, EARLY_LOCK, PLANS, WHY, WHY_LABEL, Plan


def open_held(page: Page, url: str) -> list[Route]:
    """Open a page while its runtime download is held, so Python cannot start yet."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/pyodide.asm.wasm", hold)
    with page.expect_request(lambda request: request.url.endswith("/pyodide.asm.wasm")):
        page.goto(url)
    return held


def release(page: Page, held: list[Route]) -> None:
    assert held, "the runtime request was not held"
    for route in held:
        route.continue_()
    page.unroute("**/pyodide.asm.wasm")  # a reload later must start at once
    python_ready(page)


@pytest.mark.parametrize("plan", PLANS, ids=[plan.slug for plan in PLANS])
def test_a_prediction_locked_while_python_starts_is_applied(
    page: Page, site_url: str, console_errors: list[str], plan: Plan
) -> None:
    held = open_held(page, f"{site_url}{plan.slug}/")
    page.get_by_role("radio", name=plan.right_prediction).check()
    page.get_by_label(WHY_LABEL).fill(WHY)
    page.get_by_role("button", name="Lock in my prediction").click()
    expect(page.get_by_text(EARLY_LOCK)).to_be_visible()
    expect(page.get_by_role("button", name="Prediction locked in")).to_be_disabled()
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_hidden()  # nothing computed
    release(page, held)
    expect(page.get_by_text("Locked in while Python was starting, and now applied.",
                            exact=False)).to_be_visible()
    expect(page.get_by_role("radio", name=plan.right_prediction)).to_be_checked()
    expect(page.get_by_label(WHY_LABEL)).to_have_value(WHY)
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_visible()
    page.reload()
    python_ready(page)
    expect(page.get_by_role("radio", name=plan.right_prediction)).to_be_checked()
    expect(page.get_by_role("radio", name=plan.right_prediction)).to_be_disabled()
    assert console_errors == []


def test_a_choice_not_locked_yet_survives_python_starting(
    page: Page, site_url: str, console_errors: list[str]
) -> None:
    plan = D8
    held = open_held(page, f"{site_url}{plan.slug}/")
    page.get_by_role("radio", name=plan.wrong_prediction).check()
    page.get_by_label(WHY_LABEL).fill(WHY)
    release(page, held)
    expect(page.get_by_role("radio", name=plan.wrong_prediction)).to_be_checked()
    expect(page.get_by_label(WHY_LABEL)).to_have_value(WHY)
    page.get_by_role("button", name="Lock in my prediction").click()
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_visible()
    assert console_errors == []


def test_the_tracks_backup_waits_for_python_and_then_works(
    page: Page, site_url: str, console_errors: list[str]
) -> None:
    """Before Python is ready a click on the track's backup would do nothing: the controls say
    so by being disabled, and work once it is."""
    controls = (page.get_by_role("button", name="Keep my progress in this browser"),
                page.get_by_role("button", name="Download all my progress"),
                page.get_by_role("button", name="Copy link"),
                page.get_by_label("Import progress: the course's file, or one lesson's"))
    held = open_held(page, site_url)
    for control in controls:
        expect(control).to_be_disabled()
    release(page, held)
    for control in controls:
        expect(control).to_be_enabled()
    with page.expect_download() as download:
        controls[1].click()
    assert download.value.suggested_filename == COURSE_FILE
    expect(page.get_by_text(DOWNLOADED)).to_be_visible()
    expect(page.get_by_text("Last backed up: never")).to_have_count(0)
    assert console_errors == []


def test_a_lessons_download_import_and_reset_wait_for_python_and_say_so(
    page: Page, site_url: str, console_errors: list[str]
) -> None:
    """A file chosen in Import before Python is ready would be dropped without a word: the
    controls are disabled until then, with a note that says why."""
    controls = (page.get_by_role("button", name="Download my progress"),
                page.get_by_label("Import progress", exact=True),
                page.get_by_role("button", name="Yes, forget my progress"))
    notes = (page.get_by_text("Download and Import wait for Python to start."),
             page.get_by_text("Reset waits for Python to start."))
    held = open_held(page, f"{site_url}d8/")
    page.get_by_text("Download or import my progress").click()
    page.get_by_text("Reset my progress").click()
    for control in controls:
        expect(control).to_be_disabled()
    for note in notes:
        expect(note).to_be_visible()
    release(page, held)
    for control in controls:
        expect(control).to_be_enabled()
    for note in notes:
        expect(note).to_be_hidden()
    file: FilePayload = {"name": "progress.json", "mimeType": "application/json",
                         "buffer": export_json(FINISHED["d8"], LESSONS["d8"]).encode()}
    controls[1].set_input_files(file)
    expect(page.get_by_text("Importing replaces your progress here")).to_be_visible()
    assert console_errors == []


def test_a_saved_locked_prediction_wins_and_the_page_says_so(
    page: Page, site_url: str, console_errors: list[str]
) -> None:
    record = {"version": 1, "prediction": "same", "why": "saved", "answers": {}, "graded": {},
              "attempts": {}, "runs": 0, "hints_opened": 0, "reading": None,
              "projection": [[1, 0], [0, 1]], "takeaway": None}
    page.add_init_script(f"localStorage.setItem('attention-lessons:d8:progress', "
                         f"{json.dumps(json.dumps(record))});")
    plan = D8
    held = open_held(page, f"{site_url}d8/")
    page.get_by_role("radio", name=plan.right_prediction).check()
    page.get_by_role("button", name="Lock in my prediction").click()
    release(page, held)
    expect(page.get_by_text("was already saved as your locked prediction (from another tab or "
                            "an earlier visit), so it stands;", exact=False)).to_be_visible()
    expect(page.get_by_role("radio", name=plan.wrong_prediction)).to_be_checked()
    expect(page.get_by_label(WHY_LABEL)).to_have_value("saved")
    assert console_errors == []


def test_two_tabs_locking_while_python_starts_say_which_lock_stands(
    page: Page, context: BrowserContext, site_url: str, console_errors: list[str]
) -> None:
    """The first tab whose Python starts saves its lock; the other says so, naming both."""
    plan = D8
    other = context.new_page()
    held = {tab: open_held(tab, f"{site_url}d8/") for tab in (page, other)}
    for tab, choice in ((page, plan.right_prediction), (other, plan.wrong_prediction)):
        tab.get_by_role("radio", name=choice).check()
        tab.get_by_role("button", name="Lock in my prediction").click()
        expect(tab.get_by_text(EARLY_LOCK)).to_be_visible()
    release(page, held[page])
    expect(page.get_by_text("Locked in while Python was starting, and now applied.",
                            exact=False)).to_be_visible()
    release(other, held[other])
    expect(other.get_by_text(
        f"\u201c{plan.right_prediction}\u201d was already saved as your locked prediction (from "
        f"another tab or an earlier visit), so it stands; \u201c{plan.wrong_prediction}\u201d "
        "chosen here while Python was starting was not used.")).to_be_visible()
    expect(other.get_by_role("radio", name=plan.right_prediction)).to_be_checked()
    assert console_errors == []

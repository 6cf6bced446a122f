"""The track's backup in Chromium: hostile files and links, each with the engine's message and
every record byte for byte as it was; the persist control asked only on the click, its every
answer said; a lesson's keep control and its back-up suggestion, dismissed for good."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Any

from playwright.sync_api import FilePayload, Page, expect

from attention_lessons import (
    FAILED,
    KEPT,
    LESSONS,
    MAY_BE_CLEARED,
    NO_API,
    SUGGESTION,
    LessonError,
    check_size,
    export_course,
    incoming_update,
    persist_said,
    read_course,
    read_link,
    store_key,
    track_view,
)
from attention_lessons.progress import COURSE_KIND, progress_link, to_json
from conftest import origin, python_ready
from course_work import FINISHED, WORKED, document, spoiled, started
from learner import D8, check_answers, gate, lock_prediction, lock_reading, open_page
from stored import sealed, sealed_json
from test_accessibility import assert_accessible
from test_track import lesson_row

HERE = {**FINISHED, "d8": started(WORKED["d8"])}  # what this browser holds before each case
# Seeds the records before the page's own scripts run, once.
SEED = """(records) => {
  for (const [key, value] of Object.entries(records))
    if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
}"""
STORED = "() => Object.fromEntries(Object.entries(localStorage))"
MARKUP = '<img src=x onerror="alert(1)"> <b>done</b> &amp; </textarea><script>x()</script>'
IMPORT = "Import progress: the course's file, or one lesson's"
KEEP = "Keep my progress in this browser"
# Counts the page's calls of persist(), wrapped before any of its scripts run.
COUNT_PERSIST = """
window.persistCalls = 0;
const persist = StorageManager.prototype.persist;
StorageManager.prototype.persist = function () {
  window.persistCalls += 1;
  return persist.call(this);
};
"""


def seed(page: Page) -> None:
    records = {store_key(LESSONS[slug]): to_json(record) for slug, record in HERE.items()}
    page.add_init_script(f"({SEED})({json.dumps(records)})")


def lacking() -> dict[str, Any]:
    return {"kind": COURSE_KIND, "version": 1, "lessons": {"9-9": asdict(FINISHED["d8"])}}


def changed_one_character(link: str) -> str:
    middle = len(link) // 2
    return link[:middle] + ("B" if link[middle] == "A" else "A") + link[middle + 1:]


# Each hostile case: ("file", its bytes) or ("link", its fragment), and what it is; in an order
# where no two cases in a row get the same message, so each wait sees its own case's message.
LINK = progress_link(FINISHED)
CASES: list[tuple[str, str, bytes | str]] = [
    ("file", "empty", b""),
    ("link", "empty", "#progress="),
    ("file", "truncated", export_course(FINISHED)[:-40].encode()),
    ("link", "truncated", LINK[:-12]),
    ("file", "another site's", json.dumps({"kind": "someone else's notes"}).encode()),
    ("link", "one character changed", changed_one_character(LINK)),
    ("file", "another kind", json.dumps({"kind": "attention-lessons settings"}).encode()),
    ("link", "another site's", sealed_json({"kind": "someone else's notes"})),
    ("file", "10 MB", b" " * 10_000_000),
    ("link", "cut inside its prefix", "#progre"),
    ("link", "another kind", sealed_json({"kind": "attention-lessons settings"})),
    ("file", "100,000 deep", b"[" * 100_000),
    ("link", "unpacking to 10 MB", sealed(b" " * 10_000_000)),
    ("file", "markup in the takeaway", json.dumps(spoiled("d8", takeaway=MARKUP)).encode()),
    ("link", "100,000 deep", sealed(b"[" * 100_000 + b"]" * 100_000)),
    ("file", "a gate claimed but not met", json.dumps(spoiled("d8", answers={}, gate=True))
     .encode()),
    ("link", "over 50,000 characters", "#progress=1." + "A" * 60_000),
    ("file", "an unknown field", json.dumps(document(notes="mine")).encode()),
    ("link", "its equals sign escaped on the way", LINK.replace("=", "%3D", 1)),
    ("link", "a future version", "#progress=2." + LINK.removeprefix("#progress=1.")),
    ("file", "a future version", json.dumps(document(version=2)).encode()),
    ("link", "a lesson this build lacks", sealed_json(lacking())),
    ("file", "a lesson this build lacks", json.dumps(lacking()).encode()),
    ("link", "an unknown field in a record", sealed_json(spoiled("8-2", notes="mine"))),
    ("link", "markup in the takeaway", sealed_json(spoiled("d8", takeaway=MARKUP))),
    ("link", "its prefix escaped and cut", "#progress%3D"),
]


def expected(what: str, payload: bytes | str) -> str:
    """What the page must say: the engine's own message, or its summary, for this case."""
    try:
        if what == "file":
            assert isinstance(payload, bytes)
            check_size(len(payload))
            incoming = read_course(payload.decode(), HERE, WORKED, "file")
        else:
            assert isinstance(payload, str)
            incoming = read_link(payload, HERE, WORKED)
    except LessonError as error:
        return str(error)
    return incoming_update(incoming, WORKED).texts["course_import_message"]


def test_hostile_files_and_links_get_their_message_and_leave_every_record_as_it_was(
    page: Page, site_url: str, console_errors: list[str]
) -> None:
    said = [expected(what, payload) for what, _, payload in CASES]
    assert all(one != then for one, then in zip(said[1:], said, strict=False))
    assert sum(text.endswith(" Nothing was changed.") for text in said) >= 12
    seed(page)
    open_page(page, site_url)
    before = page.evaluate(STORED)
    message = page.locator("#course_import_message")
    for (what, name, payload), text in zip(CASES, said, strict=True):
        if what == "file":
            assert isinstance(payload, bytes)
            file: FilePayload = {"name": "progress.json", "mimeType": "application/json",
                                 "buffer": payload}
            page.get_by_label(IMPORT).set_input_files(file)
        else:
            page.evaluate("(fragment) => { location.hash = fragment; }", payload)
        expect(message, f"{what}: {name}").to_have_text(text)
        told = "Nothing was changed." not in text  # markup, or a gate claimed: shown, not taken
        expect(page.get_by_role("button", name="Bring in", exact=False)).to_be_visible(
            visible=told)
    assert message.evaluate("(element) => element.children.length") == 0  # text, not markup
    assert page.evaluate(STORED) == before
    for row in track_view(HERE, WORKED):
        expect(lesson_row(page, LESSONS[row.slug].code)).to_contain_text(row.status)
    page.get_by_role("button", name="Copy link").click()  # its field shown, copied or not
    expect(page.get_by_label("Your progress link")).to_have_value(re.compile(r"#progress=1\."))
    assert_accessible(page, "on the track, a summary and the link shown")
    assert console_errors == []


def test_keep_my_progress_asks_the_browser_only_on_the_click_and_says_each_answer(
    page: Page, site_url: str, console_errors: list[str]
) -> None:
    page.add_init_script(COUNT_PERSIST)
    open_page(page, site_url)
    expect(page.get_by_text("Your progress is kept in this browser only, and this browser has "
                            "not agreed to keep it")).to_be_visible()
    expect(page.get_by_text("Last backed up: never.")).to_be_visible()
    assert page.evaluate("() => window.persistCalls") == 0
    session = page.context.new_cdp_session(page)  # the warm profile is the default context

    def answer(setting: str) -> None:
        session.send("Browser.setPermission", {"permission": {"name": "persistent-storage"},
                                               "setting": setting, "origin": origin(site_url)})

    try:
        answer("denied")
        page.get_by_role("button", name=KEEP).click()
        expect(page.get_by_text(persist_said(MAY_BE_CLEARED))).to_be_visible()
        answer("granted")
        page.get_by_role("button", name=KEEP).click()
        expect(page.get_by_text(persist_said(KEPT))).to_be_visible()
        expect(page.get_by_text("this browser has agreed to keep it.")).to_be_visible()
        assert page.evaluate("() => window.persistCalls") == 2
        page.evaluate("""() => { StorageManager.prototype.persist = () => {
                                   throw new Error("refused"); }; }""")
        page.get_by_role("button", name=KEEP).click()
        expect(page.get_by_text(persist_said(FAILED))).to_be_visible()
        page.evaluate("() => { delete StorageManager.prototype.persist; }")
        page.get_by_role("button", name=KEEP).click()
        expect(page.get_by_text(persist_said(NO_API))).to_be_visible()
    finally:
        answer("prompt")
        session.detach()
    assert console_errors == []


def test_a_lesson_offers_to_keep_its_work_and_suggests_a_backup_until_dismissed(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    page.add_init_script(COUNT_PERSIST)
    open_page(page, d8_url)
    keep = page.get_by_role("button", name=KEEP)
    expect(keep).to_be_hidden()
    lock_prediction(page, D8.right_prediction)
    expect(keep).to_be_visible()
    check_answers(page, D8.right_answers)
    lock_reading(page, D8.right_reading)
    expect(gate(page)).to_contain_text("Met.")
    suggestion = page.get_by_text(SUGGESTION)
    expect(suggestion).to_be_visible()
    expect(page.get_by_role("link", name="Back up on the track")).to_have_attribute(
        "href", "../#backup")
    page.get_by_role("button", name="Dismiss").click()
    expect(suggestion).to_be_hidden()
    expect(keep).to_be_focused()
    page.reload()
    python_ready(page)
    expect(keep).to_be_visible()
    expect(suggestion).to_be_hidden()
    assert page.evaluate("() => window.persistCalls") == 0
    assert console_errors == []

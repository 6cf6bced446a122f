"""A lesson's record moving in and out of the page: Download, Import, and what another tab
saved or the back-forward cache kept."""

from __future__ import annotations

from typing import Any

from pyodide.ffi import create_proxy
from pyscript import window

import attention_lessons as course

from . import lesson
from .dom import by_id, download, on, say, show


@on("click", "#download_progress")
def on_download(event: Any) -> None:
    page = lesson.PAGE
    download(course.export_name(page.lesson), course.export_json(page.progress, page.lesson))


@on("change", "#import_file")
async def on_import(event: Any) -> None:
    page = lesson.PAGE
    chosen = by_id("import_file").files  # currentTarget is null once an async handler runs
    show("import_confirm", False)
    say("import_message", "")
    page.incoming = None
    try:
        text = await page.chosen.text(chosen)
        if text is None:  # none chosen, or another file chosen meanwhile: its verdict stands
            return
        page.incoming = course.read_import(text, page.progress, page.worked)
    except course.LessonError as error:
        say("import_message", str(error))
        return
    say("import_message", page.incoming.summary)
    show("import_confirm")


@on("click", "#import_confirm")
def on_import_confirm(event: Any) -> None:
    page = lesson.PAGE
    if page.incoming is None:  # the confirm is hidden while no file is read (on_import)
        return
    again = course.confirm_import(page.incoming, page.progress, page.worked)
    if again is not None:  # the progress here changed since the summary: say it anew
        page.incoming = again
        say("import_message", again.summary)
        return
    progress, outcome = page.store.put(page.lesson, page.incoming.progress)
    if outcome is not course.Outcome.SAVED and page.store.storage is not None:
        say("import_message", course.not_imported(outcome))  # stored nowhere: nothing replaced
        return
    page.settle(progress, outcome)  # where site data is blocked, the file's, in this tab
    page.restore_fields()
    page.incoming = None
    show("import_confirm", False)
    by_id("import_file").value = ""
    say("import_message", "Imported: your progress here is now the file's.")


def take_in_saved() -> None:
    """Take in what was saved for this lesson elsewhere, keeping this tab's own work."""
    page = lesson.PAGE
    before = page.progress
    page.progress, outcome = page.store.sync(page.lesson, before)
    told = outcome in (course.Outcome.FROM_OTHER_TAB, course.Outcome.RESET_ELSEWHERE)
    page.notice(course.Outcome.SAVED if told else outcome)
    page.render()
    page.restore_fields(before)
    if told:
        say("sync_notice", course.said(outcome))
        show("sync_notice")


def on_storage(event: Any) -> None:
    """Another tab saved: this lesson's work, or maybe the lesson this one builds on."""
    if event.key in (course.store_key(lesson.PAGE.lesson), None):
        take_in_saved()
    lesson.render_waiting(lesson.PAGE)


def on_shown(event: Any) -> None:
    """Back on a page the browser kept whole for "back" (its back-forward cache): no script
    runs again there, and Firefox and WebKit send it no storage event for what was saved
    meanwhile, so read what it may have missed."""
    if event.persisted:
        take_in_saved()
        lesson.render_waiting(lesson.PAGE)


def listen() -> None:
    window.addEventListener("storage", create_proxy(on_storage))
    window.addEventListener("pageshow", create_proxy(on_shown))

"""The track page's DOM code: each lesson's status, derived from what this browser saved, and
the whole course's progress: where it is kept, and its backup as a file or a link."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from pyodide.ffi import create_proxy, to_js
from pyscript import window

import attention_lessons as course

from . import persist
from .dom import LastChosen, apply, by_id, download, on, open_storage, say, show, work

WORKED: dict[str, course.Worked] = {}  # slug -> the lesson worked on its fixture, by start()


class Track:
    """The track's session: its store, and the backup chosen or opened, until confirmed."""

    def __init__(self) -> None:
        self.store = course.Store(open_storage())
        self.incoming: course.CourseIncoming | None = None  # the backup offered, until confirmed
        self.chosen = LastChosen()  # the files chosen for Import: the last gets a verdict


TRACK: Track  # made by start(), before any of the track's events can come
# The tasks started and not done: the event loop keeps only weak references to them.
RUNNING: set[asyncio.Task[None]] = set()


def soon(coroutine: Awaitable[None]) -> None:
    """Run a coroutine (an answer the browser gives later) without holding up the caller."""
    task = asyncio.ensure_future(coroutine)
    RUNNING.add(task)
    task.add_done_callback(RUNNING.discard)


def saved() -> dict[str, course.Progress | course.Unreadable]:
    """Every lesson's progress as this browser holds it now; a record this page cannot read is
    marked so (course.Unreadable), never taken for an empty one."""
    return {slug: TRACK.store.peek(lesson) for slug, lesson in course.LESSONS.items()}


def render() -> None:
    """Show each lesson's status on the track, derived from what this browser has saved."""
    for row in course.track_view(saved(), WORKED):
        say(f"status_{row.slug}", row.status)
        if row.opens:
            say(f"opens_{row.slug}", row.opens)
    if not TRACK.store.saving:
        say("storage_notice", course.NOT_SAVING)
        show("storage_notice")


async def show_kept() -> None:
    """Say where progress is kept: this browser only, whether it agreed, the last backup."""
    at = course.backed_up_at(course.read_item(TRACK.store.storage, course.LAST_BACKUP_KEY))
    when = "" if at is None else window.Date.new(at).toLocaleString()
    say("kept_line", course.kept_line(await persist.persisted(), when))


def backed_up(said: str, left_out: str) -> None:
    """A backup left this browser: note when, unless it left a lesson out, and say so."""
    if not left_out:
        course.write_item(TRACK.store.storage, course.LAST_BACKUP_KEY, str(int(window.Date.now())))
    say("backup_message", said + left_out)
    soon(show_kept())


def on_shown(event: Any) -> None:
    """Show each lesson's status again: another tab saved, or the track is back from the cache."""
    if event.type == "storage" or event.persisted:
        TRACK.store = course.Store(open_storage())
        render()
        soon(show_kept())


def on_hash(event: Any = None) -> None:
    """A progress link opened (on load, or pasted over the track's own address): check it."""
    fragment = window.location.hash
    if not course.holds_progress(fragment):
        return
    TRACK.chosen.drop()  # a file chosen earlier no longer gets a verdict
    by_id("course_import_file").value = ""
    try:
        incoming = course.read_link(fragment, saved(), WORKED)
    except course.LessonError as error:
        refuse(str(error))
    else:
        offer(incoming)
    by_id("backup_title").scrollIntoView()


WAIT_FOR_PYTHON = ("persist", "download_course", "copy_link", "course_import_file")


def start() -> None:
    global TRACK  # noqa: PLW0603 (one page a document)
    TRACK = Track()
    WORKED.update({slug: work(lesson) for slug, lesson in course.LESSONS.items()})
    render()
    if course.is_webkit(window.navigator.userAgent, window.navigator.maxTouchPoints or 0):
        say("safari_note", course.SAFARI)
        show("safari_note")
    show("share_link", getattr(window.navigator, "share", None) is not None)
    persist.AFTER_PERSIST.append(show_kept)
    soon(show_kept())
    on_hash()
    window.addEventListener("storage", create_proxy(on_shown))
    window.addEventListener("pageshow", create_proxy(on_shown))
    window.addEventListener("hashchange", create_proxy(on_hash))
    for control in WAIT_FOR_PYTHON:  # the page ships them disabled: a click would do nothing
        by_id(control).disabled = False



@on("click", "#download_course")
def on_download(event: Any) -> None:
    here = saved()
    download(course.COURSE_FILE, course.export_course(course.readable(here)))
    backed_up(course.DOWNLOADED, course.left_out(here, WORKED, "file"))


def show_link(here: dict[str, course.Progress | course.Unreadable]) -> str:
    """Put the course's link in its field, where it can be copied by hand, and return it."""
    link = course.course_link(window.location.href, course.readable(here))
    by_id("progress_link").value = link
    show("progress_link_row")
    return link


@on("click", "#copy_link")
async def on_copy(event: Any) -> None:
    here = saved()
    link = show_link(here)
    try:
        await window.navigator.clipboard.writeText(link)
    except Exception:  # no clipboard here, or the browser refused it
        say("backup_message", course.NOT_COPIED)
        by_id("progress_link").select()
        return
    backed_up(course.COPIED, course.left_out(here, WORKED, "link"))


@on("click", "#share_link")
async def on_share(event: Any) -> None:
    here = saved()
    link = show_link(here)
    shared = to_js({"title": "My progress: Learn machine learning", "url": link},
                   dict_converter=window.Object.fromEntries)
    try:
        await window.navigator.share(shared)
    except Exception:  # the learner closed the share sheet, or the browser refused
        say("backup_message", course.NOT_SHARED)
        return
    backed_up(course.SHARED, course.left_out(here, WORKED, "link"))


def chosen_takeaways() -> frozenset[str]:
    """The lessons whose backup's takeaway the learner chose over the one here."""
    return frozenset(slug for slug in WORKED if by_id(course.takeaway_ids(slug)[2]).checked)


def offer(incoming: course.CourseIncoming, their_takeaways: frozenset[str] = frozenset(),
          trouble: str = "") -> None:
    """Hold the backup until the confirm, and show what it brings in, lesson by lesson;
    nothing changes before the confirm."""
    TRACK.incoming = incoming
    apply(course.incoming_update(incoming, WORKED, TRACK.store.storage is not None,
                                 their_takeaways, trouble))


def refuse(message: str) -> None:
    """Drop the backup held, if any, and say why (or nothing, with "")."""
    TRACK.incoming = None
    apply(course.import_cleared(WORKED, message))


@on("change", ".takeaway-choice input")
def on_takeaway_choice(event: Any) -> None:
    if TRACK.incoming is not None:  # whether the confirm changes anything may follow it
        offer(TRACK.incoming, chosen_takeaways())


@on("change", "#course_import_file")
async def on_import(event: Any) -> None:
    chosen = by_id("course_import_file").files  # currentTarget is null once an async handler runs
    refuse("")
    try:
        text = await TRACK.chosen.text(chosen)
        if text is None:  # none chosen, or another file chosen meanwhile: its verdict stands
            return
        incoming = course.read_course(text, saved(), WORKED, "file")
    except course.LessonError as error:
        refuse(str(error))
        return
    offer(incoming)


@on("click", "#course_import_confirm")
def on_confirm(event: Any) -> None:
    if TRACK.incoming is None:  # the confirm is hidden while no backup is held (refuse)
        return
    theirs = chosen_takeaways()
    again = course.confirm_course(TRACK.incoming, saved(), WORKED)
    if again.changed:  # the progress here changed since the summary: say it anew
        offer(again, theirs)
        return
    records = again.records(theirs)
    outcome, lesson = TRACK.store.write_all((course.LESSONS[s], r) for s, r in records.items())
    if outcome is not course.Outcome.SAVED:  # all or nothing: nothing stored, the confirm stays
        offer(again, theirs, course.not_brought_in(outcome, lesson))
        return
    render()
    by_id("course_import_file").value = ""
    apply(course.import_cleared(WORKED, course.brought_in(again, WORKED, theirs)))
    if again.what == "link":  # every lesson is stored: off the address bar and history
        window.history.replaceState(None, "", window.location.pathname + window.location.search)
    TRACK.incoming = None

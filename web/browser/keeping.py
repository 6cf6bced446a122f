"""Keeping progress, on the track and on a lesson: ask the browser to keep this site's storage
(only when the learner asks), say what it answered, and the lesson's back-up suggestion."""

import contextlib

from pyscript import window

import attention_lessons as course

from .dom import by_id, on, say, show

AFTER_PERSIST = []  # what else to show again once the browser has answered (the track's line)


def storage_manager():
    """Return navigator.storage, or None where the browser has none (or hides it)."""
    return getattr(window.navigator, "storage", None)


async def persisted():
    """Return whether the browser keeps this site's storage for good; None where it cannot say."""
    manager = storage_manager()
    if manager is None or getattr(manager, "persisted", None) is None:
        return None
    try:
        return bool(await manager.persisted())
    except Exception:
        return None


@on("click", "#persist")
async def on_persist(event):
    """The learner asked: ask the browser, once, and say what it answered."""
    manager = storage_manager()
    if manager is None or getattr(manager, "persist", None) is None:
        answer = course.NO_API
    else:
        try:
            await manager.persist()
            kept = await manager.persisted()
        except Exception:
            answer = course.FAILED
        else:
            answer = course.KEPT if kept else course.MAY_BE_CLEARED
    say("persist_message", course.persist_said(answer))
    for then in AFTER_PERSIST:
        await then()


def read(storage, key):
    """Return what storage holds under key, or None (no storage, nothing there, or it throws)."""
    if storage is None:
        return None
    try:
        value = storage.getItem(key)
    except Exception:
        return None
    return value if isinstance(value, str) else None


def write(storage, key, value):
    """Store a small note (a time, a dismissal); where storage refuses it, the page goes on."""
    if storage is not None:
        with contextlib.suppress(Exception):
            storage.setItem(key, value)


def lesson_notes(page):
    """On a lesson: the keep-my-progress control once it holds work, and the back-up suggestion
    once its gate is met, unless the learner dismissed it."""
    show("keep_panel", course.holds_work(page.progress))
    dismissed = read(page.store.storage, course.SUGGESTION_KEY)
    say("backup_suggestion_text", course.SUGGESTION)
    show("backup_suggestion", course.suggest_backup(page.progress, page.worked, dismissed))


@on("click", "#dismiss_suggestion")
def on_dismiss(event):
    from . import lesson  # noqa: PLC0415 (lesson imports this module)

    write(lesson.PAGE.store.storage, course.SUGGESTION_KEY, course.DISMISSED)
    show("backup_suggestion", False)
    by_id("persist").focus()  # the focus had been on the button that is gone

"""The track page's DOM code: each lesson's status, derived from what this browser saved."""

from pyodide.ffi import create_proxy
from pyscript import window

import attention_lessons as course

from .dom import open_storage, say, show, work


def render(store):
    """Show each lesson's status on the track, derived from what this browser has saved."""
    worked = {slug: work(lesson) for slug, lesson in course.LESSONS.items()}
    saved = {slug: store.peek(lesson) for slug, lesson in course.LESSONS.items()}
    for row in course.track_view(saved, worked):
        say(f"status_{row.slug}", row.status)
        if row.opens:
            say(f"opens_{row.slug}", row.opens)
    if not store.saving:
        say("storage_notice", course.NOT_SAVING)
        show("storage_notice")


def on_shown(event):
    """Show each lesson's status again: another tab saved, or the track is back from the cache."""
    if event.type == "storage" or event.persisted:
        render(course.Store(open_storage()))


def start():
    render(course.Store(open_storage()))
    window.addEventListener("storage", create_proxy(on_shown))
    window.addEventListener("pageshow", create_proxy(on_shown))

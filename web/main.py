"""Every page in the browser: check that the page and its Python are one deploy, start the DOM
code the page needs (web/browser/), then say that Python is ready.

The page says which lesson it is in <html data-lesson>; the track page leaves it empty.
"""

from __future__ import annotations

import time

_started = time.perf_counter()

from pyscript import document, window  # noqa: E402

# Written by the build (src/course_build/offline.py): the deploy's id, which each of its pages
# carries in <html data-build>, and the id of each archive that the page's config unpacks here,
# which the archive carries in the file so named.
BUILD = ""
ARCHIVES: dict[str, str] = {}
RELOADED = "attention-lessons:reloaded"  # sessionStorage: the page reloaded for a mixed deploy


def one_deploy() -> bool:
    """Whether the page, this file and the archives were built together. A deploy made while
    the page loaded sends some from each: an old page with new Python failed to start."""
    if document.documentElement.dataset.build != BUILD:
        return False
    for name, built in ARCHIVES.items():
        try:
            with open(name, "rb") as held:
                if held.read() != built.encode():
                    return False
        except OSError:
            return False
    return True


def reload_once() -> None:
    """Reload the page, which then loads one deploy whole: once for this page and its build.
    Where it has reloaded already, or cannot note that it did (storage blocked), say so."""
    mark = f"{window.location.pathname} {document.documentElement.dataset.build}"
    try:
        again = window.sessionStorage.getItem(RELOADED) != mark
        if again:
            window.sessionStorage.setItem(RELOADED, mark)
    except Exception:  # storage blocked: a reload could not be noted, and might never end
        again = False
    # boot.js says what happens, in #boot-status.
    document.dispatchEvent(window.CustomEvent.new("lesson:reloading" if again else "lesson:mixed"))
    if again:
        window.location.reload()


def start() -> None:
    """Start the page's DOM code; then say that Python is ready."""
    from browser.dom import open_storage, say  # noqa: PLC0415

    slug = document.documentElement.dataset.lesson
    if slug:
        from browser import lesson, persist, saved  # noqa: F401, PLC0415  # its handlers

        lesson.start(slug, open_storage())
        saved.listen()
    else:
        from browser import track  # noqa: PLC0415

        track.start()

    root = document.documentElement
    root.setAttribute("data-python-ms", f"{(time.perf_counter() - _started) * 1000:.1f}")
    root.setAttribute("data-python", "ready")
    say("boot-status", "Python is ready.")
    document.dispatchEvent(window.CustomEvent.new("lesson:ready"))


if one_deploy():
    start()
else:
    reload_once()

"""Every page in the browser: start the DOM code the page needs (web/browser/), then say that
Python is ready.

The page says which lesson it is in <html data-lesson>; the track page leaves it empty.
"""

import time

_started = time.perf_counter()

from browser.dom import open_storage, say  # noqa: E402
from pyscript import document, window  # noqa: E402

SLUG = document.documentElement.dataset.lesson
if SLUG:
    from browser import lesson, saved  # the handlers of a lesson page

    lesson.start(SLUG, open_storage())
    saved.listen()
else:
    from browser import track

    track.start()

root = document.documentElement
root.setAttribute("data-python-ms", f"{(time.perf_counter() - _started) * 1000:.1f}")
root.setAttribute("data-python", "ready")
say("boot-status", "Python is ready.")
document.dispatchEvent(window.CustomEvent.new("lesson:ready"))

"""What every page's DOM code shares: find, write and show elements, forward events, and open
the browser's storage."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pyscript import document, when, window

import attention_lessons as course

# An event handler, sync or async. `on` gives back the handler, or pyscript's wrapper of it
# (functools.wraps), which takes the event as the handler does.
Handler = TypeVar("Handler", bound=Callable[..., object])

_FOUND: dict[str, Any] = {}  # element id -> element: no element with an id is ever replaced


def by_id(element_id: str) -> Any:
    node = _FOUND.get(element_id)
    if node is None:
        node = _FOUND[element_id] = document.getElementById(element_id)
    return node


def say(element_id: str, text: str) -> None:
    by_id(element_id).textContent = text


def show(element_id: str, visible: bool = True) -> None:
    by_id(element_id).hidden = not visible


def announce(text: str) -> None:
    say("announcer", text)


def on(event_type: str, selector: str) -> Callable[[Handler], Handler]:
    """pyscript's `when`, for controls a page may lack (the track has none, 8.2 no projection)."""
    if not document.querySelectorAll(selector).length:  # (querySelector's null is not None)
        return lambda handler: handler
    forward: Callable[[Handler], Handler] = when(event_type, selector)  # pyscript is untyped
    return forward


def open_storage() -> course.Storage | None:
    """Return the browser's localStorage, or None where reading it throws (site data blocked)."""
    try:
        storage: course.Storage = window.localStorage
        storage.getItem("attention-lessons")
    except Exception:
        return None
    return storage


def apply(update: course.PageUpdate, skip: str = "") -> None:
    """Write a page update from the package into the page, in one call (write.js); skip is a
    field being typed in, whose value stays as the learner has it."""
    window.writePage(course.update_json(update, skip))


def work(lesson: course.Lesson) -> course.Worked:
    """Work a lesson on its fixture, read from the archive's fixtures/."""
    return course.work(lesson, course.lesson_fixture(lesson, "fixtures"))


def render_head(prefix: str, head: course.HeadView) -> None:
    """Write one head's panel: its scale, intro, bars, step table, summary and key table."""
    say(f"{prefix}_scale", head.scale)
    say(f"{prefix}_intro", head.intro)
    say(f"{prefix}_summary", head.summary)
    bars = by_id(f"{prefix}_bars")
    bars.setAttribute("aria-label", head.figure_text)
    bars.innerHTML = course.bars_html(head.bars)  # markup: one write each, not one a cell
    for fill, bar in zip(bars.querySelectorAll(".bar-fill"), head.bars, strict=True):
        fill.style.width = course.bar_width(bar)
    by_id(f"{prefix}_steps").innerHTML = course.steps_html(head)
    by_id(f"{prefix}_keys").innerHTML = course.keys_html(head)
    show(f"{prefix}_badge")


def download(name: str, text: str) -> None:
    """Have the browser save text as a JSON file named name (a data: URL: nothing is sent)."""
    link = document.createElement("a")
    link.href = "data:application/json;charset=utf-8," + window.encodeURIComponent(text)
    link.download = name
    link.click()


class LastChosen:
    """Files chosen in an Import, of which only the last gets a verdict: reading one takes a
    while, and another may be chosen (or, on the track, a link opened) meanwhile."""

    def __init__(self) -> None:
        self.count = 0

    def drop(self) -> None:
        """Whatever is being read now gets no verdict."""
        self.count += 1

    async def text(self, files: Any) -> str | None:
        """Return the chosen file's text; None where none was chosen, or another was chosen
        meanwhile. A file bigger than progress can be is refused unread (LessonError)."""
        self.drop()
        mine = self.count
        if not files.length:
            return None
        course.check_size(files.item(0).size)
        text: str = await files.item(0).text()
        return text if mine == self.count else None

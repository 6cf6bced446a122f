"""What every page's DOM code shares: find, write and show elements, forward events, and open
the browser's storage."""

from pyscript import document, when, window

import attention_lessons as course

_FOUND = {}  # element id -> element: no element with an id is ever replaced


def by_id(element_id):
    node = _FOUND.get(element_id)
    if node is None:
        node = _FOUND[element_id] = document.getElementById(element_id)
    return node


def say(element_id, text):
    by_id(element_id).textContent = text


def show(element_id, visible=True):
    by_id(element_id).hidden = not visible


def announce(text):
    say("announcer", text)


def on(event_type, selector):
    """pyscript's `when`, for controls a page may lack (the track has none, 8.2 no projection)."""
    if not document.querySelectorAll(selector).length:  # (querySelector's null is not None)
        return lambda handler: handler
    return when(event_type, selector)


def open_storage():
    """Return the browser's localStorage, or None where reading it throws (site data blocked)."""
    try:
        storage = window.localStorage
        storage.getItem("attention-lessons")
    except Exception:
        return None
    return storage


def apply(update, skip=""):
    """Write a page update from the package into the page; skip is a field being typed in."""
    for element_id, text in update.texts.items():
        say(element_id, text)
    for element_id, hidden in update.hidden.items():
        show(element_id, not hidden)
    for element_id, disabled in update.disabled.items():
        by_id(element_id).disabled = disabled
    for element_id, state in update.states.items():
        by_id(element_id).dataset.state = state
    for element_id, invalid in update.invalid.items():
        by_id(element_id).setAttribute("aria-invalid", "true" if invalid else "false")
    for element_id, attributes in update.attributes.items():
        node = by_id(element_id)
        for name, value in attributes.items():
            node.setAttribute(name, value)
    for element_id, styles in update.styles.items():
        node = by_id(element_id).style
        for name, value in styles.items():
            node.setProperty(name, value)
    for element_id, value in update.values.items():
        if element_id != skip:
            by_id(element_id).value = value
    for element_id, checked in update.checked.items():
        by_id(element_id).checked = checked


def work(lesson):
    """Work a lesson on its fixture, read from the archive's fixtures/."""
    with open(f"fixtures/{lesson.fixture}", encoding="utf-8") as fixture_file:
        return course.work(lesson, course.parse_fixture(fixture_file.read()))


def render_head(prefix, head):
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

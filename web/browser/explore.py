"""Explore's DOM code: draw the plane and the explored heads, and forward the learner's moves.

`start` hands it the lesson page (lesson.Page) whose record every move is kept in."""

from pyodide.ffi import create_proxy
from pyscript import window

import attention_lessons as course

from .dom import announce, apply, by_id, on, render_head, say

PAGE = None  # the lesson page, set by start()


def start(page):
    global PAGE  # noqa: PLW0603 (one page a document)
    PAGE = page


def render(skip=""):
    """Work every head on the explored points and draw the plane and the readout."""
    if not course.explorable(PAGE.worked.fixture):  # no plane can draw these vectors
        return None
    view = course.explore_view(PAGE.lesson, PAGE.worked.fixture, PAGE.explore)
    update = course.explore_update(view)
    apply(course.changes(update, PAGE.explore_shown), skip)  # what the move changed, only
    PAGE.explore_shown = update
    for head in view.heads:
        render_head(f"explore_head_{head.id}", head)
    return view


def explored(explore, point=None, skip=""):
    """A move ended: keep it, draw it, and say where the point is and what the heads do now."""
    PAGE.explore = explore
    PAGE.update(course.set_explore(PAGE.progress, explore))
    view = render(skip)
    if point is not None:
        say(f"explore_{point}_message", "")  # a value typed wrong is replaced by this move
        announce(course.move_announcement(PAGE.lesson, view, point))
    return view


@on("keydown", ".handle input")
def on_point_key(event):
    if event.key not in course.KEY_MOVES:
        return
    event.preventDefault()  # the range's own step would move one coordinate only
    point = event.currentTarget.dataset.point
    explored(course.step(PAGE.explore, PAGE.worked.fixture, point, event.key, event.shiftKey),
             point)


@on("input", ".handle input")
def on_point_set(event):
    """A screen reader can set a range's value without a key press."""
    point = event.currentTarget.dataset.point
    at = [float(by_id(f"explore_{point}_{axis}").value) for axis in ("across", "up")]
    explored(course.move(PAGE.explore, PAGE.worked.fixture, point, *at), point)


@on("pointerdown", ".handle")
def on_point_down(event):
    handle = event.currentTarget
    handle.setPointerCapture(event.pointerId)
    PAGE.dragging, PAGE.drawn = handle.dataset.point, None
    by_id(f"explore_{PAGE.dragging}_across").focus()
    event.preventDefault()  # no text selection, no scrolling, no emulated mouse events


@on("pointerrawupdate", ".handle")  # Chromium: as the move comes, not held for the next frame
@on("pointermove", ".handle")
def on_point_drag(event):
    if PAGE.dragging is None:
        return
    box = by_id("explore_plane").getBoundingClientRect()
    at = ((event.clientX - box.left) / box.width, (event.clientY - box.top) / box.height)
    if at == PAGE.drawn:  # the pointermove after a pointerrawupdate already drawn
        return
    PAGE.pending = at
    # At most one recompute per animation frame: the first move since the last frame is drawn
    # at once, and any later ones wait for the next frame, which draws only the latest.
    if not PAGE.frame:
        draw_drag()
        PAGE.frame = window.requestAnimationFrame(NEXT_FRAME)


def draw_drag():
    if PAGE.pending is not None and PAGE.dragging is not None:
        PAGE.explore = course.drag(PAGE.explore, PAGE.worked.fixture, PAGE.dragging,
                                   *PAGE.pending)
        PAGE.drawn, PAGE.pending = PAGE.pending, None
        render()


def next_frame(_timestamp):
    """A new frame: draw what moved since the last one, if anything, and keep the frame."""
    PAGE.frame = 0
    if PAGE.pending is not None and PAGE.dragging is not None:
        draw_drag()
        PAGE.frame = window.requestAnimationFrame(NEXT_FRAME)


NEXT_FRAME = create_proxy(next_frame)


@on("pointerup", ".handle")
@on("pointercancel", ".handle")
def on_point_up(event):
    if PAGE.dragging is None:
        return
    if PAGE.frame:
        window.cancelAnimationFrame(PAGE.frame)
        PAGE.frame = 0
    draw_drag()
    point, PAGE.dragging = PAGE.dragging, None
    explored(PAGE.explore, point)


@on("input", ".explore-field")
def on_point_typed(event):
    field = event.currentTarget
    point, axis = field.dataset.point, int(field.dataset.axis)
    try:
        explore = course.typed(PAGE.explore, PAGE.worked.fixture, point, axis, field.value)
    except course.LessonError as error:
        say(f"explore_{point}_message", str(error))
        return
    say(f"explore_{point}_message", "")
    explored(explore, skip=field.id)


@on("click", ".preset")
def on_preset(event):
    button = event.currentTarget
    view = explored(course.go_to_preset(PAGE.lesson, PAGE.worked.fixture,
                                        button.dataset.preset, PAGE.explore))
    announce(f"{button.textContent} {view.bears_out}")


@on("change", "input[name=explore_scale]")
def on_scale(event):
    explored(course.choose_scale(PAGE.explore, PAGE.lesson, event.currentTarget.value))
    announce(by_id("explore_bears_out").textContent)


@on("change", "#explore_full_precision")
def on_full_precision(event):
    explored(course.show_full_precision(PAGE.explore, event.currentTarget.checked))


@on("click", "#explore_back")
def on_explore_back(event):
    explored(course.back_to_fixture(PAGE.explore))
    announce("Every point is back where the fixture has it.")

"""Explore's DOM code: draw the plane and the explored heads, and forward the learner's moves.

`start` hands it the lesson page (lesson.Page) whose record every move is kept in."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from pyodide.ffi import create_proxy
from pyscript import document, window

import attention_lessons as course

from .dom import announce, apply, by_id, on, render_head, say


class Exploring:
    """Explore's own state on a lesson page, from one event to the next: the preset searches,
    the heads' panels still to draw, and the point a pointer holds."""

    def __init__(self, worked: course.Worked) -> None:
        self.searches = course.PresetSearches(worked.lesson, worked.fixture)
        self.wanted: str | None = None  # the preset the learner asked for, while its search runs
        self.seeking = 0  # the timeout that runs its next slice, if any
        self.ahead = 0  # the interval that searches ahead, if any
        self.heads_to_draw: list[course.HeadView] = []  # the last move's panels not yet drawn
        self.dragging: str | None = None  # the point a pointer holds, if any
        self.pending: tuple[float, float] | None = None  # where it went since the last frame drew
        self.drawn: tuple[float, float] | None = None  # where it was when last drawn
        self.box = (0.0, 0.0, 1.0, 1.0)  # the plane's left, top, width, height, as a drag starts
        self.frame = 0  # the animation frame asked for, if any


class LessonPage(Protocol):
    """What Explore needs of the lesson page (lesson.Page, which imports this module): the
    lesson worked, the record and its save, the points as drawn, and Explore's own state."""

    lesson: course.Lesson
    worked: course.Worked
    progress: course.Progress
    explore: course.Explore  # the points as drawn: a drag's frames are saved only as it ends
    explore_shown: course.PageUpdate | None  # the Explore update last written
    exploring: Exploring

    def update(self, progress: course.Progress) -> None: ...


PAGE: LessonPage  # set by start(), before any of Explore's events can come


def start(page: LessonPage) -> None:
    global PAGE  # noqa: PLW0603 (one page a document)
    PAGE = page


def render() -> None:
    """Draw Explore whole, where the page has it: where no plane can draw the fixture's vectors
    the page has no Explore (course_build.pages), and none of its events come."""
    if course.explorable(PAGE.worked.fixture):
        draw()


def draw(skip: str = "", whole: bool = True) -> course.ExploreView:
    """Work every head on the explored points and draw the plane and the readout beside it;
    the rest of Explore below, which is for reading, only where a move has ended (whole), and
    its heads' panels after this frame (draw_heads_after_paint)."""
    view = course.explore_view(PAGE.lesson, PAGE.worked.fixture, PAGE.explore, whole)
    update = course.explore_update(view)
    apply(course.changes(update, PAGE.explore_shown), skip)  # what the move changed, only
    PAGE.explore_shown = update
    if view.heads:  # none on a drag's frames
        draw_heads_after_paint(view.heads)
    return view


def draw_heads_after_paint(heads: Sequence[course.HeadView]) -> None:
    """Draw the heads' panels, which are for reading, once the move's frame is painted, a panel
    a task, so that a click or a key waits behind one panel at most; a later move's panels
    replace those not yet drawn. The panels are busy until the last is drawn."""
    drawing = bool(PAGE.exploring.heads_to_draw)  # the last move's are still being drawn
    PAGE.exploring.heads_to_draw = list(heads)
    by_id("explore_heads").setAttribute("aria-busy", "true")
    if document.visibilityState == "hidden":  # it paints no frame to wait for
        draw_heads(one=False)
    elif not drawing:
        window.requestAnimationFrame(AFTER_PAINT)


def after_paint(*_: object) -> None:
    window.setTimeout(DRAW_HEADS, 0)  # queued in a frame's callback, it runs after the paint


def draw_heads(*_: object, one: bool = True) -> None:
    while PAGE.exploring.heads_to_draw:
        head = PAGE.exploring.heads_to_draw.pop(0)
        render_head(f"explore_head_{head.id}", head)
        if one and PAGE.exploring.heads_to_draw:
            window.setTimeout(DRAW_HEADS, 0)
            return
    by_id("explore_heads").removeAttribute("aria-busy")


AFTER_PAINT = create_proxy(after_paint)
DRAW_HEADS = create_proxy(draw_heads)


def explored(explore: course.Explore, point: str | None = None,
             skip: str = "") -> course.ExploreView:
    """A move ended: keep it, draw it, and say where the point is and what the heads do now."""
    if explore.preset is None:
        stop_wanting()
    PAGE.explore = explore
    PAGE.update(course.set_explore(PAGE.progress, explore))
    view = draw(skip)  # Explore's own moves: the page has it
    if point is not None:
        say(f"explore_{point}_message", "")  # a value typed wrong is replaced by this move
        announce(course.move_announcement(PAGE.lesson, view, point))
    return view


@on("keydown", ".handle input")
def on_point_key(event: Any) -> None:
    if event.key not in course.KEY_MOVES:
        return
    event.preventDefault()  # the range's own step would move one coordinate only
    point = event.currentTarget.dataset.point
    explored(course.step(PAGE.explore, PAGE.worked.fixture, point, event.key, event.shiftKey),
             point)


@on("input", ".handle input")
def on_point_set(event: Any) -> None:
    """A screen reader can set a range's value without a key press."""
    point = event.currentTarget.dataset.point
    at = [float(by_id(f"explore_{point}_{axis}").value) for axis in ("across", "up")]
    explored(course.move(PAGE.explore, PAGE.worked.fixture, point, *at), point)


@on("focusin", ".handle input")
def on_point_focused(event: Any) -> None:
    """A point reached by keyboard brings the plane and its readout into view together; a
    pointer's press focuses it too, and must not move the page under the pointer."""
    if PAGE.exploring.dragging is None:
        by_id("explore_live").scrollIntoView(block="nearest")


@on("pointerdown", ".handle")
def on_point_down(event: Any) -> None:
    handle = event.currentTarget
    handle.setPointerCapture(event.pointerId)
    PAGE.exploring.dragging, PAGE.exploring.drawn = handle.dataset.point, None
    by_id("explore_live").setAttribute("data-held", "")  # a phone keeps the readout on screen
    # Focus without scrolling: the page must not move under the pointer as the drag starts.
    by_id(f"explore_{PAGE.exploring.dragging}_across").focus(preventScroll=True)
    # Where the plane is, read once: read on every move, it made the browser lay the page out
    # again inside the handler, after the last move's writes. Nothing scrolls while a point is
    # held (touch-action: none), so it stays right until the drag ends.
    box = by_id("explore_plane").getBoundingClientRect()
    PAGE.exploring.box = (box.left, box.top, box.width, box.height)
    event.preventDefault()  # no text selection, no scrolling, no emulated mouse events


@on("pointerrawupdate", ".handle")  # Chromium: as the move comes, not held for the next frame
@on("pointermove", ".handle")
def on_point_drag(event: Any) -> None:
    if PAGE.exploring.dragging is None:
        return
    left, top, width, height = PAGE.exploring.box
    at = ((event.clientX - left) / width, (event.clientY - top) / height)
    if at == PAGE.exploring.drawn:  # the pointermove after a pointerrawupdate already drawn
        return
    PAGE.exploring.pending = at
    # At most one recompute per animation frame: the first move since the last frame is drawn
    # at once, and any later ones wait for the next frame, which draws only the latest.
    if not PAGE.exploring.frame:
        draw_drag()
        PAGE.exploring.frame = window.requestAnimationFrame(NEXT_FRAME)


def draw_drag() -> None:
    if PAGE.exploring.pending is not None and PAGE.exploring.dragging is not None:
        stop_wanting()
        PAGE.explore = course.drag(PAGE.explore, PAGE.worked.fixture, PAGE.exploring.dragging,
                                   *PAGE.exploring.pending)
        PAGE.exploring.drawn, PAGE.exploring.pending = PAGE.exploring.pending, None
        draw(whole=False)  # the plane and its readout; the rest once the drag ends


def next_frame(_timestamp: float) -> None:
    """A new frame: draw what moved since the last one, if anything, and keep the frame."""
    PAGE.exploring.frame = 0
    if PAGE.exploring.pending is not None and PAGE.exploring.dragging is not None:
        draw_drag()
        PAGE.exploring.frame = window.requestAnimationFrame(NEXT_FRAME)


NEXT_FRAME = create_proxy(next_frame)


@on("pointerup", ".handle")
@on("pointercancel", ".handle")
def on_point_up(event: Any) -> None:
    if PAGE.exploring.dragging is None:
        return
    if PAGE.exploring.frame:
        window.cancelAnimationFrame(PAGE.exploring.frame)
        PAGE.exploring.frame = 0
    draw_drag()
    point, PAGE.exploring.dragging = PAGE.exploring.dragging, None
    by_id("explore_live").removeAttribute("data-held")
    explored(PAGE.explore, point)


@on("input", ".explore-field")
def on_point_typed(event: Any) -> None:
    field = event.currentTarget
    point, axis = field.dataset.point, int(field.dataset.axis)
    try:
        explore = course.typed(PAGE.explore, PAGE.worked.fixture, point, axis, field.value)
    except course.LessonError as error:
        say(f"explore_{point}_message", str(error))
        return
    say(f"explore_{point}_message", "")
    explored(explore, skip=field.id)


# Seconds of a preset's search between two chances for the page to draw. With the CPU slowed
# 4x, 8 ms slices (with the status line each writes) left a click's frame waiting behind them:
# its slowest click passed INP's 200 ms in 2 runs of 3; at 4 ms, in none of 5.
SLICE = 0.004
AHEAD = 0.004  # seconds of searching ahead, while the learner is in Explore, every AHEAD_EVERY
AHEAD_EVERY = 30  # milliseconds


@on("click", ".preset")
def on_preset(event: Any) -> None:
    """The learner wants a preset: search for it a slice at a time, saying how far it has got."""
    PAGE.exploring.wanted = event.currentTarget.dataset.preset
    seek()


def seek(*_: object) -> None:
    PAGE.exploring.seeking = 0
    if PAGE.exploring.wanted is None:
        return
    preset, scale = PAGE.exploring.wanted, PAGE.explore.scale
    found = PAGE.exploring.searches.advance(preset, scale, SLICE)
    if found is None:
        say("explore_preset_status", course.preset_searching(
            PAGE.lesson, preset, PAGE.exploring.searches.share_done(preset, scale)))
        if not PAGE.exploring.seeking:
            PAGE.exploring.seeking = window.setTimeout(SEEK, 0)
        return
    PAGE.exploring.wanted = None
    say("explore_preset_status", "")
    view = explored(course.at_preset(PAGE.explore, found, preset))
    announce(course.preset_announcement(PAGE.lesson, preset, view))


SEEK = create_proxy(seek)


def stop_wanting() -> None:
    """A move or an experiment changes the points: the preset asked for is no longer wanted."""
    if PAGE.exploring.wanted is not None:
        PAGE.exploring.wanted = None
        say("explore_preset_status", "")


@on("focusin", "#explore")
@on("pointerover", "#explore")
def on_explore_entered(event: Any) -> None:
    """The learner is in Explore: search for the presets ahead, a little at a time."""
    if not PAGE.exploring.ahead:
        PAGE.exploring.ahead = window.setInterval(AHEAD_PROXY, AHEAD_EVERY)


def search_ahead(*_: object) -> None:
    preset = PAGE.exploring.searches.next_unfound(PAGE.explore.scale)
    if preset is None:  # all found at this scale; another scale starts it again
        window.clearInterval(PAGE.exploring.ahead)
        PAGE.exploring.ahead = 0
    elif PAGE.exploring.dragging is None and PAGE.exploring.wanted is None:
        # (a drag or a wanted preset comes first)
        PAGE.exploring.searches.advance(preset, PAGE.explore.scale, AHEAD)


AHEAD_PROXY = create_proxy(search_ahead)


@on("change", "input[name=explore_scale]")
def on_scale(event: Any) -> None:
    explored(course.choose_scale(PAGE.explore, PAGE.lesson, event.currentTarget.value))
    on_explore_entered(event)  # the presets at this scale are searched ahead too
    announce(by_id("explore_bears_out").textContent)


@on("change", "#explore_full_precision")
def on_full_precision(event: Any) -> None:
    explored(course.show_full_precision(PAGE.explore, event.currentTarget.checked))


@on("click", "#explore_back")
def on_explore_back(event: Any) -> None:
    explored(course.back_to_fixture(PAGE.explore))
    announce("Every point is back where the fixture has it.")

"""Explore's DOM code: draw the plane and the explored heads, and forward the learner's moves.

`start` hands it the lesson page (lesson.Page) whose record every move is kept in."""

from pyodide.ffi import create_proxy
from pyscript import document, window

import attention_lessons as course

from .dom import announce, apply, by_id, on, render_head, say

PAGE = None  # the lesson page, set by start()


def start(page):
    global PAGE  # noqa: PLW0603 (one page a document)
    PAGE = page
    page.searches = course.PresetSearches(page.lesson, page.worked.fixture)
    page.wanted = None  # the preset the learner asked for, while its search runs
    page.seeking = 0  # the timeout that runs its next slice, if any
    page.ahead = 0  # the interval that searches ahead, if any
    page.heads_to_draw = []  # the heads' panels of the last move not yet drawn


def render(skip="", whole=True):
    """Work every head on the explored points and draw the plane and the readout beside it;
    the rest of Explore below, which is for reading, only where a move has ended (whole), and
    its heads' panels after this frame (draw_heads_after_paint)."""
    if not course.explorable(PAGE.worked.fixture):  # no plane can draw these vectors
        return None
    view = course.explore_view(PAGE.lesson, PAGE.worked.fixture, PAGE.explore, whole)
    update = course.explore_update(view)
    apply(course.changes(update, PAGE.explore_shown), skip)  # what the move changed, only
    PAGE.explore_shown = update
    if view.heads:  # none on a drag's frames
        draw_heads_after_paint(view.heads)
    return view


def draw_heads_after_paint(heads):
    """Draw the heads' panels, which are for reading, once the move's frame is painted, a panel
    a task, so that a click or a key waits behind one panel at most; a later move's panels
    replace those not yet drawn. The panels are busy until the last is drawn."""
    drawing = bool(PAGE.heads_to_draw)  # the last move's panels are still being drawn
    PAGE.heads_to_draw = list(heads)
    by_id("explore_heads").setAttribute("aria-busy", "true")
    if document.visibilityState == "hidden":  # it paints no frame to wait for
        draw_heads(one=False)
    elif not drawing:
        window.requestAnimationFrame(AFTER_PAINT)


def after_paint(*_):
    window.setTimeout(DRAW_HEADS, 0)  # queued in a frame's callback, it runs after the paint


def draw_heads(*_, one=True):
    while PAGE.heads_to_draw:
        head = PAGE.heads_to_draw.pop(0)
        render_head(f"explore_head_{head.id}", head)
        if one and PAGE.heads_to_draw:
            window.setTimeout(DRAW_HEADS, 0)
            return
    by_id("explore_heads").removeAttribute("aria-busy")


AFTER_PAINT = create_proxy(after_paint)
DRAW_HEADS = create_proxy(draw_heads)


def explored(explore, point=None, skip=""):
    """A move ended: keep it, draw it, and say where the point is and what the heads do now."""
    if explore.preset is None:
        stop_wanting()
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


@on("focusin", ".handle input")
def on_point_focused(event):
    """A point reached by keyboard brings the plane and its readout into view together; a
    pointer's press focuses it too, and must not move the page under the pointer."""
    if PAGE.dragging is None:
        by_id("explore_live").scrollIntoView(block="nearest")


@on("pointerdown", ".handle")
def on_point_down(event):
    handle = event.currentTarget
    handle.setPointerCapture(event.pointerId)
    PAGE.dragging, PAGE.drawn = handle.dataset.point, None
    by_id("explore_live").setAttribute("data-held", "")  # a phone keeps the readout on screen
    # Focus without scrolling: the page must not move under the pointer as the drag starts.
    by_id(f"explore_{PAGE.dragging}_across").focus(preventScroll=True)
    # Where the plane is, read once: read on every move, it made the browser lay the page out
    # again inside the handler, after the last move's writes. Nothing scrolls while a point is
    # held (touch-action: none), so it stays right until the drag ends.
    box = by_id("explore_plane").getBoundingClientRect()
    PAGE.box = (box.left, box.top, box.width, box.height)
    event.preventDefault()  # no text selection, no scrolling, no emulated mouse events


@on("pointerrawupdate", ".handle")  # Chromium: as the move comes, not held for the next frame
@on("pointermove", ".handle")
def on_point_drag(event):
    if PAGE.dragging is None:
        return
    left, top, width, height = PAGE.box
    at = ((event.clientX - left) / width, (event.clientY - top) / height)
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
        stop_wanting()
        PAGE.explore = course.drag(PAGE.explore, PAGE.worked.fixture, PAGE.dragging,
                                   *PAGE.pending)
        PAGE.drawn, PAGE.pending = PAGE.pending, None
        render(whole=False)  # the plane and its readout; the rest once the drag ends


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
    by_id("explore_live").removeAttribute("data-held")
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


SLICE = 0.008  # seconds of a preset's search between two chances for the page to draw
AHEAD = 0.004  # seconds of searching ahead, while the learner is in Explore, every AHEAD_EVERY
AHEAD_EVERY = 30  # milliseconds


@on("click", ".preset")
def on_preset(event):
    """The learner wants a preset: search for it a slice at a time, saying how far it has got."""
    PAGE.wanted = event.currentTarget.dataset.preset
    seek()


def seek(*_):
    PAGE.seeking = 0
    if PAGE.wanted is None:
        return
    preset, scale = PAGE.wanted, PAGE.explore.scale
    found = PAGE.searches.advance(preset, scale, SLICE)
    if found is None:
        say("explore_preset_status", course.preset_searching(
            PAGE.lesson, preset, PAGE.searches.share_done(preset, scale)))
        if not PAGE.seeking:
            PAGE.seeking = window.setTimeout(SEEK, 0)
        return
    PAGE.wanted = None
    say("explore_preset_status", "")
    view = explored(course.at_preset(PAGE.explore, found, preset))
    announce(course.preset_announcement(PAGE.lesson, preset, view))


SEEK = create_proxy(seek)


def stop_wanting():
    """A move or an experiment changes the points: the preset asked for is no longer wanted."""
    if PAGE.wanted is not None:
        PAGE.wanted = None
        say("explore_preset_status", "")


@on("focusin", "#explore")
@on("pointerover", "#explore")
def on_explore_entered(event):
    """The learner is in Explore: search for the presets ahead, a little at a time."""
    if not PAGE.ahead:
        PAGE.ahead = window.setInterval(AHEAD_PROXY, AHEAD_EVERY)


def search_ahead(*_):
    preset = PAGE.searches.next_unfound(PAGE.explore.scale)
    if preset is None:  # all found at this scale; another scale starts it again
        window.clearInterval(PAGE.ahead)
        PAGE.ahead = 0
    elif PAGE.dragging is None and PAGE.wanted is None:  # a drag or a wanted preset comes first
        PAGE.searches.advance(preset, PAGE.explore.scale, AHEAD)


AHEAD_PROXY = create_proxy(search_ahead)


@on("change", "input[name=explore_scale]")
def on_scale(event):
    explored(course.choose_scale(PAGE.explore, PAGE.lesson, event.currentTarget.value))
    on_explore_entered(event)  # the presets at this scale are searched ahead too
    announce(by_id("explore_bears_out").textContent)


@on("change", "#explore_full_precision")
def on_full_precision(event):
    explored(course.show_full_precision(PAGE.explore, event.currentTarget.checked))


@on("click", "#explore_back")
def on_explore_back(event):
    explored(course.back_to_fixture(PAGE.explore))
    announce("Every point is back where the fixture has it.")

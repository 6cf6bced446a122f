"""Every page in the browser: render the package's view models and forward the learner's events.

The page says which lesson it is in <html data-lesson>; the track page leaves it empty.
"""

import time

_started = time.perf_counter()

from pyodide.ffi import create_proxy  # noqa: E402
from pyscript import document, when, window  # noqa: E402

import attention_lessons as course  # noqa: E402

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


class Page:
    """The one learner's session on a lesson page: the numbers, their progress and the store."""

    def __init__(self, worked, store):
        self.worked = worked
        self.lesson = worked.lesson
        self.store = store
        self.progress, _ = store.load(self.lesson)
        self.notice("")
        self.incoming = None
        self.choosing = 0  # counts the files chosen for import: only the last one's verdict shows
        self.explore = self.progress.explore
        self.explore_shown = None  # the Explore update last written, which a move changes
        self.dragging = None  # the point a pointer holds, if any
        self.pending = None  # where the pointer went since the last frame drew
        self.drawn = None  # where the pointer was when last drawn
        self.frame = 0  # the animation frame asked for, if any

    def notice(self, trouble):
        text = self.store.notice(self.lesson, trouble)
        say("storage_notice", text)
        show("storage_notice", bool(text))

    def update(self, progress, replace=False):
        """Save a change (Import replaces the record outright) and show it."""
        put = self.store.put if replace else self.store.save
        self.settle(*put(self.lesson, progress))

    def settle(self, progress, trouble):
        """Show the progress as saved, and the notice for how saving went."""
        self.progress = progress
        self.notice(trouble)
        self.render()

    def render(self):
        self.view = view = course.progress_view(self.progress, self.worked)
        apply(course.page_update(view))
        locked = view.prediction is not None
        for radio in document.querySelectorAll("input[name=prediction]"):
            radio.disabled = locked
            radio.checked = radio.value == view.prediction if locked else radio.checked
        for radio in document.querySelectorAll("input[name=reading]"):
            radio.disabled = view.reading.correct

    def restore_fields(self, before=None):
        """Put the record into the fields whose record changed since before (None: all of them).

        At start-up (before is the fresh record) a choice made while Python started stays."""
        progress, old = self.progress, before or course.Progress(prediction="")
        if progress.prediction != old.prediction:
            for radio in document.querySelectorAll("input[name=prediction]"):
                radio.checked = radio.value == progress.prediction
            by_id("why").value = progress.why
        for q in self.lesson.questions:
            if progress.answers.get(q.id) != old.answers.get(q.id) or before is None:
                by_id(q.id).value = progress.answers.get(q.id, "")
        if progress.reading != old.reading or before is None:
            for radio in document.querySelectorAll("input[name=reading]"):
                radio.checked = radio.value == progress.reading
        self.fill_projection()
        takeaway = by_id("takeaway")
        if progress.takeaway != old.takeaway or before is None:
            saved = progress.takeaway
            takeaway.value = takeaway.defaultValue if saved is None else saved
        if progress.explore != self.explore or before is None:
            self.explore = progress.explore
            self.explore_shown = None  # written whole: a field may hold what was typed there
            render_explore()

    def fill_projection(self, skip=""):
        """Show the projection's entries in both sliders and fields, except the one being typed,
        and draw its figure."""
        if self.view.projection is None:
            return
        apply(course.projection_figure_update(course.projection_figure(self.progress, self.worked)))
        for r, row in enumerate(self.view.projection.entries, 1):
            for c, text in enumerate(row, 1):
                entry = f"w{r}{c}"
                by_id(f"{entry}_range").value = text
                if entry != skip:
                    by_id(entry).value = text
                say(f"{entry}_message", "")


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


def render_fixed(view):
    """Write what the numbers alone decide: both heads and the comparison table."""
    for head in view.heads:
        render_head(f"head_{head.id}", head)
    if view.comparison is not None:
        for name in ("concatenated", "single", "differences"):
            for i, text in enumerate(getattr(view.comparison, name), 1):
                say(f"{name}_{i}", text)
    if document.querySelectorAll("#projection_computed").length:
        show("projection_computed")


def announce(text):
    say("announcer", text)


def attempt(page, action, message_id, message_is_live=False):
    """Run a transition; a LessonError becomes a message beside the control, nothing is lost."""
    try:
        progress = action(page.progress)
    except course.LessonError as error:
        say(message_id, str(error))
        if not message_is_live:  # a live message is heard where it is; say it only once
            announce(str(error))
        return False
    page.update(progress)
    return True


def render_explore(skip=""):
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
    view = render_explore(skip)
    if point is not None:
        announce(course.move_announcement(PAGE.lesson, view, point))
    return view


def work(lesson):
    with open(f"fixtures/{lesson.fixture}", encoding="utf-8") as fixture_file:
        return course.work(lesson, course.parse_fixture(fixture_file.read()))


def render_track(store):
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


def apply_early(page):
    """Apply a prediction locked by prelock.js while Python was starting, or say why not."""
    form = by_id("predict_form")  # dataset lacks unset keys in Pyodide: read the attributes
    choice = form.getAttribute("data-choice") or ""
    why = form.getAttribute("data-why") or ""
    progress, said = course.apply_early(page.progress, page.lesson, choice, why)
    if progress is not page.progress:
        page.update(progress)
    if said:
        say("prediction_message", said)
    held = page.store.held.get(page.lesson.slug)
    copy = page.store.copy_set_aside(page.lesson)
    if held is not None or copy is not None:
        say("reset_unreadable", course.clears(held) if held is not None else
            course.removes_copy(copy))
        show("reset_unreadable")


def render_waiting(page):
    """Show the notice that this lesson builds on one not done yet; it never blocks anything."""
    before = page.lesson.prerequisite
    if before is not None:
        lesson = course.LESSONS[before]
        progress = {before: page.store.peek(lesson)}
        show("prerequisite_notice", course.waiting(page.lesson, progress, {before: work(lesson)}))


SLUG = document.documentElement.dataset.lesson
if SLUG:
    PAGE = Page(work(course.LESSONS[SLUG]), course.Store(open_storage()))
    render_fixed(course.fixed_view(PAGE.worked))
    PAGE.render()
    PAGE.restore_fields(course.Progress())
    render_explore()
    render_waiting(PAGE)
    apply_early(PAGE)
else:
    render_track(course.Store(open_storage()))


@on("submit", "#predict_form")
def on_predict(event):
    event.preventDefault()
    chosen = document.querySelector("input[name=prediction]:checked")
    choice = chosen.value if chosen else ""
    why = by_id("why").value
    if attempt(PAGE, lambda p: course.lock_prediction(p, PAGE.lesson, choice, why),
               "prediction_message"):
        announce("Prediction locked in. Section 03, Try it, is open.")
        by_id("try_title").focus()


@on("submit", "#numbers_form")
def on_check(event):
    event.preventDefault()
    before = PAGE.progress
    typed = {q.id: by_id(q.id).value for q in PAGE.lesson.questions}
    PAGE.update(course.check(before, typed, PAGE.worked))
    # Shown as well as announced: a re-check that grades nothing changes nothing else in view.
    message = course.check_announcement(before, PAGE.progress, PAGE.worked)
    say("check_message", message)
    announce(message)


@on("click", "#hint_1_open, #hint_2_open")
def on_hint(event):
    rung = 1 if event.currentTarget.id == "hint_1_open" else 2
    if attempt(PAGE, lambda p: course.open_hint(p, PAGE.lesson, rung), f"hint_{rung}_status"):
        by_id(f"hint_{rung}_text").focus()  # read out where focus lands; no second announcement


@on("submit", "#reading_form")
def on_reading(event):
    event.preventDefault()
    chosen = document.querySelector("input[name=reading]:checked")
    reading = chosen.value if chosen else ""
    if attempt(PAGE, lambda p: course.lock_reading(p, reading, PAGE.lesson), "reading_feedback"):
        announce(by_id("reading_feedback").textContent)


def cell(entry):
    """Return the row and column an entry's id names: "w12" is row 0, column 1."""
    return int(entry[1]) - 1, int(entry[2]) - 1


@on("input", ".projection-row input[type=range]")
def on_slider(event):
    row, col = cell(event.currentTarget.id)
    value = float(event.currentTarget.value)
    PAGE.update(course.set_projection(PAGE.progress, row, col, value))
    PAGE.fill_projection()


@on("input", ".projection-row input[type=text]")
def on_entry(event):
    entry = event.currentTarget.id
    typed = event.currentTarget.value
    row, col = cell(entry)

    def set_typed(progress):
        return course.set_projection(progress, row, col, course.parse_number(typed).value)

    if attempt(PAGE, set_typed, f"{entry}_message"):
        PAGE.fill_projection(skip=entry)


@on("click", "#projection_reset")
def on_projection_reset(event):
    PAGE.update(course.reset_projection(PAGE.progress))
    PAGE.fill_projection()
    announce("The projection is back to the identity.")


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
        render_explore()


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


@on("submit", "#takeaway_form")
def on_takeaway(event):
    event.preventDefault()
    text = by_id("takeaway").value
    if attempt(PAGE, lambda p: course.save_takeaway(p, text), "takeaway_message", True):
        saved = ("Saved in this browser." if PAGE.store.saving else
                 "Kept while this tab is open; this browser has not saved it.")
        say("takeaway_message", saved)


@on("input", "#takeaway")
def on_takeaway_edit(event):
    say("takeaway_message", "")  # "Saved" would be stale once the text changes again


@on("click", "#reset_progress")
def on_reset(event):
    PAGE.settle(*PAGE.store.forget(PAGE.lesson))
    PAGE.restore_fields()
    show("reset_unreadable", False)
    say("takeaway_message", "")
    say("check_message", "")
    by_id("reset_progress").closest("details").open = False
    announce("Your progress is reset. Start again with a prediction.")
    by_id("predict_title").focus()


@on("click", "#download_progress")
def on_download(event):
    link = document.createElement("a")
    link.href = "data:application/json;charset=utf-8," + window.encodeURIComponent(
        course.export_json(PAGE.progress, PAGE.lesson))
    link.download = course.export_name(PAGE.lesson)
    link.click()


@on("change", "#import_file")
async def on_import(event):
    chosen = by_id("import_file").files  # currentTarget is null once an async handler runs
    show("import_confirm", False)
    say("import_message", "")
    PAGE.incoming = None
    PAGE.choosing += 1
    mine = PAGE.choosing
    if not chosen.length:
        return
    try:
        course.check_size(chosen.item(0).size)  # a huge file is refused unread
        text = await chosen.item(0).text()
        if mine != PAGE.choosing:  # another file was chosen meanwhile: its verdict stands
            return
        PAGE.incoming = course.read_import(text, PAGE.progress, PAGE.worked)
    except course.LessonError as error:
        say("import_message", str(error))
        return
    say("import_message", PAGE.incoming.summary)
    show("import_confirm")


@on("click", "#import_confirm")
def on_import_confirm(event):
    again = course.confirm_import(PAGE.incoming, PAGE.progress, PAGE.worked)
    if again is not None:  # the progress here changed since the summary: say it anew
        PAGE.incoming = again
        say("import_message", again.summary)
        return
    PAGE.update(PAGE.incoming.progress, replace=True)
    PAGE.restore_fields()
    PAGE.incoming = None
    show("import_confirm", False)
    by_id("import_file").value = ""
    say("import_message", "Imported: your progress here is now the file's.")


def take_in_saved():
    """Take in what was saved for this lesson elsewhere, keeping this tab's own work."""
    before = PAGE.progress
    PAGE.progress, said = PAGE.store.sync(PAGE.lesson, before)
    PAGE.notice("" if said in ("", course.FROM_OTHER_TAB, course.RESET_ELSEWHERE) else said)
    PAGE.render()
    PAGE.restore_fields(before)
    if said in (course.FROM_OTHER_TAB, course.RESET_ELSEWHERE):
        say("sync_notice", said)
        show("sync_notice")


def on_storage(event):
    """Another tab saved: this lesson's work, or maybe the lesson this one builds on."""
    if event.key in (course.store_key(PAGE.lesson), None):
        take_in_saved()
    render_waiting(PAGE)


def on_lesson_shown(event):
    """Back on a page the browser kept whole for "back" (its back-forward cache): no script
    runs again there, and Firefox and WebKit send it no storage event for what was saved
    meanwhile, so read what it may have missed."""
    if event.persisted:
        take_in_saved()
        render_waiting(PAGE)


def on_track_shown(event):
    """Show each lesson's status again: another tab saved, or the track is back from the cache."""
    if event.type == "storage" or event.persisted:
        render_track(course.Store(open_storage()))


if SLUG:
    window.addEventListener("storage", create_proxy(on_storage))
    window.addEventListener("pageshow", create_proxy(on_lesson_shown))
else:
    window.addEventListener("storage", create_proxy(on_track_shown))
    window.addEventListener("pageshow", create_proxy(on_track_shown))

root = document.documentElement
root.setAttribute("data-python-ms", f"{(time.perf_counter() - _started) * 1000:.1f}")
root.setAttribute("data-python", "ready")
say("boot-status", "Python is ready.")
document.dispatchEvent(window.CustomEvent.new("lesson:ready"))

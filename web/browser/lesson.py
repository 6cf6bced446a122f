"""A lesson page's DOM code: its record on the page, and the learner's prediction, numbers,
hints, reading, projection, takeaway and reset."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pyscript import document

import attention_lessons as course

from . import explore
from .dom import LastChosen, announce, apply, by_id, on, render_head, say, show, work

PAGE: Page  # made by start(), before any of the page's events can come


class Page:
    """The one learner's session on a lesson page: the numbers, their progress and the store."""

    # What render() works out from the record, which start() calls before any event comes.
    standing: course.Standing
    view: course.ProgressView

    def __init__(self, worked: course.Worked, store: course.Store) -> None:
        self.worked = worked
        self.lesson = worked.lesson
        self.store = store
        self.progress, _ = store.load(self.lesson)
        self.notice(course.Outcome.SAVED)
        self.incoming: course.Incoming | None = None  # the Import's file as read, until confirmed
        self.chosen = LastChosen()  # the files chosen for Import: the last gets a verdict
        self.explore = self.progress.explore
        # The Explore update last written, which a move changes.
        self.explore_shown: course.PageUpdate | None = None
        self.exploring = explore.Exploring(worked)  # a drag, the presets, the panels to draw

    def notice(self, outcome: course.Outcome) -> None:
        text = self.store.notice(self.lesson, outcome)
        say("storage_notice", text)
        show("storage_notice", bool(text))

    def update(self, progress: course.Progress,
               standing: course.Standing | None = None) -> None:
        """Save a change and show it; `standing` is the record's, where the change worked it out
        (a Check), and holds for what is saved unless another tab's work was merged in."""
        saved, outcome = self.store.save(self.lesson, progress)
        self.settle(saved, outcome, standing if saved == progress else None)

    def settle(self, progress: course.Progress, outcome: course.Outcome,
               standing: course.Standing | None = None) -> None:
        """Show the progress as saved, and the notice for how saving went."""
        before, self.progress = self.progress, progress
        self.notice(outcome)
        if not course.explored_only(before, progress):  # Explore draws its own changes
            self.render(standing)

    def render(self, standing: course.Standing | None = None) -> None:
        self.standing = standing or course.standing(self.progress, self.worked)
        self.view = view = course.progress_view(self.progress, self.worked, self.standing)
        apply(course.page_update(view))
        locked = view.prediction is not None
        for radio in document.querySelectorAll("input[name=prediction]"):
            radio.disabled = locked
            radio.checked = radio.value == view.prediction if locked else radio.checked
        for radio in document.querySelectorAll("input[name=reading]"):
            radio.disabled = view.reading.correct
        lesson_notes(self)

    def restore_fields(self, before: course.Progress | None = None) -> None:
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
            explore.render()

    def fill_projection(self, skip: str = "") -> None:
        """Show the projection's entries in both sliders and fields, except the one being typed,
        and draw its figure."""
        if self.view.projection is None:
            return
        figure = course.projection_figure(self.progress, self.worked)
        if figure is not None:  # it is, where the lesson projects two numbers (as D8 does)
            apply(course.projection_figure_update(figure))
        for r, row in enumerate(self.view.projection.entries, 1):
            for c, text in enumerate(row, 1):
                entry = f"w{r}{c}"
                by_id(f"{entry}_range").value = text
                if entry != skip:
                    by_id(entry).value = text
                say(f"{entry}_message", "")


def lesson_notes(page: Page) -> None:
    """The keep-my-progress control once the record holds work, and the back-up suggestion
    once its gate is met, unless the learner dismissed it."""
    show("keep_panel", course.holds_work(page.progress))
    dismissed = course.read_item(page.store.storage, course.SUGGESTION_KEY)
    say("backup_suggestion_text", course.SUGGESTION)
    show("backup_suggestion", course.suggest_backup(page.standing, dismissed))


@on("click", "#dismiss_suggestion")
def on_dismiss(event: Any) -> None:
    course.write_item(PAGE.store.storage, course.SUGGESTION_KEY, course.DISMISSED)
    show("backup_suggestion", False)
    by_id("persist").focus()  # the focus had been on the button that is gone


def render_fixed(view: course.FixedView) -> None:
    """Write what the numbers alone decide: both heads and the comparison table."""
    for head in view.heads:
        render_head(f"head_{head.id}", head)
    if view.comparison is not None:
        for name in ("concatenated", "single", "differences"):
            for i, text in enumerate(getattr(view.comparison, name), 1):
                say(f"{name}_{i}", text)
    if document.querySelectorAll("#projection_computed").length:
        show("projection_computed")


def attempt(page: Page, action: Callable[[course.Progress], course.Progress], message_id: str,
            message_is_live: bool = False) -> bool:
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


def apply_early(page: Page) -> None:
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
    removes = (course.clears(held) if held is not None else  # what Reset removes as well
               None if copy is None else course.removes_copy(copy))
    if removes is not None:
        say("reset_unreadable", removes)
        show("reset_unreadable")


def render_waiting(page: Page) -> None:
    """Show the notice that this lesson builds on one not done yet; it never blocks anything."""
    before = page.lesson.prerequisite
    if before is not None:
        lesson = course.LESSONS[before]
        progress = {before: page.store.peek(lesson)}
        show("prerequisite_notice", course.waiting(page.lesson, progress, {before: work(lesson)}))


# Shipped disabled, each with a note: a file chosen, or a click, before Python is ready would
# go unanswered.
WAIT_FOR_PYTHON = ("download_progress", "import_file", "reset_progress")
WAITING_NOTES = ("transfer_wait", "reset_wait")


def start(slug: str, storage: course.Storage | None) -> Page:
    """Show the lesson's numbers and its saved record, and apply a lock made early."""
    global PAGE  # noqa: PLW0603 (one page a document)
    PAGE = Page(work(course.LESSONS[slug]), course.Store(storage))
    explore.start(PAGE)
    render_fixed(course.fixed_view(PAGE.worked))
    PAGE.render()
    PAGE.restore_fields(course.Progress())
    explore.render()
    render_waiting(PAGE)
    apply_early(PAGE)
    for control in WAIT_FOR_PYTHON:
        by_id(control).disabled = False
    for note in WAITING_NOTES:
        show(note, False)
    return PAGE


@on("submit", "#predict_form")
def on_predict(event: Any) -> None:
    event.preventDefault()
    chosen = document.querySelector("input[name=prediction]:checked")
    choice = chosen.value if chosen else ""
    why = by_id("why").value
    if attempt(PAGE, lambda p: course.lock_prediction(p, PAGE.lesson, choice, why),
               "prediction_message"):
        announce("Prediction locked in. Section 03, Try it, is open.")
        by_id("try_title").focus()


@on("submit", "#numbers_form")
def on_check(event: Any) -> None:
    event.preventDefault()
    before, was = PAGE.progress, PAGE.standing
    typed = {q.id: by_id(q.id).value for q in PAGE.lesson.questions}
    after, now = course.checked(before, typed, PAGE.worked)  # each answer read and graded once
    PAGE.update(after, now)
    # Shown as well as announced: a re-check that grades nothing changes nothing else in view.
    message = course.check_announcement(before, after, PAGE.worked, was, now)
    say("check_message", message)
    announce(message)


@on("click", "#hint_1_open, #hint_2_open")
def on_hint(event: Any) -> None:
    rung = 1 if event.currentTarget.id == "hint_1_open" else 2
    if attempt(PAGE, lambda p: course.open_hint(p, PAGE.lesson, rung), f"hint_{rung}_status"):
        by_id(f"hint_{rung}_text").focus()  # read out where focus lands; no second announcement


@on("submit", "#reading_form")
def on_reading(event: Any) -> None:
    event.preventDefault()
    chosen = document.querySelector("input[name=reading]:checked")
    reading = chosen.value if chosen else ""
    if attempt(PAGE, lambda p: course.lock_reading(p, reading, PAGE.lesson), "reading_feedback"):
        announce(by_id("reading_feedback").textContent)


def cell(entry: str) -> tuple[int, int]:
    """Return the row and column an entry's id names: "w12" is row 0, column 1."""
    return int(entry[1]) - 1, int(entry[2]) - 1


@on("input", ".projection-row input[type=range]")
def on_slider(event: Any) -> None:
    row, col = cell(event.currentTarget.id)
    value = float(event.currentTarget.value)
    PAGE.update(course.set_projection(PAGE.progress, row, col, value))
    PAGE.fill_projection()


@on("input", ".projection-row input[type=text]")
def on_entry(event: Any) -> None:
    entry: str = event.currentTarget.id
    typed: str = event.currentTarget.value
    row, col = cell(entry)

    def set_typed(progress: course.Progress) -> course.Progress:
        return course.set_projection(progress, row, col, course.parse_number(typed).value)

    if attempt(PAGE, set_typed, f"{entry}_message"):
        PAGE.fill_projection(skip=entry)


@on("click", "#projection_reset")
def on_projection_reset(event: Any) -> None:
    PAGE.update(course.reset_projection(PAGE.progress))
    PAGE.fill_projection()
    announce("The projection is back to the identity.")


@on("submit", "#takeaway_form")
def on_takeaway(event: Any) -> None:
    event.preventDefault()
    text = by_id("takeaway").value
    if attempt(PAGE, lambda p: course.save_takeaway(p, text), "takeaway_message", True):
        saved = ("Saved in this browser." if PAGE.store.saving else
                 "Kept while this tab is open; this browser has not saved it.")
        say("takeaway_message", saved)


@on("input", "#takeaway")
def on_takeaway_edit(event: Any) -> None:
    say("takeaway_message", "")  # "Saved" would be stale once the text changes again


@on("click", "#reset_progress")
def on_reset(event: Any) -> None:
    PAGE.settle(*PAGE.store.forget(PAGE.lesson))
    PAGE.restore_fields()
    show("reset_unreadable", False)
    say("takeaway_message", "")
    say("check_message", "")
    by_id("reset_progress").closest("details").open = False
    announce("Your progress is reset. Start again with a prediction.")
    by_id("predict_title").focus()

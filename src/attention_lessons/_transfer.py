"""Progress in and out of the page: the download, a checked import, and a lock made early."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass

from ._errors import StateError
from ._format import word
from ._lesson import Lesson, Worked
from ._progress import Progress, correct_count, from_value, gate, lock_prediction, too_deep

KIND = "attention-lessons progress"
MAX_FILE = 200_000  # characters; a real record is under 3,000
EARLY_APPLIED = ("Locked in while Python was starting, and now applied. Reset your progress to "
                 "change it.")


def export_name(lesson: Lesson) -> str:
    """Return the file name "Download my progress" saves under."""
    return f"attention-lessons-{lesson.slug}-progress.json"


def export_json(progress: Progress, lesson: Lesson) -> str:
    """Return the downloadable file: which lesson it is for, and the record."""
    return json.dumps({"kind": KIND, "lesson": lesson.slug, "progress": asdict(progress)},
                      sort_keys=True, indent=1)


def describe(progress: Progress, worked: Worked) -> str:
    """Summarise a record in a few words: the prediction, runs, numbers and the gate."""
    lesson = worked.lesson
    prediction = "a locked prediction" if progress.prediction else "no prediction"
    runs = f"{word(progress.runs)} run{'' if progress.runs == 1 else 's'}"
    numbers = f"{correct_count(progress, worked)} of {len(lesson.questions)} numbers right"
    met = "gate met" if gate(progress, worked) else "gate not met"
    takeaway = ", a takeaway" if progress.takeaway else ""
    return f"{prediction}, {runs}, {numbers}, {met}{takeaway}"


@dataclass(frozen=True)
class Incoming:
    """A checked import: the record it holds and what it will replace, in words."""

    progress: Progress
    summary: str


def read_import(text: str, current: Progress, worked: Worked) -> Incoming:
    """Check an imported file before anything changes, raising StateError with a clear message."""
    lesson = worked.lesson
    if len(text) > MAX_FILE:
        raise StateError("That file is far too big to be progress saved from this site. "
                         "Nothing was changed.")
    try:
        if too_deep(text):
            raise ValueError
        raw = json.loads(text)
    except (ValueError, RecursionError):
        raise StateError("That file is not a progress file (it is not JSON). "
                         "Nothing was changed.") from None
    if not isinstance(raw, dict) or raw.get("kind") != KIND:
        raise StateError("That file is not progress downloaded from this site. "
                         "Nothing was changed.")
    if raw.get("lesson") != lesson.slug:
        raise StateError(f"That file holds progress for another lesson, not {lesson.code}. "
                         "Nothing was changed.")
    try:
        progress = from_value(raw.get("progress"), lesson)
    except StateError as error:
        raise StateError(f"That file's progress could not be read ({error}). "
                         "Nothing was changed.") from None
    summary = (f"Importing replaces your progress here ({describe(current, worked)}) with the "
               f"file's ({describe(progress, worked)}).")
    return Incoming(progress, summary)


def apply_early(progress: Progress, lesson: Lesson, choice: str, why: str) -> tuple[Progress, str]:
    """Apply a prediction locked before Python was ready; a saved locked one wins, and says so."""
    if not choice:
        return progress, ""
    if progress.prediction is not None:
        label = lesson.prediction_label(progress.prediction)
        return progress, (f"Your saved prediction, \N{LEFT DOUBLE QUOTATION MARK}{label}"
                          "\N{RIGHT DOUBLE QUOTATION MARK}, was locked in on an earlier visit, so "
                          "it stands; the one chosen while Python was starting was not used.")
    try:
        return lock_prediction(progress, lesson, choice, why), EARLY_APPLIED
    except StateError as error:
        return progress, str(error)

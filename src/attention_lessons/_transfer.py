"""Progress in and out of the page: the download, a checked import, and a lock made early."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace

from ._errors import StateError
from ._explore import Explore
from ._format import word
from ._lesson import Lesson, Worked
from ._nesting import MAX_DEPTH, too_deep
from ._progress import MAX_TEXT, Progress, correct_count, from_value, gate, lock_prediction

KIND = "attention-lessons progress"
MAX_FILE = MAX_TEXT  # characters, and bytes: a file's size is known before it is read
TOO_BIG = "That file is far too big to be progress saved from this site. Nothing was changed."
CHANGED = "Your progress here changed since you chose the file, so nothing was replaced yet. "
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
    """A checked import: the record it holds, and what it replaces in words: `current`, the
    progress the summary describes, and a note on what the file claims but does not hold."""

    progress: Progress
    summary: str
    current: Progress
    note: str = ""


def check_size(size: int) -> None:
    """Refuse a file by its size in bytes before reading it, as read_import would refuse it."""
    if size > MAX_FILE:
        raise StateError(TOO_BIG)


def summarise(incoming: Incoming, current: Progress, worked: Worked) -> Incoming:
    """Describe what importing replaces now: the confirm replaces only what the summary says."""
    summary = (f"Importing replaces your progress here ({describe(current, worked)}) with the "
               f"file's ({describe(incoming.progress, worked)}).{incoming.note}")
    return Incoming(incoming.progress, summary, current, incoming.note)


def confirm_import(incoming: Incoming, current: Progress, worked: Worked) -> Incoming | None:
    """Return None when the import may go ahead; else the summary anew, to be confirmed again,
    since the progress here changed after the summary was shown. Explore's points and
    experiments are scratch the summary never names: a move there is not such a change."""
    if replace(incoming.current, explore=Explore()) == replace(current, explore=Explore()):
        return None
    fresh = summarise(incoming, current, worked)
    return Incoming(fresh.progress, CHANGED + fresh.summary, current, incoming.note)


def read_import(text: str, current: Progress, worked: Worked) -> Incoming:
    """Check an imported file before anything changes, raising StateError with a clear message."""
    lesson = worked.lesson
    if len(text) > MAX_FILE:
        raise StateError(TOO_BIG)
    if too_deep(text):
        raise StateError(f"That file nests deeper than {MAX_DEPTH} levels, so it is not "
                         "progress saved from this site. Nothing was changed.")
    try:
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
    claimed = raw["progress"].get("gate") is True and not gate(progress, worked)
    note = (" The file says its gate was met, but its numbers and reading do not meet it, so "
            "here it will not be." if claimed else "")
    return summarise(Incoming(progress, "", current, note), current, worked)


def apply_early(progress: Progress, lesson: Lesson, choice: str, why: str) -> tuple[Progress, str]:
    """Apply a prediction locked before Python was ready; a saved locked one wins, and says so."""
    if not choice:
        return progress, ""
    if progress.prediction is not None:
        saved = _quoted(lesson.prediction_label(progress.prediction))
        if progress.prediction == choice:
            return progress, (f"{saved} was already saved as your locked prediction (from "
                              "another tab or an earlier visit), so it stands as saved.")
        chosen = {c.id: _quoted(c.label) for c in lesson.predictions}.get(choice, "the one")
        return progress, (f"{saved} was already saved as your locked prediction (from another "
                          f"tab or an earlier visit), so it stands; {chosen} chosen here while "
                          "Python was starting was not used.")
    try:
        return lock_prediction(progress, lesson, choice, why), EARLY_APPLIED
    except StateError as error:
        return progress, str(error)


def _quoted(text: str) -> str:
    return f"\N{LEFT DOUBLE QUOTATION MARK}{text}\N{RIGHT DOUBLE QUOTATION MARK}"

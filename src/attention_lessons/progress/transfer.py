"""Progress in and out of the page: the download, a checked import, and a lock made early."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..engine import Explore, Lesson, StateError, Worked, word
from .checking import gate
from .checking import standing as stand
from .nesting import MAX_DEPTH, too_deep
from .record import MAX_TEXT, Progress, from_value, lock_prediction

KIND = "attention-lessons progress"
MAX_FILE = MAX_TEXT  # characters, and bytes: a file's size is known before it is read
FAR_TOO_BIG = "is far too big to be progress saved from this site"
TOO_BIG = f"That file {FAR_TOO_BIG}. Nothing was changed."
NOT_THIS_SITE = {"file": "is not progress downloaded from this site",
                 "link": "is not progress copied from this site"}
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
    standing = stand(progress, worked)
    numbers = f"{standing.correct} of {len(lesson.questions)} numbers right"
    met = "gate met" if standing.gate else "gate not met"
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
               f"file's ({describe(incoming.progress, worked)}).{incoming.note}"
               f"{replaced(current, incoming.progress, worked.lesson)}")
    return Incoming(incoming.progress, summary, current, incoming.note)


def replaced(current: Progress, incoming: Progress, lesson: Lesson) -> str:
    """Return, in words, what the learner wrote or locked here that an import replaces."""
    said = ""
    if current.prediction is not None and current.prediction != incoming.prediction:
        mine = quoted(lesson.prediction_label(current.prediction))
        theirs = ("none, so you lock one again" if incoming.prediction is None else
                  f"the file's, {quoted(lesson.prediction_label(incoming.prediction))}")
        said += f" Your locked prediction, {mine}, and your reason are replaced by {theirs}."
    elif current.prediction is not None and current.why != incoming.why:
        said += " The reason you gave for your prediction is replaced by the file's."
    if current.takeaway is not None and current.takeaway != incoming.takeaway:
        said += (" Your takeaway here is replaced by the file's." if incoming.takeaway else
                 " Your takeaway here is removed: the file holds none.")
    return said


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
    raw = parse_text(text)
    if raw.get("kind") != KIND:
        raise refused("file", NOT_THIS_SITE["file"])
    if raw.get("lesson") != lesson.slug:
        raise StateError(f"That file holds progress for another lesson, not {lesson.code}. "
                         "Nothing was changed.")
    progress, note = read_record(raw.get("progress"), worked)
    return summarise(Incoming(progress, "", current, note), current, worked)


def refused(what: str, reason: str) -> StateError:
    """Return the error that refuses a file or link (`what`): nothing was changed."""
    return StateError(f"That {what} {reason}. Nothing was changed.")


def parse_text(text: str, what: str = "file") -> dict[str, Any]:
    """Parse a file's or a link's text into a JSON object, bounded and checked in linear time
    before the parser sees it, raising StateError with a clear message."""
    if len(text) > MAX_FILE:
        raise refused(what, FAR_TOO_BIG)
    if too_deep(text):
        raise refused(what, f"nests deeper than {MAX_DEPTH} levels, so it is not progress saved "
                            "from this site")
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        raise refused(what, f"is not a progress {what} (it is not JSON)") from None
    if not isinstance(raw, dict):
        raise refused(what, NOT_THIS_SITE[what])
    return raw


def read_record(value: object, worked: Worked, what: str = "file",
                whose: str = "") -> tuple[Progress, str]:
    """Read one lesson's record from a file or link strictly, and note a gate it claims but
    does not meet; `whose` names the lesson in the message where the file holds several."""
    try:
        progress = from_value(value, worked.lesson)
    except StateError as error:
        of = f" for {whose}" if whose else ""
        raise StateError(f"That {what}'s progress{of} could not be read ({error}). "
                         "Nothing was changed.") from None
    assert isinstance(value, dict)  # from_value refused anything else
    claimed = value.get("gate") is True and not gate(progress, worked)
    note = (f" The {what} says its gate was met, but its numbers and reading do not meet it, "
            "so here it will not be." if claimed else "")
    return progress, note


def apply_early(progress: Progress, lesson: Lesson, choice: str, why: str) -> tuple[Progress, str]:
    """Apply a prediction locked before Python was ready; a saved locked one wins, and says so."""
    if not choice:
        return progress, ""
    if progress.prediction is not None:
        saved = quoted(lesson.prediction_label(progress.prediction))
        if progress.prediction == choice:
            return progress, (f"{saved} was already saved as your locked prediction (from "
                              "another tab or an earlier visit), so it stands as saved.")
        chosen = {c.id: quoted(c.label) for c in lesson.predictions}.get(choice, "the one")
        return progress, (f"{saved} was already saved as your locked prediction (from another "
                          f"tab or an earlier visit), so it stands; {chosen} chosen here while "
                          "Python was starting was not used.")
    try:
        return lock_prediction(progress, lesson, choice, why), EARLY_APPLIED
    except StateError as error:
        return progress, str(error)


def quoted(text: str) -> str:
    """Return text in curly double quotation marks."""
    return f"\N{LEFT DOUBLE QUOTATION MARK}{text}\N{RIGHT DOUBLE QUOTATION MARK}"

"""The course as the track shows it: each lesson's status, derived from its saved progress."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..engine import Lesson, Worked
from ..progress import Progress, Unreadable, gate

NEWER = "saved by a newer version of this site: reload this page to see it"
DAMAGED = "its saved progress cannot be read: open the lesson to set it aside"


def status(progress: Progress | Unreadable, worked: Worked) -> str:
    """Return "done" once the gate is met, "not started" before anything, else "in progress";
    a record this page cannot read is never taken for one not started."""
    if isinstance(progress, Unreadable):
        return NEWER if progress.newer else DAMAGED
    if gate(progress, worked):
        return "done"
    return "not started" if progress == Progress() else "in progress"


def opens_text(lesson: Lesson, lessons: Mapping[str, Lesson]) -> str:
    """Return what a lesson waits for, as the track lists it: "opens once 8.2 is done"."""
    if lesson.prerequisite is None:
        return ""
    return f"opens once {lessons[lesson.prerequisite].code} is done"


def waiting(lesson: Lesson, progress: Mapping[str, Progress | Unreadable],
            worked: Mapping[str, Worked]) -> bool:
    """Return whether the lesson this one builds on is not done yet (it never blocks anyone)."""
    before = lesson.prerequisite
    return before is not None and status(progress[before], worked[before]) != "done"


@dataclass(frozen=True)
class TrackRow:
    """One lesson on the track: its status, and whether it still waits for another lesson."""

    slug: str
    status: str
    opens: str  # "opens once 8.2 is done", "open", or "" for a lesson that waits for nothing


def track_view(progress: Mapping[str, Progress | Unreadable],
               worked: Mapping[str, Worked]) -> tuple[TrackRow, ...]:
    """Build every lesson's row from the saved progress, in track order: each lesson's status
    worked out once, and read again by the lessons that build on it."""
    lessons = {slug: w.lesson for slug, w in worked.items()}
    statuses = {slug: status(progress[slug], w) for slug, w in worked.items()}
    rows = []
    for slug, w in worked.items():
        opens = opens_text(w.lesson, lessons)
        before = w.lesson.prerequisite
        if before is not None and statuses[before] == "done":
            opens = "open"
        rows.append(TrackRow(slug, f"Status: {statuses[slug]}", opens))
    return tuple(rows)

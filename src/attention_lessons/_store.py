"""What a saved progress record becomes on load, and the notices the page shows about saving."""

from __future__ import annotations

from dataclasses import dataclass

from ._errors import StateError
from ._lesson import Lesson
from ._progress import Progress, from_json

NOT_SAVING = ("This browser is not letting the page save, so your progress lasts only while "
              "this tab is open.")
NOT_SET_ASIDE = ("Your saved progress could not be read and could not be set aside either, so it "
                 f"is left as it was. {NOT_SAVING}")


@dataclass(frozen=True)
class Loaded:
    """The progress to start from, a notice to show, and where to back up an unreadable record."""

    progress: Progress
    notice: str = ""
    backup_key: str | None = None


def store_key(lesson: Lesson) -> str:
    """Return the storage key a lesson's progress is kept under, one record per lesson."""
    return f"attention-lessons:{lesson.slug}:progress"


def load_record(raw: str | None, now_ms: int, lesson: Lesson) -> Loaded:
    """Read a stored record; an unreadable one is never dropped but named for a backup."""
    if raw is None:
        return Loaded(Progress())
    try:
        return Loaded(from_json(raw, lesson))
    except StateError:
        key = f"{store_key(lesson)}:backup:{now_ms}"
        return Loaded(Progress(), ("Your saved progress could not be read, so it was set aside "
                                   f"(kept in this browser as {key}) and you start afresh."), key)


def notices(loaded: str, trouble: str) -> str:
    """Keep what loading found in view all session, adding a new trouble with saving once."""
    return loaded if trouble in loaded else f"{loaded} {trouble}".strip()

"""What a saved progress record becomes on load, and the notices the page shows about saving."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ._errors import StateError
from ._lesson import Lesson
from ._progress import Progress, from_json, to_json

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


class Storage(Protocol):
    """What the store needs of the browser's localStorage: get and set one item."""

    def getItem(self, key: str) -> object: ...

    def setItem(self, key: str, value: str) -> None: ...


class Store:
    """Each lesson's record in Web Storage; once storage fails, progress lives in memory.

    Every call into storage may throw (blocked, full, or gone): any failure turns saving off
    and the page says so, and nothing that was read is ever written over.
    """

    def __init__(self, storage: Storage | None) -> None:
        self.storage = storage

    @property
    def saving(self) -> bool:
        """Return whether saves still reach storage."""
        return self.storage is not None

    def _read(self, lesson: Lesson) -> str | None:
        if self.storage is None:
            return None
        try:
            raw = self.storage.getItem(store_key(lesson))
        except Exception:
            self.storage = None
            return None
        return raw if isinstance(raw, str) else None  # JavaScript's null is not None in Pyodide

    def peek(self, lesson: Lesson) -> Progress:
        """Read a lesson's progress for another page (the track), setting nothing aside."""
        return load_record(self._read(lesson), 0, lesson).progress

    def load(self, lesson: Lesson, now_ms: int) -> tuple[Progress, str]:
        """Read a lesson's progress and the notice to show; an unreadable record is backed up."""
        raw = self._read(lesson)
        if self.storage is None:
            return Progress(), NOT_SAVING
        loaded = load_record(raw, now_ms, lesson)
        if loaded.backup_key is not None and raw is not None:
            try:
                self.storage.setItem(loaded.backup_key, raw)
            except Exception:
                self.storage = None
                return loaded.progress, NOT_SET_ASIDE
        return loaded.progress, loaded.notice

    def save(self, lesson: Lesson, progress: Progress) -> str:
        """Save a lesson's progress, returning the notice to show when it cannot be saved."""
        if self.storage is None:
            return NOT_SAVING
        try:
            self.storage.setItem(store_key(lesson), to_json(progress))
        except Exception:
            self.storage = None
            return NOT_SAVING
        return ""

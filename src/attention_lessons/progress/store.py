"""Each lesson's record in Web Storage: load, set aside, save with retry, merge with other tabs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Protocol

from ..engine import Lesson, StateError
from .merging import merge, was_reset
from .outcomes import NOT_SAVING, NOT_SET_ASIDE, Outcome, notices, said, salvaged, set_aside
from .record import VERSION, Progress, Unreadable, newer_version, salvage_json, to_json


@dataclass(frozen=True)
class Loaded:
    """The progress to start from, a notice to show, and whether the record was unreadable."""

    progress: Progress
    notice: str = ""
    unreadable: bool = False
    dropped: tuple[str, ...] = ()  # the parts that could not be read and were left out
    older: bool = False  # written by an older build, one that never read this build's records
    newer: bool = False  # unreadable because a newer build wrote it

    @property
    def whole(self) -> bool:
        """Return whether the record was read whole, so that it may be written over."""
        return not self.unreadable and not self.dropped

    @property
    def here(self) -> Progress | Unreadable:
        """Return the progress as another page (the track) counts it: a record this build
        cannot read is never taken for an empty one."""
        return Unreadable(self.newer) if self.unreadable else self.progress


def store_key(lesson: Lesson) -> str:
    """Return the storage key a lesson's progress is kept under, one record per lesson."""
    return f"attention-lessons:{lesson.slug}:progress"


def backup_key(lesson: Lesson) -> str:
    """Return the one key an unreadable record of a lesson is set aside under."""
    return f"{store_key(lesson)}:unreadable"


def load_record(raw: str | None, lesson: Lesson) -> Loaded:
    """Read a stored record; an unreadable one starts afresh and is named so it can be kept."""
    if raw is None:
        return Loaded(Progress())
    try:
        read = salvage_json(raw, lesson)
    except StateError:
        return Loaded(Progress(), set_aside(backup_key(lesson)), unreadable=True,
                      newer=newer_version(raw))
    notice = salvaged(backup_key(lesson), read.dropped) if read.dropped else ""
    return Loaded(read.progress, notice, dropped=read.dropped, older=read.version < VERSION)


class Storage(Protocol):
    """What the store needs of the browser's localStorage."""

    def getItem(self, key: str) -> object: ...

    def setItem(self, key: str, value: str) -> None: ...

    def removeItem(self, key: str) -> None: ...


def read_item(storage: Storage | None, key: str) -> str | None:
    """Return what storage holds under key, or None: no storage, nothing there, or a read it
    refuses."""
    if storage is None:
        return None
    try:
        raw = storage.getItem(key)
    except Exception:
        return None
    return raw if isinstance(raw, str) else None  # JavaScript's null is not None in Pyodide


def write_item(storage: Storage | None, key: str, value: str) -> bool:
    """Store a small note under key (a time, a dismissal); return whether storage took it."""
    if storage is None:
        return False
    try:
        storage.setItem(key, value)
    except Exception:
        return False
    return True


@dataclass
class Store:
    """Web Storage, where every change tries to save and a failed save is retried at the next.

    Rules: an unreadable record is copied once to its lesson's one backup key, so reloading
    never copies it again and backups never pile up; one that cannot be copied is never
    written over until Reset clears it. Saves read the stored record and merge this tab's
    work into it, so that two tabs never silently overwrite each other; a stored record this
    tab cannot read whole, and has not set aside, is never written over (another tab, maybe on
    a newer build, wrote it): saving stops and says to reload. A record of an older version
    was written by a tab that never read this one's, so it merges against the older record
    that tab last read.
    """

    storage: Storage | None
    failing: bool = False
    held: dict[str, int] = field(default_factory=dict)  # slug: length of an unreadable record
    base: dict[str, Progress] = field(default_factory=dict)  # what this tab last read or wrote
    said: dict[str, str] = field(default_factory=dict)  # slug: what loading found, while true
    older: dict[str, Progress] = field(default_factory=dict)  # the last older-version record read
    stale: set[str] = field(default_factory=set)  # slugs whose stored record this tab cannot read

    @property
    def saving(self) -> bool:
        """Return whether the last save reached storage."""
        return (self.storage is not None and not self.failing and not self.held
                and not self.stale)

    def _read(self, key: str) -> str | None:
        return read_item(self.storage, key)

    def peek(self, lesson: Lesson) -> Progress | Unreadable:
        """Read a lesson's progress for another page (the track), setting nothing aside."""
        return load_record(self._read(store_key(lesson)), lesson).here

    def load(self, lesson: Lesson) -> tuple[Progress, str]:
        """Read a lesson's progress and the notice to show; an unreadable record is set aside."""
        try:  # a storage that refuses reads (site data blocked) keeps progress in memory
            raw = None if self.storage is None else self.storage.getItem(store_key(lesson))
        except Exception:
            self.storage = None
        if self.storage is None:
            return Progress(), NOT_SAVING
        raw = raw if isinstance(raw, str) else None
        loaded = load_record(raw, lesson)
        self.base[lesson.slug] = loaded.progress
        if loaded.older:
            self.older[lesson.slug] = loaded.progress
        self.said[lesson.slug] = "" if loaded.whole else self._set_aside(lesson, raw, loaded)
        return loaded.progress, self.said[lesson.slug]

    def _set_aside(self, lesson: Lesson, raw: str | None, loaded: Loaded) -> str:
        assert self.storage is not None
        assert raw is not None
        key = backup_key(lesson)
        earlier = self._read(key)
        if earlier != raw:
            try:
                self.storage.setItem(key, raw)
            except Exception:
                self.held[lesson.slug] = len(raw)
                return NOT_SET_ASIDE
        if loaded.dropped:
            return salvaged(key, loaded.dropped, before=earlier == raw)
        if earlier == raw:
            return set_aside(key, before=True)
        return set_aside(key, replaced=earlier is not None)

    def _stored(self, lesson: Lesson) -> Loaded | None:
        # The stored record, or None when it cannot be read whole and is not the copy this
        # browser set aside: another tab wrote it, so this tab is out of date and must not
        # write over it.
        raw = self._read(store_key(lesson))
        stored = load_record(raw, lesson)
        if stored.whole or raw == self._read(backup_key(lesson)):
            self.stale.discard(lesson.slug)
            return stored
        self.stale.add(lesson.slug)
        return None

    def _merge(self, lesson: Lesson, progress: Progress, stored: Loaded) -> tuple[Progress, bool]:
        # Merge this tab's progress with the stored record; say whether that record went back
        # past what this tab knew of it, which only Reset or Import does.
        if not stored.whole:  # the copy set aside: this tab's own work replaces it
            return progress, False
        base = self.base.get(lesson.slug, Progress())
        if stored.older:  # its tab read the older record it last wrote, not this tab's saves;
            # knowing none, this tab's fields stand where the two differ
            base = self.older.get(lesson.slug, stored.progress)
            self.older[lesson.slug] = stored.progress
            merged = merge(base, progress, stored.progress, lesson)
            # an older version holds no explored points: Explore is this tab's, as it was
            return replace(merged, explore=progress.explore), was_reset(base, stored.progress)
        return merge(base, progress, stored.progress, lesson), was_reset(base, stored.progress)

    def notice(self, lesson: Lesson, outcome: Outcome) -> str:
        """Return what loading found, while it is still true, with a current trouble saving."""
        return notices(self.said.get(lesson.slug, ""), said(outcome))

    def copy_set_aside(self, lesson: Lesson) -> int | None:
        """Return the length of the unreadable record set aside for a lesson, if there is one."""
        copy = self._read(backup_key(lesson))
        return None if copy is None else len(copy)

    def save(self, lesson: Lesson, progress: Progress) -> tuple[Progress, Outcome]:
        """Merge this tab's progress into the stored record and save it; say how it went."""
        if self.storage is None:
            return progress, Outcome.NOT_SAVING
        if lesson.slug in self.held:
            return progress, Outcome.NOT_SET_ASIDE
        stored = self._stored(lesson)
        if stored is None:
            return progress, Outcome.OUT_OF_DATE
        return self._write(lesson, self._merge(lesson, progress, stored)[0])

    def put(self, lesson: Lesson, progress: Progress) -> tuple[Progress, Outcome]:
        """Replace the stored record outright (Import)."""
        outcome = self._may_replace(lesson)
        if outcome is not Outcome.SAVED:
            return progress, outcome
        return self._write(lesson, progress)

    def _may_replace(self, lesson: Lesson) -> Outcome:
        # SAVED once this tab may replace the stored record outright, else why not: an
        # unreadable record that could not be set aside is cleared first (Reset offers to); one
        # another tab wrote that this tab cannot read stays.
        if self.storage is None:
            return Outcome.NOT_SAVING
        if self.held.pop(lesson.slug, None) is not None:
            try:
                self.storage.removeItem(store_key(lesson))
            except Exception:
                self.held[lesson.slug] = 0
                return Outcome.NOT_SET_ASIDE
            self.said[lesson.slug] = ""  # "nothing you do here is saved" is no longer true
            return Outcome.SAVED
        return Outcome.SAVED if self._stored(lesson) is not None else Outcome.OUT_OF_DATE

    def write_all(self, records: Iterable[tuple[Lesson, Progress]]
                  ) -> tuple[Outcome, Lesson | None]:
        """Store every lesson's record or none (the track's import, on confirm): SAVED once all
        are stored, else why nothing was, and the lesson that stopped it.

        A stored record read without a part that could not be read is set aside first, as a
        lesson page sets it aside on load; one this build cannot read at all is never written
        over. Should any write be refused, those before it are undone.
        """
        if self.storage is None:
            return Outcome.NOT_SAVING, None
        writes: list[tuple[Lesson, str, str]] = []
        for lesson, progress in records:
            raw = self._read(store_key(lesson))
            stored = load_record(raw, lesson)
            if stored.unreadable:
                return (Outcome.OUT_OF_DATE if stored.newer else Outcome.UNREADABLE), lesson
            if stored.dropped and raw is not None and raw != self._read(backup_key(lesson)):
                writes.append((lesson, backup_key(lesson), raw))
            writes.append((lesson, store_key(lesson), to_json(progress)))
        done: list[tuple[str, str | None]] = []
        for lesson, key, value in writes:
            before = self._read(key)
            try:
                self.storage.setItem(key, value)
            except Exception:
                self._undo(done)
                return Outcome.NOT_SAVED_YET, lesson
            done.append((key, before))
        return Outcome.SAVED, None

    def _undo(self, done: list[tuple[str, str | None]]) -> None:
        assert self.storage is not None
        for key, before in reversed(done):
            try:  # what was there fitted before, and the later writes are gone first
                if before is None:
                    self.storage.removeItem(key)
                else:
                    self.storage.setItem(key, before)
            except Exception:
                continue

    def forget(self, lesson: Lesson) -> tuple[Progress, Outcome]:
        """Reset: replace the stored record with a fresh one and remove the set-aside copy."""
        outcome = self._may_replace(lesson)  # before the copy goes, which tells this tab's own
        if outcome is not Outcome.SAVED:
            return Progress(), outcome
        assert self.storage is not None
        try:
            self.storage.removeItem(backup_key(lesson))
        except Exception:
            pass  # the copy stays, and the notice that names it with it
        else:
            self.said[lesson.slug] = ""
        return self._write(lesson, Progress())

    def sync(self, lesson: Lesson, progress: Progress) -> tuple[Progress, Outcome]:
        """Take in what another tab saved (a `storage` event), keeping this tab's work too."""
        if self.storage is None or lesson.slug in self.held:
            return progress, Outcome.SAVED
        stored = self._stored(lesson)
        if stored is None:
            return progress, Outcome.OUT_OF_DATE
        if not stored.whole:  # the copy set aside is stored still: nothing new to take in
            return progress, Outcome.SAVED
        merged, went_back = self._merge(lesson, progress, stored)
        self.base[lesson.slug] = stored.progress
        if merged != stored.progress:
            merged, outcome = self._write(lesson, merged)
            if outcome is not Outcome.SAVED:
                return merged, outcome
        if merged == progress:
            return merged, Outcome.SAVED
        return merged, Outcome.RESET_ELSEWHERE if went_back else Outcome.FROM_OTHER_TAB

    def _write(self, lesson: Lesson, progress: Progress) -> tuple[Progress, Outcome]:
        assert self.storage is not None
        try:
            self.storage.setItem(store_key(lesson), to_json(progress))
        except Exception:
            self.failing = True
            return progress, Outcome.NOT_SAVED_YET
        self.failing = False
        self.base[lesson.slug] = progress
        return progress, Outcome.SAVED

"""One backup for the whole course: every lesson's record in one file, read back and merged."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..engine import Explore, Worked
from .checking import gate
from .merging import merge
from .record import Progress, Unreadable
from .transfer import KIND, NOT_THIS_SITE, describe, parse_text, quoted, read_record, refused

COURSE_KIND = "attention-lessons course progress"
COURSE_VERSION = 1
COURSE_FILE = "attention-lessons-course-progress.json"
FIELDS = frozenset({"kind", "version", "lessons"})
NAMED = 3  # lessons this site lacks that a summary names one by one; the rest are counted


def course_document(progress: Mapping[str, Progress]) -> dict[str, Any]:
    """Return the backup as JSON values: its kind and version, and each lesson's record by slug."""
    return {"kind": COURSE_KIND, "version": COURSE_VERSION,
            "lessons": {slug: asdict(record) for slug, record in progress.items()}}


def export_course(progress: Mapping[str, Progress]) -> str:
    """Return the file "Download all my progress" saves: every lesson's record."""
    return json.dumps(course_document(progress), sort_keys=True, indent=1)


def bring_in(current: Progress, incoming: Progress, worked: Worked,
             their_takeaway: bool = False) -> Progress:
    """Merge a backup's record of a lesson into the one here by the two-tab rules, keeping a
    gate met here met, a prediction locked here as it is, and the takeaway here unless the
    learner chose the backup's."""
    # A backup shares no history with this browser, so it merges against a fresh record: what
    # it holds is brought in now; locks, counts and the right reading from both. Nothing says
    # which of two takeaways was written later, so the learner chooses (takeaways below).
    merged = merge(Progress(), current, incoming, worked.lesson)
    if current.prediction is not None:  # a locked prediction changes only through Reset
        merged = replace(merged, prediction=current.prediction, why=current.why)
    if current.takeaway is not None and not (their_takeaway and incoming.takeaway is not None):
        merged = replace(merged, takeaway=current.takeaway)
    if gate(current, worked) and not gate(merged, worked):
        merged = replace(merged, answers=current.answers, graded=current.graded)
    return merged


def takeaways(current: Progress | Unreadable, incoming: Progress) -> tuple[str, str] | None:
    """Return the takeaway here and the backup's where both have one and they differ: the
    learner chooses which to keep."""
    if not isinstance(current, Progress) or current.takeaway is None:
        return None
    if incoming.takeaway is None or incoming.takeaway == current.takeaway:
        return None
    return current.takeaway, incoming.takeaway


@dataclass(frozen=True)
class LessonIncoming:
    """One lesson's part of a checked backup: the backup's record, the record here that the
    summary describes (or that it cannot be read), what merging the two makes with the
    takeaway here kept, the summary in words, and the two takeaways where they differ."""

    slug: str
    progress: Progress
    current: Progress | Unreadable
    merged: Progress | Unreadable
    summary: str
    note: str = ""
    takeaways: tuple[str, str] | None = None

    def result(self, their_takeaway: bool = False) -> Progress | Unreadable:
        """Return what the confirm stores, with the backup's takeaway if the learner chose it."""
        if self.takeaways is None or not their_takeaway or not isinstance(self.merged, Progress):
            return self.merged
        return replace(self.merged, takeaway=self.progress.takeaway)


@dataclass(frozen=True)
class CourseIncoming:
    """A checked backup: each lesson's part in track order, the lessons it names that this site
    lacks, and whether the progress here changed since its summary was last shown."""

    lessons: tuple[LessonIncoming, ...]
    missing: tuple[str, ...] = ()
    what: str = "file"
    changed: bool = False

    @property
    def summary(self) -> tuple[str, ...]:
        """Return what the confirm does, one line for each lesson, to show before it is done."""
        lines = [part.summary for part in self.lessons]
        if self.missing:
            lines.append(f"The {self.what} also holds progress for {_lacking(self.missing)}; "
                         "it is left out.")
        if self.changed:
            chose = "chose the file" if self.what == "file" else "opened the link"
            lines.insert(0, f"Your progress here changed since you {chose}, so nothing was "
                            "brought in yet. This is what it brings in now:")
        return tuple(lines)

    def records(self, their_takeaways: frozenset[str] = frozenset()) -> dict[str, Progress]:
        """Return the merged record of each lesson the confirm changes, by slug, with the
        backup's takeaway in the lessons named in their_takeaways."""
        return {part.slug: result for part in self.lessons
                if isinstance(result := part.result(part.slug in their_takeaways), Progress)
                and result != part.current}


def read_course(text: str, current: Mapping[str, Progress | Unreadable],
                worked: Mapping[str, Worked], what: str = "file") -> CourseIncoming:
    """Check a course backup, or one lesson's file, before anything changes, raising StateError
    with a clear message; `what` says whether it came as a "file" or a "link"."""
    records = _records(parse_text(text, what), what)
    missing = tuple(slug for slug in records if slug not in worked)
    if len(missing) == len(records):
        raise refused(what, f"holds progress only for {_lacking(missing)}" if missing
                      else "holds no lesson's progress")
    read = {slug: read_record(records[slug], w, what, w.lesson.code)
            for slug, w in worked.items() if slug in records}
    return _summarised(read, current, worked, what, missing)


def confirm_course(incoming: CourseIncoming, current: Mapping[str, Progress | Unreadable],
                   worked: Mapping[str, Worked]) -> CourseIncoming:
    """Merge the backup again into the progress here now: the confirm writes its records unless
    it is `changed`, the progress here no longer the one its summary described (Explore's
    points aside, which are scratch), which must then be confirmed again."""
    read = {part.slug: (part.progress, part.note) for part in incoming.lessons}
    fresh = _summarised(read, current, worked, incoming.what, incoming.missing)
    changed = [_graded(part.current) for part in incoming.lessons] != [
        _graded(part.current) for part in fresh.lessons]
    return replace(fresh, changed=changed)


def _graded(here: Progress | Unreadable) -> Progress | Unreadable:
    return replace(here, explore=Explore()) if isinstance(here, Progress) else here


def _records(raw: dict[str, Any], what: str) -> dict[str, Any]:
    kind = raw.get("kind")
    if kind == KIND:  # one lesson's file, as its Download saves it
        slug = raw.get("lesson")
        if not isinstance(slug, str):
            raise refused(what, NOT_THIS_SITE[what])
        return {slug: raw.get("progress")}
    if kind != COURSE_KIND:
        if isinstance(kind, str) and kind.startswith("attention-lessons"):
            raise refused(what, "is from this site but holds something other than progress")
        raise refused(what, NOT_THIS_SITE[what])
    version = raw.get("version")
    if type(version) is int and version > COURSE_VERSION:
        named = f"backup version {version:,}; " if version < 10**6 else ""  # never 4,000 digits
        raise refused(what, f"was made by a newer version of this site ({named}this page reads "
                            f"version {COURSE_VERSION}). Reload the page to get the newest "
                            "version, then try again")
    if version != COURSE_VERSION or type(version) is not int:
        raise refused(what, f"is not a course backup this site made (it has no version "
                            f"{COURSE_VERSION})")
    unknown = sorted(set(raw) - FIELDS)
    if unknown:
        raise refused(what, f"has a field this site does not know, {_named(unknown[0])}")
    lessons = raw.get("lessons")
    if not isinstance(lessons, dict):
        raise refused(what, "holds no lessons' progress where a backup keeps it")
    return lessons


def _summarised(read: Mapping[str, tuple[Progress, str]],
                current: Mapping[str, Progress | Unreadable], worked: Mapping[str, Worked],
                what: str, missing: tuple[str, ...]) -> CourseIncoming:
    parts = []
    for slug, (progress, note) in read.items():
        here, w = current[slug], worked[slug]
        if isinstance(here, Unreadable):
            parts.append(LessonIncoming(slug, progress, here, here, _left(w, here, what), note))
            continue
        merged = bring_in(here, progress, w)
        code = w.lesson.code
        choose = takeaways(here, progress)
        if merged == here:
            summary = (f"{code}: the {what} brings nothing new; your progress here stays "
                       f"({describe(here, w)}).{note}")
            if choose:
                summary = (f"{code}: the {what} brings nothing new but its takeaway; your "
                           f"progress here stays ({describe(here, w)}).{note}")
        else:
            summary = (f"{code}: your progress here ({describe(here, w)}) and the {what}'s "
                       f"({describe(progress, w)}) merge into {describe(merged, w)}.{note}")
        summary += _kept_lock(here, progress, w, what)
        if choose:
            summary += (f" Your takeaway here and the {what}'s differ: choose below which to "
                        "keep.")
        parts.append(LessonIncoming(slug, progress, here, merged, summary, note, choose))
    return CourseIncoming(tuple(parts), missing, what)


def _left(worked: Worked, here: Unreadable, what: str) -> str:
    # A record this build cannot read is never written over: say why, and how to bring it in.
    code = worked.lesson.code
    if here.newer:
        return (f"{code}: your progress here was saved by a newer version of this site, which "
                f"this page cannot read, so it is left as it is and nothing of the {what}'s is "
                "brought in for it. Reload the page to bring this in.")
    return (f"{code}: your progress here cannot be read, so it is left as it is and nothing of "
            f"the {what}'s is brought in for it. Open {code} once (it sets that record aside), "
            "then bring this in again.")


def _kept_lock(here: Progress, incoming: Progress, worked: Worked, what: str) -> str:
    # A locked prediction is never changed by a merge: say so where the two differ.
    lesson = worked.lesson
    if here.prediction is None or incoming.prediction is None:
        return ""
    if here.prediction == incoming.prediction:
        return ""
    mine = quoted(lesson.prediction_label(here.prediction))
    theirs = quoted(lesson.prediction_label(incoming.prediction))
    return (f" The {what}'s locked prediction ({theirs}) differs from yours here ({mine}): "
            "yours stays, with your reason, since a locked prediction changes only through "
            "Reset.")


def _named(name: str) -> str:
    # A hostile file may name a lesson with 100,000 characters: show a few of them.
    return repr(name if len(name) <= 40 else f"{name[:37]}...")


def _lacking(slugs: tuple[str, ...]) -> str:
    names = ", ".join(_named(slug) for slug in slugs[:NAMED])
    more = f" and {len(slugs) - NAMED:,} more" if len(slugs) > NAMED else ""
    lessons = "a lesson" if len(slugs) == 1 else "lessons"
    return f"{lessons} this site does not have ({names}{more})"


def readable(here: Mapping[str, Progress | Unreadable]) -> dict[str, Progress]:
    """Return the records a backup holds: every lesson's here but those this page cannot read,
    which are left out, never saved as empty."""
    return {slug: record for slug, record in here.items() if isinstance(record, Progress)}

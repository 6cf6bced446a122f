"""How a save went, as a value the callers branch on, and the words each is said in: the
store's notices, what Reset also removes, and why an Import or a confirm brought nothing in."""

from __future__ import annotations

from enum import Enum

from ..engine import Lesson

NOT_SAVING = ("This browser is not letting the page save, so your progress lasts only while "
              "this tab is open.")
NOT_SAVED_YET = ("Your latest change is not saved: this browser's storage refused it (it may be "
                 "full). The page tries again at every change; this notice goes once a save works.")
NOT_SET_ASIDE = ("Your saved progress could not be read, and there is no room to set it aside, so "
                 "it is left as it was and nothing you do here is saved. Reset my progress offers "
                 "to clear it.")
FROM_OTHER_TAB = "Brought in what you did in another tab."
RESET_ELSEWHERE = "Your progress was reset or replaced in another tab; this tab follows it."
OUT_OF_DATE = ("This page is out of date: another tab saved your progress in a form this page "
               "cannot read (from a newer version of the site, perhaps), so nothing here is saved "
               "and what that tab saved is left as it is. Reload to keep working.")


class Outcome(Enum):
    """How a save, a replace, another tab's save taken in, or a confirm's writes went."""

    SAVED = "saved"
    NOT_SAVING = "not saving"  # site data blocked: the work lasts only while the tab is open
    NOT_SAVED_YET = "not saved yet"  # storage refused it (full): tried again at every change
    NOT_SET_ASIDE = "not set aside"  # an unreadable record, and no room to set it aside
    OUT_OF_DATE = "out of date"  # another tab saved what this build cannot read: a newer build
    UNREADABLE = "unreadable"  # (a confirm) a record here that no build can read
    FROM_OTHER_TAB = "from another tab"  # another tab's work, taken in beside this tab's
    RESET_ELSEWHERE = "reset elsewhere"  # another tab reset or replaced the record


SAID = {Outcome.NOT_SAVING: NOT_SAVING, Outcome.NOT_SAVED_YET: NOT_SAVED_YET,
        Outcome.NOT_SET_ASIDE: NOT_SET_ASIDE, Outcome.OUT_OF_DATE: OUT_OF_DATE,
        Outcome.FROM_OTHER_TAB: FROM_OTHER_TAB, Outcome.RESET_ELSEWHERE: RESET_ELSEWHERE}


def said(outcome: Outcome) -> str:
    """Return what the page says of an outcome: nothing where it was saved."""
    return SAID.get(outcome, "")


def notices(loaded: str, trouble: str) -> str:
    """Keep what loading found in view all session, adding a current trouble with saving."""
    return loaded if trouble in loaded else f"{loaded} {trouble}".strip()


def set_aside(key: str, before: bool = False, replaced: bool = False) -> str:
    """Return the notice for a record set aside now, or set aside on an earlier visit; one set
    aside now in place of an earlier one says so."""
    when = "on an earlier visit" if before else "just now"
    instead = ", in place of the unreadable record set aside there before" if replaced else ""
    return (f"Your saved progress could not be read, so it was set aside {when} (kept in this "
            f"browser as {key}{instead}) and you start afresh.")


def salvaged(key: str, dropped: tuple[str, ...], before: bool = False) -> str:
    """Return the notice for a record loaded without the parts that could not be read."""
    when = "on an earlier visit" if before else "just now"
    return (f"Part of your saved progress could not be read, so it was left out: "
            f"{'; '.join(dropped)}. The rest of your work is here; the whole record was set "
            f"aside {when} (kept in this browser as {key}).")


def removes_copy(length: int) -> str:
    """Return what Reset also removes when an unreadable record was set aside."""
    return (f"It also removes the copy of unreadable saved progress ({length:,} characters) "
            "that this browser set aside.")


def clears(length: int) -> str:
    """Return what Reset also removes when an unreadable record could not be set aside."""
    return (f"It also removes the unreadable saved record ({length:,} characters) that this "
            "browser had no room to set aside.")


def not_imported(outcome: Outcome) -> str:
    """Return what a lesson's Import says when its record could not be stored."""
    if outcome is Outcome.NOT_SAVED_YET:
        return ("Nothing was imported: this browser's storage refused the file's progress (it "
                "may be full), so your progress here is as it was. Free some space for this "
                "site, then confirm again.")
    return f"Nothing was imported. {said(outcome)}"


def not_brought_in(outcome: Outcome, lesson: Lesson | None) -> str:
    """Return why a confirm of the track's import stored nothing, naming the lesson."""
    code = lesson.code if lesson is not None else ""
    if outcome is Outcome.NOT_SAVED_YET:
        return (f"Nothing was brought in: this browser's storage refused {code}'s progress (it "
                "may be full), so every lesson is as it was. Free some space for this site, "
                "then bring it in again.")
    if outcome in (Outcome.OUT_OF_DATE, Outcome.UNREADABLE):
        why = ("was saved by a newer version of this site" if outcome is Outcome.OUT_OF_DATE
               else "cannot be read")
        return (f"Nothing was brought in: your progress for {code} here {why}, and it is left "
                "as it is.")
    return said(outcome)

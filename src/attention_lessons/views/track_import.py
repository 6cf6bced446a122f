"""The track's import, on the page: the summary of a backup file or a progress link, one line a
lesson, the takeaways to choose between, and the confirm."""

from __future__ import annotations

from collections.abc import Mapping

from ..engine import Worked
from ..progress import CourseIncoming, quoted
from .updates import PageUpdate

NOTHING_NEW = " Nothing here would change, so there is nothing to confirm."
CANNOT_KEEP = (" This browser is not letting the page save, so nothing can be brought in here: "
               "allow this site to keep data, then try again.")
CONFIRM = {"file": "Bring in the file's progress", "link": "Bring in the link's progress"}


def takeaway_ids(slug: str) -> tuple[str, str, str]:
    """Return the ids of a lesson's takeaway choice on the track: its fieldset, and the
    radios that keep the takeaway here and take the backup's."""
    return f"takeaway_choice_{slug}", f"takeaway_here_{slug}", f"takeaway_theirs_{slug}"


def import_cleared(worked: Mapping[str, Worked], message: str = "") -> PageUpdate:
    """Return the track's import with no backup in view: a message, if any, and no confirm
    and no takeaway to choose."""
    ids = [takeaway_ids(slug) for slug in worked]
    return PageUpdate(texts={"course_import_message": message},
                      hidden={"course_import_confirm": True, **{i[0]: True for i in ids}},
                      checked={**{i[1]: True for i in ids}, **{i[2]: False for i in ids}})


def incoming_update(incoming: CourseIncoming, worked: Mapping[str, Worked],
                    can_store: bool = True, their_takeaways: frozenset[str] = frozenset(),
                    trouble: str = "") -> PageUpdate:
    """Return the track's import summary, one line a lesson, each takeaway to choose, and its
    confirm button: shown, and named for the file or the link, only where the confirm would
    change something and this browser can store it; `trouble` says why a confirm stored
    nothing, above the summary."""
    changes = bool(incoming.records(their_takeaways)) and can_store
    lines = "\n".join((trouble, *incoming.summary) if trouble else incoming.summary) + (
        CANNOT_KEEP if not can_store else "" if changes else NOTHING_NEW)
    update = import_cleared(worked, lines)
    update.texts["course_import_confirm"] = CONFIRM[incoming.what]
    update.hidden["course_import_confirm"] = not changes
    for part in incoming.lessons:
        if part.takeaways is None or not can_store:
            continue
        fieldset, here, theirs = takeaway_ids(part.slug)
        mine, other = part.takeaways
        update.hidden[fieldset] = False
        update.texts[f"{here}_text"] = f"Yours here: {quoted(mine)}"
        update.texts[f"{theirs}_text"] = f"The {incoming.what}'s: {quoted(other)}"
        update.checked[theirs] = part.slug in their_takeaways
        update.checked[here] = part.slug not in their_takeaways
    return update


def brought_in(incoming: CourseIncoming, worked: Mapping[str, Worked],
               their_takeaways: frozenset[str] = frozenset()) -> str:
    """Return what the track says once a backup's progress is merged in."""
    codes = ", ".join(worked[slug].lesson.code for slug in incoming.records(their_takeaways))
    return (f"Brought in from the {incoming.what}: {codes}. Each lesson's status above is your "
            "progress now.")

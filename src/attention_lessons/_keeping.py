"""Where progress is kept, in words: this browser only, whether it agreed to keep it, when it
was last backed up, Safari's seven days, and what the track's backup buttons say back."""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urldefrag

from ._backup import CourseIncoming
from ._dom import PageUpdate
from ._lesson import Worked
from ._link import progress_link
from ._progress import Progress, Unreadable, gate
from ._transfer import quoted

LAST_BACKUP_KEY = "attention-lessons:last-backup"  # milliseconds since 1970, as Date.now()
SUGGESTION_KEY = "attention-lessons:backup-suggestion"  # "dismissed" once the learner says so
DISMISSED = "dismissed"
_MILLISECONDS = re.compile(r"[0-9]{1,15}")  # a stored time is read only when it is one

# What the browser answered when asked to keep this site's storage (StorageManager.persist).
KEPT, MAY_BE_CLEARED, NO_API, FAILED = "kept", "may be cleared", "missing", "failed"
PERSIST_SAID = {
    KEPT: "This browser agreed to keep your progress: it will not clear it to make room.",
    MAY_BE_CLEARED: ("This browser did not agree, so it may still clear your progress when it "
                     "needs room. Back it up below to be safe."),
    NO_API: ("This browser cannot be asked to keep its storage, so it may clear your progress. "
             "Back it up below to be safe."),
    FAILED: ("Asking this browser to keep your progress did not work, so it may still clear "
             "it. Back it up below to be safe."),
}
SAFARI = ("Safari, and every browser on an iPhone or iPad, deletes what this site saved after "
          "seven days without a visit. To keep your progress, add this site to your home screen "
          "(Share, then Add to Home Screen), or back it up below.")
SUGGESTION = ("Gate met. Your progress is kept only in this browser: back up the whole course "
              "from the track, as one file or a link, to keep it safe or carry it to another "
              "device.")
COPIED = ("Link copied. Open it in another browser or on another device to bring your progress "
          "there. It holds your takeaways, so send it only to yourself.")
NOT_COPIED = ("This browser would not copy the link. Select the link below and copy it "
              "yourself.")
SHARED = "Shared. Open the link on the other device to bring your progress there."
NOT_SHARED = "Not shared; nothing was sent."
DOWNLOADED = "Downloaded. Import that file on the track in another browser to bring it there."
NOTHING_NEW = " Nothing here would change, so there is nothing to confirm."
CANNOT_KEEP = (" This browser is not letting the page save, so nothing can be brought in here: "
               "allow this site to keep data, then try again.")
CONFIRM = {"file": "Bring in the file's progress", "link": "Bring in the link's progress"}


def persist_said(answer: str) -> str:
    """Return what the page says once the browser answered the learner's ask to keep storage."""
    return PERSIST_SAID[answer]


def kept_line(persisted: bool | None, backed_up: str) -> str:
    """Return the track's one line on where progress lives: `persisted` is the browser's answer
    (None where it cannot say), `backed_up` the last backup's time as the browser writes it,
    or "" for never."""
    if persisted is None:
        agreed = "this browser does not say whether it will keep it"
    elif persisted:
        agreed = "this browser has agreed to keep it"
    else:
        agreed = "this browser has not agreed to keep it, so it may clear it to make room"
    return (f"Your progress is kept in this browser only, and {agreed}. "
            f"Last backed up: {backed_up or 'never'}.")


def backed_up_at(raw: object) -> int | None:
    """Return the time of the last backup stored under LAST_BACKUP_KEY, or None for never (or
    for anything that is not a time this page stored)."""
    if not isinstance(raw, str) or not _MILLISECONDS.fullmatch(raw):
        return None
    return int(raw)


def is_webkit(user_agent: str, touch_points: int = 0) -> bool:
    """Return whether the browser is Safari's engine, which deletes a site's storage after
    seven days without a visit: Safari itself, and every browser on an iPhone or iPad."""
    ios = re.search(r"\b(iPhone|iPad|iPod)\b", user_agent) is not None
    # iPadOS asks for the desktop site: it says Macintosh, and only its touch screen tells
    ipad_as_mac = "Macintosh" in user_agent and touch_points > 1
    # Chromium and Firefox say "AppleWebKit" and "Safari" too, but name themselves as well
    # (headless Chromium says "HeadlessChrome")
    others = re.search(r"(Chrome|Chromium|CriOS|Edg|EdgA|EdgiOS|Firefox|FxiOS|OPR)/",
                       user_agent) is not None
    return ios or ipad_as_mac or ("AppleWebKit" in user_agent and not others)


def holds_work(progress: Progress) -> bool:
    """Return whether a lesson's record holds anything a learner did, so that it is worth
    keeping (the lesson page offers to keep storage from then on)."""
    return progress != Progress()


def suggest_backup(progress: Progress, worked: Worked, dismissed: object) -> bool:
    """Return whether the lesson page suggests a backup: its gate is met, and the learner has
    not dismissed the suggestion (`dismissed`: what is stored under SUGGESTION_KEY)."""
    return gate(progress, worked) and dismissed != DISMISSED


def readable(here: Mapping[str, Progress | Unreadable]) -> dict[str, Progress]:
    """Return the records a backup holds: every lesson's here but those this page cannot read,
    which are left out, never saved as empty."""
    return {slug: record for slug, record in here.items() if isinstance(record, Progress)}


def left_out(here: Mapping[str, Progress | Unreadable], worked: Mapping[str, Worked],
             what: str) -> str:
    """Return what the track says of the lessons a backup (a "file" or a "link") leaves out
    because this page cannot read their records; "" when it holds every lesson."""
    reasons = []
    for slug, record in here.items():
        if isinstance(record, Unreadable):
            code = worked[slug].lesson.code
            reasons.append(f"{code} (saved by a newer version of this site: reload the page to "
                           "include it)" if record.newer else f"{code} (its saved progress "
                           f"cannot be read: open {code} once to set it aside)")
    if not reasons:
        return ""
    return (f" The {what} leaves out {' and '.join(reasons)}, so this is not counted as a "
            "backup.")


def course_link(page_url: str, progress: Mapping[str, Progress]) -> str:
    """Return the track's address with the course's progress in its fragment."""
    return urldefrag(page_url).url + progress_link(progress)


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

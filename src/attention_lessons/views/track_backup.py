"""Where progress is kept, in words: this browser only, whether it agreed to keep it, when it
was last backed up, Safari's seven days, and what the track's backup buttons say back."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..engine import Worked
from ..progress import Progress, Unreadable

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
COPIED = ("Link copied. Open it in another browser or on another device to bring your progress "
          "there. It holds your takeaways, so send it only to yourself.")
NOT_COPIED = ("This browser would not copy the link. Select the link below and copy it "
              "yourself.")
SHARED = "Shared. Open the link on the other device to bring your progress there."
NOT_SHARED = "Not shared; nothing was sent."
DOWNLOADED = "Downloaded. Import that file on the track in another browser to bring it there."


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



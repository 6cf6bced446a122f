"""The two small notes kept in storage beside the records: when the course was last backed up,
and a back-up suggestion the learner dismissed."""

from __future__ import annotations

import re

LAST_BACKUP_KEY = "attention-lessons:last-backup"  # milliseconds since 1970, as Date.now()
SUGGESTION_KEY = "attention-lessons:backup-suggestion"  # "dismissed" once the learner says so
DISMISSED = "dismissed"
_MILLISECONDS = re.compile(r"[0-9]{1,15}")  # a stored time is read only when it is one


def backed_up_at(raw: object) -> int | None:
    """Return the time of the last backup stored under LAST_BACKUP_KEY, or None for never (or
    for anything that is not a time this page stored)."""
    if not isinstance(raw, str) or not _MILLISECONDS.fullmatch(raw):
        return None
    return int(raw)

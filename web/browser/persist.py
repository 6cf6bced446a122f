"""Asking the browser to keep this site's storage, on the track and on a lesson: only when the
learner asks, saying what it answered."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from pyscript import window

import attention_lessons as course

from .dom import on, say

# What else to show again once the browser has answered (the track's line).
AFTER_PERSIST: list[Callable[[], Awaitable[None]]] = []


def storage_manager() -> Any | None:
    """Return navigator.storage, or None where the browser has none (or hides it)."""
    return getattr(window.navigator, "storage", None)


async def persisted() -> bool | None:
    """Return whether the browser keeps this site's storage for good; None where it cannot say."""
    manager = storage_manager()
    if manager is None or getattr(manager, "persisted", None) is None:
        return None
    try:
        return bool(await manager.persisted())
    except Exception:
        return None


@on("click", "#persist")
async def on_persist(event: Any) -> None:
    """The learner asked: ask the browser, once, and say what it answered."""
    manager = storage_manager()
    if manager is None or getattr(manager, "persist", None) is None:
        answer = course.NO_API
    else:
        try:
            await manager.persist()
            kept = await manager.persisted()
        except Exception:
            answer = course.FAILED
        else:
            answer = course.KEPT if kept else course.MAY_BE_CLEARED
    say("persist_message", course.persist_said(answer))
    for then in AFTER_PERSIST:
        await then()

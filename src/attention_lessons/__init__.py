"""Attention computed by hand: the pure-Python core of the lesson site."""

from __future__ import annotations

from ._attention import HeadTrace, attend, concat, project, softmax, split_heads
from ._d8 import QUESTIONS, D8Numbers, Question, compute, truth
from ._errors import FixtureError, LessonError, ParseError, StateError
from ._fixture import Fixture, parse_fixture
from ._grading import TOLERANCE, fitting_prediction, grade, hints_available, within
from ._numbers import Reading, parse_number
from ._page import FixedView, ProgressView, check_announcement, fixed_view, progress_view
from ._progress import (
    Progress,
    check,
    from_json,
    lock_prediction,
    lock_reading,
    open_hint,
    reset,
    reset_projection,
    save_takeaway,
    set_projection,
    to_json,
)
from ._store import NOT_SAVING, NOT_SET_ASIDE, STORE_KEY, Loaded, load_record, notices


def __getattr__(name: str) -> str:
    # importlib.metadata is a heavy import for the browser's start-up: pay for it on demand only.
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version("attention-lessons")
    except PackageNotFoundError:  # in the browser the package is files, not an installed dist
        return "0+browser"


__all__ = [
    "NOT_SAVING",
    "NOT_SET_ASIDE",
    "QUESTIONS",
    "STORE_KEY",
    "TOLERANCE",
    "D8Numbers",
    "FixedView",
    "Fixture",
    "FixtureError",
    "HeadTrace",
    "LessonError",
    "Loaded",
    "ParseError",
    "Progress",
    "ProgressView",
    "Question",
    "Reading",
    "StateError",
    "__version__",
    "attend",
    "check",
    "check_announcement",
    "compute",
    "concat",
    "fitting_prediction",
    "fixed_view",
    "from_json",
    "grade",
    "hints_available",
    "load_record",
    "lock_prediction",
    "lock_reading",
    "notices",
    "open_hint",
    "parse_fixture",
    "parse_number",
    "progress_view",
    "project",
    "reset",
    "reset_projection",
    "save_takeaway",
    "set_projection",
    "softmax",
    "split_heads",
    "to_json",
    "truth",
    "within",
]

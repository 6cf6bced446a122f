"""Attention computed by hand: the pure-Python core of the lesson site."""

from __future__ import annotations

from ._attention import HeadTrace, attend, concat, project, softmax, split_heads
from ._backup import (
    COURSE_FILE,
    CourseIncoming,
    LessonIncoming,
    bring_in,
    confirm_course,
    export_course,
    read_course,
)
from ._course import TrackRow, status, track_view, waiting
from ._dom import (
    PageUpdate,
    bar_width,
    bars_html,
    changes,
    explore_update,
    keys_html,
    page_update,
    projection_figure_update,
    steps_html,
)
from ._errors import FixtureError, LessonError, ParseError, StateError
from ._explore import (
    KEY_MOVES,
    Explore,
    PresetSearches,
    at_preset,
    back_to_fixture,
    choose_scale,
    drag,
    explorable,
    explore_work,
    go_to_preset,
    move,
    show_full_precision,
    step,
    typed,
)
from ._explore_view import (
    ExploreView,
    explore_view,
    move_announcement,
    preset_announcement,
    preset_searching,
)
from ._fixture import Fixture, parse_fixture
from ._grading import TOLERANCE, grade, hints_available, within
from ._lesson import Choice, Lesson, Question, Slip, Worked, truth, work
from ._link import MAX_LINK, holds_progress, progress_link, read_link, unpack_link
from ._merge import merge, was_reset
from ._nesting import too_deep
from ._numbers import Reading, parse_number
from ._page import FixedView, ProgressView, check_announcement, fixed_view, progress_view
from ._progress import (
    Progress,
    check,
    explored_only,
    from_json,
    from_value,
    gate,
    lock_prediction,
    lock_reading,
    open_hint,
    reset,
    reset_projection,
    save_takeaway,
    set_explore,
    set_projection,
    settle,
    to_json,
)
from ._projection_figure import ProjectionFigure, projection_figure
from ._store import (
    FROM_OTHER_TAB,
    NOT_SAVED_YET,
    NOT_SAVING,
    NOT_SET_ASIDE,
    OUT_OF_DATE,
    RESET_ELSEWHERE,
    Loaded,
    Store,
    backup_key,
    clears,
    load_record,
    notices,
    removes_copy,
    salvaged,
    store_key,
)
from ._transfer import (
    Incoming,
    apply_early,
    check_size,
    confirm_import,
    describe,
    export_json,
    export_name,
    read_import,
)
from .lessons import LESSONS


def compute(fixture: Fixture) -> Worked:
    """Work deep dive D8 on a fixture: its two heads, the single head and their differences."""
    return work(LESSONS["d8"], fixture)


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
    "COURSE_FILE",
    "FROM_OTHER_TAB",
    "KEY_MOVES",
    "LESSONS",
    "MAX_LINK",
    "NOT_SAVED_YET",
    "NOT_SAVING",
    "NOT_SET_ASIDE",
    "OUT_OF_DATE",
    "RESET_ELSEWHERE",
    "TOLERANCE",
    "Choice",
    "CourseIncoming",
    "Explore",
    "ExploreView",
    "FixedView",
    "Fixture",
    "FixtureError",
    "HeadTrace",
    "Incoming",
    "Lesson",
    "LessonError",
    "LessonIncoming",
    "Loaded",
    "PageUpdate",
    "ParseError",
    "PresetSearches",
    "Progress",
    "ProgressView",
    "ProjectionFigure",
    "Question",
    "Reading",
    "Slip",
    "StateError",
    "Store",
    "TrackRow",
    "Worked",
    "__version__",
    "apply_early",
    "at_preset",
    "attend",
    "back_to_fixture",
    "backup_key",
    "bar_width",
    "bars_html",
    "bring_in",
    "changes",
    "check",
    "check_announcement",
    "check_size",
    "choose_scale",
    "clears",
    "compute",
    "concat",
    "confirm_course",
    "confirm_import",
    "describe",
    "drag",
    "explorable",
    "explore_update",
    "explore_view",
    "explore_work",
    "explored_only",
    "export_course",
    "export_json",
    "export_name",
    "fixed_view",
    "from_json",
    "from_value",
    "gate",
    "go_to_preset",
    "grade",
    "hints_available",
    "holds_progress",
    "keys_html",
    "load_record",
    "lock_prediction",
    "lock_reading",
    "merge",
    "move",
    "move_announcement",
    "notices",
    "open_hint",
    "page_update",
    "parse_fixture",
    "parse_number",
    "preset_announcement",
    "preset_searching",
    "progress_link",
    "progress_view",
    "project",
    "projection_figure",
    "projection_figure_update",
    "read_course",
    "read_import",
    "read_link",
    "removes_copy",
    "reset",
    "reset_projection",
    "salvaged",
    "save_takeaway",
    "set_explore",
    "set_projection",
    "settle",
    "show_full_precision",
    "softmax",
    "split_heads",
    "status",
    "step",
    "steps_html",
    "store_key",
    "to_json",
    "too_deep",
    "track_view",
    "truth",
    "typed",
    "unpack_link",
    "waiting",
    "was_reset",
    "within",
    "work",
]

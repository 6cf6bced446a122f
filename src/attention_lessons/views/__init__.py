"""Views: what each page shows, as dataclasses of display strings, and where each string goes by
element id, for the lesson pages, Explore's plane, the projection figure and the track. It rests
on the engine and on progress."""

from __future__ import annotations

from .explore import (
    ExploreView,
    explore_view,
    move_announcement,
    preset_announcement,
    preset_searching,
    tip_place,
)
from .heads import Bar, HeadView, compare_text
from .labels import Box, place_labels, text_box, together
from .lesson_page import (
    SUGGESTION,
    FixedView,
    ProgressView,
    check_announcement,
    fixed_view,
    holds_work,
    progress_view,
    suggest_backup,
)
from .plane import THINNEST, WIDEST, line_width, pattern
from .projection import EDGE_AT, FIGURE_SIZE, projection_figure
from .space import SIZE, edge_boxes
from .track import opens_text, status, track_view, waiting
from .track_backup import (
    COPIED,
    DOWNLOADED,
    FAILED,
    KEPT,
    MAY_BE_CLEARED,
    NO_API,
    NOT_COPIED,
    NOT_SHARED,
    SAFARI,
    SHARED,
    is_webkit,
    kept_line,
    left_out,
    persist_said,
)
from .track_import import brought_in, import_cleared, incoming_update, takeaway_ids
from .updates import (
    PageUpdate,
    bar_width,
    bars_html,
    changes,
    explore_update,
    keys_html,
    page_update,
    projection_figure_update,
    steps_html,
    update_json,
)

__all__ = [
    "COPIED",
    "DOWNLOADED",
    "EDGE_AT",
    "FAILED",
    "FIGURE_SIZE",
    "KEPT",
    "MAY_BE_CLEARED",
    "NOT_COPIED",
    "NOT_SHARED",
    "NO_API",
    "SAFARI",
    "SHARED",
    "SIZE",
    "SUGGESTION",
    "THINNEST",
    "WIDEST",
    "Bar",
    "Box",
    "ExploreView",
    "FixedView",
    "HeadView",
    "PageUpdate",
    "ProgressView",
    "bar_width",
    "bars_html",
    "brought_in",
    "changes",
    "check_announcement",
    "compare_text",
    "edge_boxes",
    "explore_update",
    "explore_view",
    "fixed_view",
    "holds_work",
    "import_cleared",
    "incoming_update",
    "is_webkit",
    "kept_line",
    "keys_html",
    "left_out",
    "line_width",
    "move_announcement",
    "opens_text",
    "page_update",
    "pattern",
    "persist_said",
    "place_labels",
    "preset_announcement",
    "preset_searching",
    "progress_view",
    "projection_figure",
    "projection_figure_update",
    "status",
    "steps_html",
    "suggest_backup",
    "takeaway_ids",
    "text_box",
    "tip_place",
    "together",
    "track_view",
    "update_json",
    "waiting",
]

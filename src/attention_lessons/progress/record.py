"""A learner's progress through a lesson: an immutable record, pure transitions, versioned JSON."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from functools import partial
from typing import Any, TypeVar

from ..engine import (
    EDGE,
    Explore,
    Lesson,
    Point,
    StateError,
    finite_float,
    hints_available,
    word,
)
from .nesting import MAX_DEPTH, too_deep

VERSION = 2  # 2 added explore; a record of version 1 loads whole, with nothing explored
MIGRATED = (1,)
EXPLORED_NOTHING: dict[str, object] = {"moved": {}, "preset": None, "scale": "",
                                       "full_precision": False}
MAX_KEYS = 64  # explore's points: a lesson's declared points, "key_1" to "key_64" at most
IDENTITY = ((1.0, 0.0), (0.0, 1.0))
MAX_WHY = 300
MAX_ENTRY = 100
MAX_ANSWER = 200
MAX_TAKEAWAY = 1000
MAX_TEXT = 200_000  # characters of a record or file; a real record is under 3,000
MAX_COUNT = 1_000_000  # attempts or runs: more Checks than a person makes on one lesson
Projection = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Progress:
    """Everything the learner has done on the page, enough to restore it exactly."""

    prediction: str | None = None
    why: str = ""
    answers: Mapping[str, str] = field(default_factory=dict)
    graded: Mapping[str, float] = field(default_factory=dict)
    attempts: Mapping[str, int] = field(default_factory=dict)
    runs: int = 0
    hints_opened: int = 0
    reading: str | None = None
    projection: Projection = IDENTITY
    takeaway: str | None = None
    explore: Explore = field(default_factory=Explore)
    version: int = VERSION


def lock_prediction(progress: Progress, lesson: Lesson, choice: str, why: str = "") -> Progress:
    """Lock in a prediction once; a locked prediction changes only through reset."""
    if progress.prediction is not None:
        return progress
    if choice not in {c.id for c in lesson.predictions}:
        raise StateError(f"Choose one of the {word(len(lesson.predictions))} predictions first.")
    return replace(progress, prediction=choice, why=why.strip()[:MAX_WHY])


def open_hint(progress: Progress, lesson: Lesson, rung: int) -> Progress:
    """Open hint rungs up to the given one, if the runs have made it available."""
    if rung > hints_available(progress.runs, lesson):
        raise StateError(f"Hint {rung} is not available yet.")
    return replace(progress, hints_opened=max(progress.hints_opened, rung))


def lock_reading(progress: Progress, reading: str, lesson: Lesson) -> Progress:
    """Lock in a reading; a wrong one may be replaced, the right one stays."""
    if reading not in {c.id for c in lesson.readings}:
        raise StateError("Choose one reading before locking it in.")
    if progress.reading == lesson.correct_reading:
        return progress
    return replace(progress, reading=reading)


def set_projection(progress: Progress, row: int, col: int, value: float) -> Progress:
    """Set one entry of the 2×2 output projection."""
    if row not in (0, 1) or col not in (0, 1):
        raise StateError(f"The projection has no entry at row {row + 1}, column {col + 1}.")
    if not math.isfinite(value) or abs(value) > MAX_ENTRY:
        raise StateError(f"Each entry must be a finite number from -{MAX_ENTRY} to {MAX_ENTRY}.")
    rows = [list(r) for r in progress.projection]
    rows[row][col] = value
    return replace(progress, projection=((rows[0][0], rows[0][1]), (rows[1][0], rows[1][1])))


def reset() -> Progress:
    """Forget everything, the locked prediction included."""
    return Progress()


def reset_projection(progress: Progress) -> Progress:
    """Put the projection back to the identity."""
    return replace(progress, projection=IDENTITY)


def save_takeaway(progress: Progress, text: str) -> Progress:
    """Save the learner's takeaway, refusing a blank or over-long one."""
    line = text.strip()
    if not line:
        raise StateError("Write a line first, or keep the suggested one.")
    if len(line) > MAX_TAKEAWAY:
        raise StateError(f"Keep the takeaway under {MAX_TAKEAWAY} characters.")
    return replace(progress, takeaway=line)


def set_explore(progress: Progress, explore: Explore) -> Progress:
    """Keep where the learner has put Explore's points; nothing graded changes."""
    return replace(progress, explore=explore)


def explored_only(before: Progress, after: Progress) -> bool:
    """Return whether the two records differ in Explore alone: nothing the page grades or shows
    outside Explore has changed, so only Explore needs drawing again."""
    return replace(before, explore=after.explore) == after


def to_json(progress: Progress) -> str:
    """Serialise the record, version first."""
    return json.dumps(asdict(progress), sort_keys=True)


def from_json(text: str, lesson: Lesson) -> Progress:
    """Read a saved record back, raising StateError for anything malformed or unknown."""
    return from_value(_parsed(text), lesson)


def _parsed(text: str) -> object:
    if len(text) > MAX_TEXT:
        raise StateError(f"saved progress is {len(text):,} characters, far more than a record")
    if too_deep(text):
        raise StateError(f"saved progress nests deeper than {MAX_DEPTH} levels")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # ValueError also covers integers of 4300+ digits
        raise StateError("saved progress is not valid JSON") from None


@dataclass(frozen=True)
class Salvaged:
    """A stored record read with what can be rebuilt dropped where it cannot be read: the
    progress, the parts dropped (named for the learner), and the version it was written at."""

    progress: Progress
    dropped: tuple[str, ...] = ()
    version: int = VERSION


@dataclass(frozen=True)
class Unreadable:
    """A stored record this build cannot read: written by a newer build, or damaged. Whoever
    reads it leaves it exactly as it is: it is never written over, nor counted as empty."""

    newer: bool = False


def newer_version(text: str) -> bool:
    """Return whether a stored text is a record of a version newer than this build reads."""
    try:
        raw = _parsed(text)
    except StateError:
        return False
    version = raw.get("version") if isinstance(raw, dict) else None
    return type(version) is int and version > VERSION


def salvage_json(text: str, lesson: Lesson) -> Salvaged:
    """Read a saved record as from_json does, except that a part that can be rebuilt (Explore's
    points and experiments, a stored gate) is dropped and named when it cannot be read."""
    return _salvage(_parsed(text), lesson)


def from_value(raw: object, lesson: Lesson) -> Progress:
    """Check a parsed record field by field and settle what the numbers decide, strictly.

    A "gate" that older records carry is checked for shape and then ignored: the gate is always
    derived from the answers and the reading.
    """
    return _from_value(raw, lesson, None)


def _salvage(raw: object, lesson: Lesson) -> Salvaged:
    dropped: list[str] = []
    progress = _from_value(raw, lesson, dropped)
    assert isinstance(raw, dict)  # _from_value refused anything else
    return Salvaged(progress, tuple(dropped), raw["version"])


def _from_value(raw: object, lesson: Lesson, dropped: list[str] | None) -> Progress:
    # dropped None: strict, any fault raises. A list: a part that can be rebuilt and cannot be
    # read is dropped and named there; a fault in the learner's graded work still raises.
    if not isinstance(raw, dict):
        raise StateError("saved progress is not a JSON object")
    version = raw.get("version")
    if type(version) is not int or version not in (VERSION, *MIGRATED):
        raise StateError(f"saved progress has unknown version {_brief(version)}")
    if version != VERSION and "explore" in raw:
        raise StateError(f"saved progress of version {version} has an unknown field 'explore'")
    if "gate" in raw:
        _rebuildable(dropped, "a stored gate (it is worked out again)",
                     lambda: _flag(raw["gate"], "gate"), False)
    unknown = sorted(set(raw) - {f.name for f in fields(Progress)} - {"gate"})
    if unknown:  # a record this build cannot keep whole: it is set aside, never cut down
        raise StateError(f"saved progress has an unknown field {_brief(unknown[0])}")
    ids = lesson.question_ids
    return settle(Progress(
        prediction=_optional(raw, "prediction", tuple(c.id for c in lesson.predictions)),
        why=_text(raw, "why", MAX_WHY),
        answers={k: _text({k: v}, k, MAX_ANSWER) for k, v in _mapping(raw, "answers", ids).items()},
        graded={k: _number(v, f"graded.{k}") for k, v in _mapping(raw, "graded", ids).items()},
        attempts={k: _count(v, f"attempts.{k}")
                  for k, v in _mapping(raw, "attempts", ids).items()},
        runs=_count(raw.get("runs"), "runs"),
        hints_opened=_count(raw.get("hints_opened"), "hints_opened"),
        reading=_optional(raw, "reading", tuple(c.id for c in lesson.readings)),
        projection=_projection(raw.get("projection")),
        takeaway=None if raw.get("takeaway") is None else _text(raw, "takeaway", MAX_TAKEAWAY),
        explore=_explore(raw.get("explore", EXPLORED_NOTHING), lesson, dropped),
    ), lesson)


def settle(progress: Progress, lesson: Lesson) -> Progress:
    """Bring what a record states but the numbers decide back in line: hints follow the runs."""
    opened = min(progress.hints_opened, hints_available(progress.runs, lesson))
    return progress if opened == progress.hints_opened else replace(progress, hints_opened=opened)


def _brief(value: object) -> str:
    # A stored value may be huge or nested thousands deep: name it without repr's recursion.
    if isinstance(value, str | int | float | bool) or value is None:
        text = repr(value) if not isinstance(value, int) or abs(value) < 10**40 else "a huge number"
        return text if len(text) <= 40 else f"{text[:37]}..."
    return f"of type {type(value).__name__}"


def _optional(raw: dict[str, Any], name: str, allowed: tuple[str, ...]) -> str | None:
    value = raw.get(name)
    if value is not None and value not in allowed:
        raise StateError(f"{name}: unknown choice {_brief(value)}")
    return value


def _text(raw: Mapping[str, Any], name: str, limit: int) -> str:
    value = raw.get(name)
    if not isinstance(value, str) or len(value) > limit:
        raise StateError(f"{name}: expected text of at most {limit} characters")
    return value


def _mapping(raw: dict[str, Any], name: str, ids: tuple[str, ...]) -> dict[str, Any]:
    value = raw.get(name)
    if not isinstance(value, dict) or not set(value) <= set(ids):
        raise StateError(f"{name}: expected an object keyed by question")
    return value


def _number(value: Any, name: str) -> float:
    number = finite_float(value)
    if number is None:
        raise StateError(f"{name}: expected a finite number")
    return number


def _count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise StateError(f"{name}: expected a whole number from 0 to {MAX_COUNT:,}")
    return value


def _flag(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise StateError(f"{name}: expected true or false")
    return value


def _projection(value: Any) -> Projection:
    if not isinstance(value, list) or len(value) != 2:
        raise StateError("projection: expected two rows")
    rows = []
    for r, row in enumerate(value):
        if not isinstance(row, list) or len(row) != 2:
            raise StateError(f"projection[{r}]: expected two entries")
        first, second = (_number(x, f"projection[{r}][{c}]") for c, x in enumerate(row))
        if max(abs(first), abs(second)) > MAX_ENTRY:
            raise StateError(f"projection[{r}]: entries run from -{MAX_ENTRY} to {MAX_ENTRY}")
        rows.append((first, second))
    return (rows[0], rows[1])


T = TypeVar("T")


def _rebuildable(dropped: list[str] | None, name: str, read: Callable[[], T], instead: T) -> T:
    # A part that can be rebuilt: strict reading raises on a fault, salvage drops it by name.
    try:
        return read()
    except StateError:
        if dropped is None:
            raise
        dropped.append(name)
        return instead


def _explore(value: Any, lesson: Lesson, dropped: list[str] | None) -> Explore:
    if dropped is not None and isinstance(value, dict):  # salvage: each part on its own
        extra = sorted(set(value) - set(EXPLORED_NOTHING), key=str)
        dropped.extend(f"an unknown part of Explore, {_brief(name)}" for name in extra)
        value = {**EXPLORED_NOTHING, **{k: v for k, v in value.items() if k in EXPLORED_NOTHING}}
    if not isinstance(value, dict) or set(value) != set(EXPLORED_NOTHING):
        return _rebuildable(dropped, "where Explore's points were and its experiments",
                            lambda: _refuse(EXPLORE_SHAPE), Explore())
    full_precision = _rebuildable(
        dropped, "Explore's full-precision experiment",
        lambda: _flag(value["full_precision"], "explore.full_precision"), False)
    scale = _rebuildable(dropped, "Explore's scale experiment",
                         lambda: _scale(value["scale"], lesson), "")
    preset = _rebuildable(dropped, "which Explore preset the points were put at",
                          lambda: _preset(value["preset"], lesson), None)
    moved = value["moved"]
    if not isinstance(moved, dict):
        moved = _rebuildable(dropped, "where Explore's points were",
                             lambda: _refuse(MOVED_SHAPE), {})
    points: dict[str, Point] = {}
    for point, at in moved.items():
        name = point.replace("_", " ") if isinstance(point, str) else _brief(point)
        place: Point | None = _rebuildable(dropped, f"where Explore's {name} was",
                                           partial(_point, point, at, names(lesson)), None)
        if place is not None:
            points[point] = place
    return Explore(points, preset, scale, full_precision)


EXPLORE_SHAPE = "explore: expected the points moved, the preset and the experiments"
MOVED_SHAPE = "explore.moved: expected an object keyed by point"


def names(lesson: Lesson) -> frozenset[str]:
    """Every name a point of the lesson's Explore may have, on any fixture: "query" for a
    movable vector, "key_1" to "key_64" for a movable matrix's rows."""
    return frozenset(name for put in lesson.inputs if put.point is not None
                     for name in put.point_ids(MAX_KEYS if put.is_matrix else 1))


def _refuse(message: str) -> Any:
    raise StateError(message)


def _scale(scale: Any, lesson: Lesson) -> str:
    if scale not in ("", *(c.id for c in lesson.scale_choices()[1:])):
        raise StateError(f"explore.scale: unknown scale {_brief(scale)}")
    return str(scale)


def _preset(preset: Any, lesson: Lesson) -> str | None:
    if preset is not None and preset not in {p.id for p in lesson.presets()}:
        raise StateError(f"explore.preset: unknown preset {_brief(preset)}")
    return None if preset is None else str(preset)


def _point(point: Any, at: Any, names: frozenset[str]) -> Point:
    if point not in names:
        raise StateError(MOVED_SHAPE)
    if not isinstance(at, list) or len(at) != 2:
        raise StateError(f"explore.moved.{point}: expected two coordinates")
    x, y = (_number(c, f"explore.moved.{point}") for c in at)
    if max(abs(x), abs(y)) > EDGE:
        raise StateError(f"explore.moved.{point}: coordinates run from -{EDGE:g} to {EDGE:g}")
    # Kept as a move keeps it, six decimals at most: 1e-320 is 0.0, and -0.0 is 0.0 too.
    return (round(x, 6) + 0.0, round(y, 6) + 0.0)

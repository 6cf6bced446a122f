"""Explore: the learner moves the points a lesson declares on a plane (the plain head's query and
keys), and every head is worked again."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar, cast

from .attention import Matrix, Vector
from .errors import StateError
from .fixture import Fixture, Input
from .lesson import Lesson, Preset, Worked, work
from .numbers import parse_number

EDGE = 3.0  # the plane runs from -EDGE to EDGE on both axes
STEP = 0.1  # an arrow key
BIG_STEP = 0.5  # Shift with an arrow key
COARSE = 0.5  # the preset search's first grid; it then looks closer, at STEP
EVALUATIONS_A_POINT = 13 * 13 + 11 * 11  # the coarse grid, then the fine one around its best
Point = tuple[float, float]
T = TypeVar("T")
Search = Generator[None, None, T]  # yields once a place is tried, returns what it found


@dataclass(frozen=True)
class Explore:
    """Where the learner has moved the points; any other point is where the fixture has it."""

    moved: Mapping[str, Point] = field(default_factory=dict)
    preset: str | None = None  # the preset the points were last put at, until one moves
    scale: str = ""  # the experiment's scale choice, by id; "" is the lesson's own
    full_precision: bool = False  # the experiment that prints the outputs unrounded


def movable(fixture: Fixture) -> Iterator[tuple[Input, tuple[str, ...], Matrix]]:
    """Each input the lesson declares movable, with its points' ids and their rows (a vector's
    one row), in the order it declares them."""
    for put in fixture.declared:
        if put.point is not None:
            rows = fixture.matrix(put.name) if put.is_matrix else (fixture.vector(put.name),)
            yield put, put.point_ids(len(fixture.inputs[put.name])), rows


def point_ids(fixture: Fixture) -> tuple[str, ...]:
    """Name the movable points, in the order the lesson declares its inputs: for the plain head,
    the query, then key_1, key_2, ..."""
    return tuple(point for _, ids, _ in movable(fixture) for point in ids)


def point_name(point: str) -> str:
    """Name a point as the page does: "query", "key 2"."""
    return point.replace("_", " ")


def fixed_points(fixture: Fixture) -> dict[str, Point]:
    """Return every point where the fixture puts it."""
    return {point: (row[0], row[1]) for _, ids, rows in movable(fixture)
            for point, row in zip(ids, rows, strict=True)}


def points(fixture: Fixture, explore: Explore) -> dict[str, Point]:
    """Return every point where it is now: moved, or the fixture's."""
    return {p: explore.moved.get(p, at) for p, at in fixed_points(fixture).items()}


def explored_fixture(fixture: Fixture, explore: Explore) -> Fixture:
    """The fixture with its movable points where they are now; every other input stays."""
    changed: dict[str, Vector | Matrix] = {}
    for put, ids, rows in movable(fixture):
        now = tuple(explore.moved.get(point, (row[0], row[1])) + row[2:]
                    for point, row in zip(ids, rows, strict=True))
        changed[put.name] = now if put.is_matrix else now[0]
    return fixture.with_inputs(f"{fixture.name}, explored", **changed)


def scale_of(lesson: Lesson, explore: Explore) -> float | None:
    """Return the scale the experiment gives the lesson's heads, or None for their own."""
    choice = next((c for c in lesson.scale_choices() if c.id == explore.scale), None)
    return None if choice is None or choice.root is None else 1 / math.sqrt(choice.root)


def explore_work(lesson: Lesson, fixture: Fixture, explore: Explore) -> Worked:
    """Work the lesson, every head and its reference head, on the explored vectors."""
    return work(lesson, explored_fixture(fixture, explore), scale_of(lesson, explore))


def choose_scale(explore: Explore, lesson: Lesson, choice: str) -> Explore:
    """Give the lesson's heads one of the scales its experiment offers."""
    if choice not in {c.id for c in lesson.scale_choices()}:
        raise StateError(f"There is no scale called {choice!r} here.")
    own = lesson.scale_choices()[0].id
    return replace(explore, scale="" if choice == own else choice)


def show_full_precision(explore: Explore, shown: bool) -> Explore:
    """Print the explored outputs and their differences unrounded, or not."""
    return replace(explore, full_precision=shown)


def explorable(fixture: Fixture) -> bool:
    """Return whether the fixture's movable points can be drawn on a plane: it has some, and
    each has two coordinates."""
    rows = [row for _, _, movable in movable(fixture) for row in movable]
    return bool(rows) and all(len(row) == 2 for row in rows)


def _tidy(x: float) -> float:
    # Steps of 0.1 add float noise (0.1 + 0.2); a coordinate keeps six decimals at most.
    return round(x, 6) + 0.0  # + 0.0 turns -0.0 into 0.0


def move(explore: Explore, fixture: Fixture, point: str, x: float, y: float) -> Explore:
    """Put one point at (x, y), which must lie on the plane."""
    if point not in point_ids(fixture):
        raise StateError(f"There is no point called {point_name(point)} to move.")
    for value in (x, y):
        if not math.isfinite(value) or abs(value) > EDGE:
            raise StateError(f"Each coordinate runs from {-EDGE:g} to {EDGE:g} on this plane.")
    moved = dict(explore.moved)
    at = (_tidy(x), _tidy(y))
    if at == fixed_points(fixture)[point]:
        moved.pop(point, None)
    else:
        moved[point] = at
    return replace(explore, moved=moved, preset=None)


def _clamp(x: float) -> float:
    return min(EDGE, max(-EDGE, x))


KEY_MOVES = {  # a key's name: which coordinate it moves, and by how many steps (None: an edge)
    "ArrowRight": (0, 1), "ArrowLeft": (0, -1), "ArrowUp": (1, 1), "ArrowDown": (1, -1),
    "Home": (0, None), "End": (0, None), "PageUp": (1, None), "PageDown": (1, None),
}


def step(explore: Explore, fixture: Fixture, point: str, key: str, shift: bool = False) -> Explore:
    """Move a point as a key press does: arrows 0.1, Shift 0.5, Home and End to the edges
    across, Page Up and Page Down to the edges up and down."""
    if key not in KEY_MOVES:
        return explore
    axis, steps = KEY_MOVES[key]
    at = list(points(fixture, explore)[point])
    if steps is None:
        at[axis] = EDGE if key in ("End", "PageUp") else -EDGE
    else:
        at[axis] = _clamp(at[axis] + steps * (BIG_STEP if shift else STEP))
    return move(explore, fixture, point, at[0], at[1])


def snapped(fraction: float, upward: bool) -> float:
    """Return the coordinate at a fraction of the plane's width (or height, counted from the top),
    on the arrow keys' grid of 0.1 and inside the plane."""
    share = 1.0 - fraction if upward else fraction
    return _tidy(_clamp(round((-EDGE + share * 2 * EDGE) / STEP) * STEP))


def drag(explore: Explore, fixture: Fixture, point: str, across: float, down: float) -> Explore:
    """Move a point to where a pointer is: fractions of the plane's box, from its top left."""
    return move(explore, fixture, point, snapped(across, False), snapped(down, True))


def typed(explore: Explore, fixture: Fixture, point: str, axis: int, text: str) -> Explore:
    """Set one coordinate of a point from typed text, read by the package's parser."""
    value = parse_number(text).value  # ParseError says why the text is not a number
    at = list(points(fixture, explore)[point])
    at[axis] = value
    return move(explore, fixture, point, at[0], at[1])


def _grid(lo: float, hi: float, spacing: float) -> list[float]:
    count = round((hi - lo) / spacing)
    return [_tidy(lo + i * spacing) for i in range(count + 1)]


def _lowest(places: list[Point], score: Callable[[Point], float],
            best: tuple[Point, float] | None = None) -> Search[tuple[Point, float]]:
    # Yields once a place is scored; returns the lowest and its score. Ties go to the first
    # found, as min() does, so a search gives the same place every time.
    for at in places:
        value = score(at)
        yield
        if best is None or value < best[1]:
            best = (at, value)
    assert best is not None, "a search needs a place to try"
    return best


def _best_place(score: Callable[[Point], float]) -> Search[tuple[Point, float]]:
    # A coarse grid over the plane, then the arrow keys' grid around its best.
    coarse = _grid(-EDGE, EDGE, COARSE)
    best = yield from _lowest([(x, y) for x in coarse for y in coarse], score)
    (bx, by), _ = best
    near = [(x, y) for x in _grid(bx - COARSE, bx + COARSE, STEP)
            for y in _grid(by - COARSE, by + COARSE, STEP)
            if abs(x) <= EDGE and abs(y) <= EDGE]
    return (yield from _lowest(near, score, best))


def searching(lesson: Lesson, fixture: Fixture, start: Explore, preset: Preset) -> Search[Explore]:
    """Search the plane for the points that bring the preset's objective lowest, yielding once
    for every place tried (EVALUATIONS_A_POINT at most for each point), so the page can run it
    a slice at a time. It returns what it found.

    The first point (the plain head's query) first, then each other point in turn with the
    others held still; a later point moves only if that does strictly better, so it stays the
    fixture's wherever the first alone will do."""
    found, lowest = start, math.inf
    ids = point_ids(fixture)
    for point in ids:
        def placed(at: Point, point: str = point, found: Explore = found) -> Explore:
            return move(found, fixture, point, *at)

        place, low = yield from _best_place(
            lambda at: preset.objective(explore_work(lesson, fixture, placed(at))))
        if point == ids[0] or low < lowest:
            found, lowest = placed(place), low
    return found


def find_preset(lesson: Lesson, fixture: Fixture, start: Explore, preset: Preset) -> Explore:
    """Run the preset's search whole, and return the points it finds."""
    search = searching(lesson, fixture, start, preset)
    while True:
        try:
            next(search)
        except StopIteration as done:
            return cast(Explore, done.value)


def preset_named(lesson: Lesson, preset_id: str) -> Preset:
    """Return the lesson's preset by its id, or say there is none."""
    preset = next((p for p in lesson.presets() if p.id == preset_id), None)
    if preset is None:
        raise StateError(f"There is no preset called {preset_id!r} here.")
    return preset


def at_preset(explore: Explore, found: Explore, preset_id: str) -> Explore:
    """Put the points where a preset's search found them; the experiments stay as they are."""
    return replace(explore, moved=found.moved, preset=preset_id)


def go_to_preset(lesson: Lesson, fixture: Fixture, preset_id: str,
                 explore: Explore | None = None) -> Explore:
    """Put the points where the named preset is found, at the experiment's scale."""
    explore = Explore() if explore is None else explore
    preset = preset_named(lesson, preset_id)
    found = find_preset(lesson, fixture, replace(Explore(), scale=explore.scale), preset)
    return at_preset(explore, found, preset_id)


class PresetSearches:
    """The presets' searches on one lesson page, run a slice at a time, each kept once found.

    A preset costs what a drag frame costs: the page runs a few milliseconds of the search
    for the preset it wants, draws, and comes back for more, so no click blocks the page."""

    def __init__(self, lesson: Lesson, fixture: Fixture,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.lesson, self.fixture, self.clock = lesson, fixture, clock
        self.found: dict[tuple[str, str], Explore] = {}  # (preset, scale): its points
        self.running: dict[tuple[str, str], tuple[Search[Explore], int]] = {}

    def advance(self, preset_id: str, scale: str, seconds: float) -> Explore | None:
        """Search for the preset at the scale for about `seconds` (one place at least), and
        return its points if found, else None: call again to go on where it stopped."""
        key = (preset_id, scale)
        if key in self.found:
            return self.found[key]
        search, tried = self.running.get(key) or (
            searching(self.lesson, self.fixture, Explore(scale=scale),
                      preset_named(self.lesson, preset_id)), 0)
        until = self.clock() + seconds
        try:
            while True:
                next(search)
                tried += 1
                if self.clock() >= until:
                    self.running[key] = (search, tried)
                    return None
        except StopIteration as done:
            self.running.pop(key, None)
            self.found[key] = cast(Explore, done.value)
            return self.found[key]

    def share_done(self, preset_id: str, scale: str) -> float:
        """How much of the preset's search has run, from 0 to 1; it never goes down."""
        if (preset_id, scale) in self.found:
            return 1.0
        _, tried = self.running.get((preset_id, scale), (None, 0))
        return min(1.0, tried / (EVALUATIONS_A_POINT * len(point_ids(self.fixture))))

    def next_unfound(self, scale: str) -> str | None:
        """The first of the lesson's presets not yet found at the scale, if any."""
        return next((p.id for p in self.lesson.presets() if (p.id, scale) not in self.found),
                    None)


def back_to_fixture(explore: Explore) -> Explore:
    """Put every point back where the fixture has it; the experiments stay as they are."""
    return replace(explore, moved={}, preset=None)


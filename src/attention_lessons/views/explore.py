"""Explore's view model: the plane in SVG coordinates, and every head worked on the moved points."""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..engine import (
    EDGE,
    Explore,
    Figure,
    Fixture,
    Lesson,
    Worked,
    explore_work,
    largest,
    movable,
    point_ids,
    point_name,
    points,
    preset_named,
    word,
)
from .heads import ComparisonView, HeadView, comparison_view, head_view
from .labels import Label, label_points
from .plane import (
    Readout,
    Spot,
    WeightLine,
    heads_text,
    mark_spots,
    readout,
    square_spots,
    weight_lines,
)
from .space import SIZE, SpaceView, edge_boxes, held, in_viewbox, space_view


def coordinate(x: float) -> str:
    """Print a coordinate: one decimal on the arrow keys' grid ("2.0"), else as many as it has."""
    if abs(x * 10 - round(x * 10)) < 1e-9:
        return f"{x:.1f}"
    return f"{x:.6f}".rstrip("0")


def spoken(x: float) -> str:
    """Print a coordinate for a screen reader, with a true minus sign: "−1.0"."""
    return coordinate(x).replace("-", "\N{MINUS SIGN}")


def pair(at: tuple[float, ...]) -> str:
    """Print a point's coordinates as a vector: [2.0, -1.0]."""
    return f"[{', '.join(coordinate(x) for x in at)}]"


def to_svg(x: float, y: float) -> tuple[float, float]:
    """Return where (x, y) sits in the plane's viewBox: x to the right, y up."""
    return in_viewbox(x, y, EDGE)


@dataclass(frozen=True)
class PointView:
    """One movable point: where it is, as numbers and in the figure, and what it carries."""

    id: str  # "query", "key_1"
    name: str  # "query", "key 1"
    x: str
    y: str
    cx: float  # in the viewBox
    cy: float
    left: str  # the handle's place over the figure, as CSS percentages
    top: str
    valuetext: str  # "query at 2.0, −1.0"
    value: str  # what it carries, in words: a key's value, "value [1, 0]"; the query nothing
    tip: str  # where the handle's tip opens: "start", "middle" or "end", then "above" or "below"


@dataclass(frozen=True)
class PlaneView:
    """The plane: its axes and edges, the points, the query's arrow, each head's weight lines,
    the values and the marked outputs, every label (by the id of what it names; an empty one
    where another names both), and a text alternative with every number drawn."""

    edge: str
    axes: tuple[str, str]
    origin: tuple[float, float]
    points: tuple[PointView, ...]
    lines: tuple[WeightLine, ...]
    spots: tuple[Spot, ...]  # the values, then the lesson's marks
    labels: dict[str, Label]
    text: str  # empty on a drag's frames: said once the drag ends
    arrow: str | None = None  # the point drawn as an arrow from the origin, by id
    spaces: tuple[SpaceView, ...] = ()  # drawn beside it, once a move ends (none on a frame)


@dataclass(frozen=True)
class ExploreView:
    """Explore's whole readout, all of it from the moved vectors, none of it from the fixture's."""

    plane: PlaneView
    vectors: str
    heads: tuple[HeadView, ...]
    comparison: ComparisonView | None
    bears_out: str
    moved: bool
    scale: str  # the experiment's scale choice, by id
    scale_choices: tuple[str, ...]
    presets: tuple[tuple[str, bool], ...]  # each preset's id, and whether the points are at it
    full_precision: str  # the outputs unrounded, when that experiment is on
    readout: Readout
    whole: bool = True  # False on a drag's frames: the plane and the readout only, the rest empty


def tip_place(cx: float, cy: float) -> str:
    """Say where a handle's tip opens so that it stays over the plane: from the handle's left
    edge rightwards in the plane's left third ("start"), leftwards in its right third ("end"),
    centred between; above the handle, or below it in the plane's top sixth."""
    across = "start" if cx < SIZE / 3 else "end" if cx > 2 * SIZE / 3 else "middle"
    return f"{across} {'below' if cy < SIZE / 6 else 'above'}"


def point_view(point: str, at: tuple[float, float], value: str) -> PointView:
    """Place one point on the plane and say where it is."""
    cx, cy = to_svg(*at)
    name = point_name(point)
    return PointView(point, name, coordinate(at[0]), coordinate(at[1]), cx, cy,
                     f"{cx / SIZE * 100:.3f}%", f"{cy / SIZE * 100:.3f}%",
                     f"{name} at {spoken(at[0])}, {spoken(at[1])}", value, tip_place(cx, cy))


def clamped(x: float, y: float) -> tuple[float, float]:
    """Where (x, y) sits in the viewBox, held to the plane's edge (a mark never leaves it)."""
    return held(*to_svg(x, y))


def plane_view(worked: Worked, explore: Explore, text: bool = True) -> PlaneView:
    """Draw the lesson's movable points where they are now, on axes the lesson names, with what
    the lesson's figure draws of them: each head's weights, what stays put and the outputs; and
    say it all in words (text), unless a drag frame, which leaves that to the drag's end, says
    not to."""
    lesson, fixture = worked.lesson, worked.fixture
    now, figure = points(fixture, explore), lesson.figure(worked)
    views = tuple(point_view(p, now[p], figure.notes.get(p, "")) for p in point_ids(fixture))
    marks = lesson.plane_marks(worked)
    squares = square_spots(figure, clamped)
    spots = (*squares, *mark_spots(marks, clamped))
    origin = to_svg(0.0, 0.0)
    # What moves least first: what stays put never moves, a later point moves only when the
    # learner takes it, the first (the plain head's query) most, and the outputs with any of
    # them. Labels keep their places as later points move, and a drag frame places only what
    # follows the point it moves.
    named: list[PointView | Spot] = [*squares, *views[1:], *views[:1], *spots[len(squares):]]
    placed = label_points([(n.name, n.cx, n.cy) for n in named], SIZE,
                          edge_boxes(f"{EDGE:g}", origin))
    across, up = lesson.axis_names()
    said = "" if not text else (
        f"The plane runs from {-EDGE:g} to {EDGE:g} on both axes: across is {across}, up is "
        f"{up}. " + " ".join(_where(point, figure) for point in _said_first(views, figure))
        + " " + heads_text(worked, figure, marks))
    return PlaneView(f"{EDGE:g}", (across, up), origin, views,
                     weight_lines(worked, figure, to_svg), spots,
                     {n.id: label for n, label in zip(named, placed, strict=True)}, said,
                     figure.arrow, tuple(space_view(s) for s in figure.spaces) if text else ())


def _said_first(views: tuple[PointView, ...], figure: Figure) -> list[PointView]:
    # The arrow first, as the plain head says its query before its keys.
    return sorted(views, key=lambda p: p.id != figure.arrow)


def _where(point: PointView, figure: Figure) -> str:
    """Say where a movable point is, and what it carries."""
    if point.id == figure.arrow:
        return f"The {point.name} is an arrow from the origin to {point.x}, {point.y}."
    carries = f", {point.value}" if point.value else ""
    return f"{point.name.capitalize()} is at {point.x}, {point.y}{carries}."


def bears_out(worked: Worked) -> str:
    """Say which prediction these numbers bear out, by the lesson's own test that Compare uses."""
    lesson = worked.lesson
    fits = lesson.fitting_prediction(worked)
    shown = lesson.shown(worked)
    if fits is None:
        return (f"{shown} None of the {word(len(lesson.predictions))} predictions describes "
                "these numbers exactly.")
    return f"{shown} These numbers bear out: {lesson.prediction_label(fits)}"


def movable_inputs(fixture: Fixture) -> str:
    """Name each movable input with where its points are now: "query [2.0, -1.0], keys
    [1.0, 0.0], [0.0, 1.0]"."""
    return ", ".join(f"{put.called} {', '.join(pair(row) for row in rows)}"
                     for put, _, rows in movable(fixture))


def explored_head(index: int, worked: Worked) -> HeadView:
    """One head's panel on the explored vectors; its figure says so, as its caption does."""
    head = head_view(index, worked)
    return replace(head, figure_text=f"Explored w{head.figure_text[1:]}")


def explore_view(lesson: Lesson, fixture: Fixture, explore: Explore,
                 whole: bool = True) -> ExploreView:
    """Work every head on the moved vectors and build the plane and the readout beside it; and,
    unless a drag frame says it draws only those (whole), the rest of Explore: each head's step
    tables, the comparison, the plane's text alternative and the lines below."""
    worked = explore_work(lesson, fixture, explore)
    here = any(p in explore.moved for p in point_ids(fixture))  # a stored key_9: no key 9 here
    plane, shown = plane_view(worked, explore, whole), readout(worked)
    if not whole:
        return ExploreView(plane=plane, vectors="", heads=(), comparison=None, bears_out="",
                           moved=here, scale=explore.scale, scale_choices=(), presets=(),
                           full_precision="", readout=shown, whole=False)
    moved = "moved by you" if here else "where the fixture has them, until you move one"
    vectors = (f"These are explored vectors, not the fixture ({moved}): "
               f"{movable_inputs(worked.fixture)}. {lesson.still()}")
    return ExploreView(
        plane=plane,
        vectors=vectors,
        heads=tuple(explored_head(i, worked) for i in range(len(worked.heads))),
        comparison=comparison_view(worked),
        bears_out=bears_out(worked),
        moved=here,
        scale=explore.scale or (lesson.scale_choices()[0].id if lesson.scale_choices() else ""),
        scale_choices=tuple(c.id for c in lesson.scale_choices()),
        presets=tuple((p.id, p.id == explore.preset) for p in lesson.presets()),
        full_precision=unrounded(worked) if explore.full_precision else "",
        readout=shown,
    )


def unrounded(worked: Worked) -> str:
    """Print each head's output, and any gap to the reference head, at full precision."""
    lesson = worked.lesson
    outputs = "; ".join(f"{spec.name} {', '.join(repr(x) for x in head.output)}"
                        for spec, head in zip(lesson.heads, worked.heads, strict=True))
    text = f"At full precision, the outputs are: {outputs}."
    if worked.single is not None and worked.differences is not None:
        reference = ", ".join(repr(x) for x in worked.single.output)
        gaps = ", ".join(repr(x) for x in worked.differences)
        text += f" The reference head's output is {reference}; the differences are {gaps}."
    return text


def move_announcement(lesson: Lesson, view: ExploreView, point: str) -> str:
    """Say, once a move ends, where the point is, each head's top weight, and what it bears out."""
    at = next(p for p in view.plane.points if p.id == point)
    tops = " ".join(f"In {spec.name}: {largest([bar.share for bar in head.bars], lesson.words)}"
                    for spec, head in zip(lesson.heads, view.heads, strict=True))
    return f"{at.valuetext[0].upper()}{at.valuetext[1:]}. {tops} {view.bears_out}"


def preset_searching(lesson: Lesson, preset_id: str, share: float) -> str:
    """Say, while a preset's search runs, how far it has got."""
    label = preset_named(lesson, preset_id).label
    return f"Searching the plane for “{label}”: {share:.0%} done."


def preset_announcement(lesson: Lesson, preset_id: str, view: ExploreView) -> str:
    """Say, once the points are at a preset, which it is and what the numbers bear out."""
    return f"{preset_named(lesson, preset_id).label} {view.bears_out}"

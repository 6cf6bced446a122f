"""Where each string of a lesson's progress view goes on its page, by element id.

The page's one DOM module applies these as they are; keeping the mapping here makes it a pure
function that the unit tests can read, and keeps that module thin.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .explore import ExploreView, PlaneView
from .heads import Bar, HeadView
from .labels import Label
from .lesson_page import ProgressView
from .plane import Spot
from .projection import ProjectionFigure
from .space import SIZE, SpaceMark, SpaceView, edge_places


@dataclass(frozen=True)
class PageUpdate:
    """What to write into a lesson page, element by element."""

    texts: dict[str, str] = field(default_factory=dict)  # textContent
    hidden: dict[str, bool] = field(default_factory=dict)
    disabled: dict[str, bool] = field(default_factory=dict)
    states: dict[str, str] = field(default_factory=dict)  # data-state, which the CSS colours
    invalid: dict[str, bool] = field(default_factory=dict)  # aria-invalid
    attributes: dict[str, dict[str, str]] = field(default_factory=dict)  # setAttribute
    styles: dict[str, dict[str, str]] = field(default_factory=dict)  # element.style
    values: dict[str, str] = field(default_factory=dict)  # a control's value
    checked: dict[str, bool] = field(default_factory=dict)  # a radio's or a checkbox's


def changes(update: PageUpdate, before: PageUpdate | None) -> PageUpdate:
    """What of update differs from before, the update last written (None: all of it), so the
    page writes only that: a drag moves one point, and the rest of Explore stays as it is."""
    if before is None:
        return update
    kept: dict[str, Any] = {}
    for part in fields(PageUpdate):
        now, then = getattr(update, part.name), getattr(before, part.name)
        if part.name in ("attributes", "styles"):  # by element, then by name
            kept[part.name] = {element_id: fresh for element_id, names in now.items()
                               if (fresh := _differing(names, then.get(element_id, {})))}
        else:
            kept[part.name] = _differing(now, then)
    return PageUpdate(**kept)


def update_json(update: PageUpdate, skip: str = "") -> str:
    """The update as the page's write.js takes it: each part by element id; skip is a field
    being typed in, whose value the update leaves as it is."""
    parts = {part.name: getattr(update, part.name) for part in fields(PageUpdate)}
    parts["values"] = {key: value for key, value in update.values.items() if key != skip}
    return json.dumps(parts, ensure_ascii=False, separators=(",", ":"))


def _differing(now: dict[str, Any], then: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in now.items() if key not in then or then[key] != value}


_MARKUP = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def escape(text: str) -> str:
    """Text as it reads inside an element's markup."""
    return text.translate(_MARKUP)


def rows_html(rows: Iterable[Sequence[str]]) -> str:
    """A table body's rows as markup, each row's first cell its header: one write to the page
    instead of one for each cell."""
    return "".join(
        f'<tr><th scope="row">{escape(header)}</th>'
        + "".join(f"<td>{escape(cell)}</td>" for cell in cells) + "</tr>"
        for header, *cells in rows)


def bars_html(bars: Iterable[Bar]) -> str:
    """A head's bars as markup. Each fill's width is set apart (bar_width), as a style: the
    page's CSP allows no style attribute in markup."""
    return "".join(
        f'<div class="bar"><span class="bar-key">{escape(bar.key)}</span>'
        '<span class="bar-track"><span class="bar-fill"></span></span>'
        f'<span class="bar-value">{escape(bar.weight)}</span></div>' for bar in bars)


def bar_width(bar: Bar) -> str:
    return f"{bar.share * 100:.2f}%"


def steps_html(head: HeadView) -> str:
    return rows_html((step.label, step.value) for step in head.steps)


def keys_html(head: HeadView) -> str:
    return rows_html((k.key, k.key_value, k.value, k.score, k.weight) for k in head.keys)


def page_update(view: ProgressView) -> PageUpdate:
    """Map a progress view onto the page's element ids."""
    update = PageUpdate()
    texts, hidden, disabled, states = update.texts, update.hidden, update.disabled, update.states
    locked = view.prediction is not None
    disabled.update(why=locked, lock_prediction=locked)
    texts["lock_prediction"] = "Prediction locked in" if locked else "Lock in my prediction"
    texts["prediction_message"] = view.prediction_message
    hidden["after_prediction"] = not locked
    for q in view.questions:
        texts.update({f"{q.id}_echo": q.echo, f"{q.id}_feedback": q.feedback,
                      f"{q.id}_attempts": q.attempts})
        states[q.id] = q.state
        update.invalid[q.id] = q.state in ("wrong", "invalid")
    texts["runs"] = view.runs
    for hint in view.hints:
        texts[f"hint_{hint.rung}_status"] = hint.status
        texts[f"hint_{hint.rung}_text"] = hint.text
        disabled[f"hint_{hint.rung}_open"] = not hint.available or hint.opened
        hidden[f"hint_{hint.rung}_text"] = not hint.opened
    texts["reading_feedback"] = view.reading.feedback
    states["reading_feedback"] = view.reading.state
    disabled["lock_reading"] = view.reading.correct
    if view.projection is not None:
        texts["projection_badge"] = view.projection.badge
        for i, (before, after) in enumerate(
                zip(view.projection.before, view.projection.after, strict=True), 1):
            texts.update({f"before_{i}": before, f"after_{i}": after})
        texts["projection_sentence"] = view.projection.sentence
    texts.update(compare_text=view.compare, compare_why=view.why)
    hidden["compare_why"] = not view.why
    texts.update(gate_badge=view.gate.badge, gate_headline=view.gate.headline,
                 gate_status=view.gate.status)
    states["gate_badge"] = "met" if view.gate.met else ""
    return update


def explore_update(view: ExploreView) -> PageUpdate:
    """Map Explore's view onto the page: the plane, the readout beside it, and the controls and
    texts below it (the heads' step tables are drawn by the page, once a move ends)."""
    update = PageUpdate()
    _draw_plane(view.plane, update)
    texts = update.texts
    shown = view.readout
    for head, weights, output in zip(shown.heads, shown.weights, shown.outputs, strict=True):
        for k, weight in enumerate(weights, 1):
            texts[f"explore_readout_{head}_{k}"] = weight
        texts[f"explore_readout_{head}_output"] = output
    for head, shades in zip(shown.heads, shown.shades, strict=False):  # a heatmap's only
        for k, shade in enumerate(shades, 1):
            update.styles[f"explore_readout_{head}_{k}"] = {"--weight": shade}
    texts["explore_readout_note"] = shown.note
    update.disabled["explore_back"] = not view.moved
    if not view.whole:  # a drag's frame: the rest once the drag ends
        return update
    texts.update(explore_vectors=view.vectors, explore_bears_out=view.bears_out)
    update.checked["explore_full_precision"] = bool(view.full_precision)
    for preset, chosen in view.presets:
        update.attributes[f"explore_preset_{preset}"] = {
            "aria-pressed": "true" if chosen else "false"}
    for choice in view.scale_choices:
        update.checked[f"explore_scale_{choice}"] = choice == view.scale
    texts["explore_full_text"] = view.full_precision
    update.hidden["explore_full_text"] = not view.full_precision
    if view.comparison is not None:
        for name in ("concatenated", "single", "differences"):
            for i, text in enumerate(getattr(view.comparison, name), 1):
                texts[f"explore_{name}_{i}"] = text
    return update


def _draw_plane(plane: PlaneView, update: PageUpdate) -> None:
    """The plane's axes, weight lines, values, marks and labels, and each point's handle,
    controls and fields."""
    attributes, texts = update.attributes, update.texts
    ox, oy = plane.origin
    _axes("explore", plane.origin, plane.edge, update)
    if plane.text:  # a drag's frames leave it to the drag's end
        texts["explore_plane_text"] = plane.text
    for line in plane.lines:
        attributes[f"explore_{line.id}"] = {  # a path: one write where a line's ends take four
            "d": f"M{line.x1:.2f} {line.y1:.2f}L{line.x2:.2f} {line.y2:.2f}",
            "stroke-width": f"{line.width:g}"}
    _marks("explore", plane.spots, plane.labels, update)
    for point in plane.points:
        prefix = f"explore_{point.id}"
        if point.id == plane.arrow:
            attributes["explore_arrow"] = _line(ox, oy, point.cx, point.cy)
        attributes[f"{prefix}_handle"] = {"data-tip": point.tip}
        update.styles[f"{prefix}_handle"] = {"left": point.left, "top": point.top}
        for axis, at in (("across", point.x), ("up", point.y)):
            attributes[f"{prefix}_{axis}"] = {"aria-valuetext": point.valuetext}
            update.values[f"{prefix}_{axis}"] = at
        update.values[f"{prefix}_1"], update.values[f"{prefix}_2"] = point.x, point.y
        texts[f"{prefix}_tip"] = ", ".join(filter(None, (point.valuetext, point.value)))
    for space in plane.spaces:  # once a move ends: a drag's frames leave them as they are
        _draw_space(space, update)


def _draw_space(space: SpaceView, update: PageUpdate) -> None:
    """A space beside the plane: its axes, edge numbers, marks, labels and text alternative."""
    prefix = f"explore_space_{space.id}"
    _axes(prefix, space.origin, space.edge, update)
    update.texts[f"{prefix}_text"] = space.text
    _marks(prefix, space.marks, space.labels, update)


def _axes(prefix: str, origin: tuple[float, float], edge: str, update: PageUpdate) -> None:
    """A figure's two axes through its origin, and its edge's number at the end of each."""
    ox, oy = origin
    update.attributes[f"{prefix}_axis_across"] = _line(0, oy, SIZE, oy)
    update.attributes[f"{prefix}_axis_up"] = _line(ox, 0, ox, SIZE)
    for end, (x, y) in zip(("right", "top"), edge_places(origin), strict=True):
        update.attributes[f"{prefix}_edge_{end}"] = {"x": f"{x:g}", "y": f"{y:g}"}
        update.texts[f"{prefix}_edge_{end}"] = edge


def _marks(prefix: str, marks: Iterable[Spot | SpaceMark], labels: dict[str, Label],
           update: PageUpdate) -> None:
    """A figure's marks where they are, and every label by what it names."""
    for mark in marks:
        update.attributes[f"{prefix}_{mark.id}"] = {
            "transform": f"translate({mark.cx:.2f} {mark.cy:.2f})"}
    for named, label in labels.items():
        update.attributes[f"{prefix}_{named}_label"] = {
            "x": f"{label.x:.2f}", "y": f"{label.y:.2f}", "text-anchor": label.anchor}
        update.texts[f"{prefix}_{named}_label"] = label.text


def _line(x1: float, y1: float, x2: float, y2: float) -> dict[str, str]:
    return {"x1": f"{x1:.2f}", "y1": f"{y1:.2f}", "x2": f"{x2:.2f}", "y2": f"{y2:.2f}"}


def projection_figure_update(figure: ProjectionFigure) -> PageUpdate:
    """Map the projection's figure onto its arrows, their labels and its text alternative."""
    update = PageUpdate()
    o = figure.origin
    update.texts.update(projection_figure_text=figure.text, projection_figure_edge=figure.edge)
    for arrow in figure.arrows:
        update.attributes[f"projection_arrow_{arrow.id}"] = _line(o, o, arrow.x, arrow.y)
        label = arrow.shown
        update.attributes[f"projection_label_{arrow.id}"] = {
            "x": f"{label.x:.2f}", "y": f"{label.y:.2f}", "text-anchor": label.anchor}
        update.texts[f"projection_label_{arrow.id}"] = label.text
    return update

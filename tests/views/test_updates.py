"""What the page writes: only what a move changed, and a head's rows as markup."""

from __future__ import annotations

import json
from dataclasses import fields
from html.parser import HTMLParser
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from attention_lessons import (
    LESSONS,
    bar_width,
    bars_html,
    changes,
    explore_update,
    explore_view,
    keys_html,
    steps_html,
    update_json,
)
from attention_lessons.engine import Explore, move, point_ids
from attention_lessons.views import Bar, PageUpdate
from oracles import own_fixture
from strategies import on_plane

# The lesson whose page has the most to write: the most heads, on its own fixture.
LESSON = max(LESSONS.values(), key=lambda lesson: len(lesson.heads))
FIXTURE = own_fixture(LESSON)
POINTS = point_ids(FIXTURE)
MOVED = POINTS[0]  # the plain head's query
FIRST, LAST = LESSON.heads[0].id, LESSON.heads[-1].id
a_move = st.tuples(st.sampled_from(POINTS), on_plane, on_plane)


def shown(explore: Explore) -> PageUpdate:
    return explore_update(explore_view(LESSON, FIXTURE, explore))


def written_over(before: PageUpdate, delta: PageUpdate) -> PageUpdate:
    """The page after writing delta where before was written."""
    parts: dict[str, Any] = {}
    for part in fields(PageUpdate):
        then, now = getattr(before, part.name), getattr(delta, part.name)
        if part.name in ("attributes", "styles"):
            parts[part.name] = {element_id: {**names, **now.get(element_id, {})}
                                for element_id, names in then.items()}
        else:
            parts[part.name] = {**then, **now}
    return PageUpdate(**parts)


def test_with_nothing_written_yet_everything_is_written() -> None:
    update = shown(Explore())
    assert changes(update, None) is update


@given(st.lists(a_move, max_size=3), a_move)
def test_writing_the_changes_over_the_last_update_gives_the_new_one(
        before: list[tuple[str, float, float]], moved: tuple[str, float, float]) -> None:
    explore = Explore()
    for point, x, y in before:
        explore = move(explore, FIXTURE, point, x, y)
    old = shown(explore)
    new = shown(move(explore, FIXTURE, *moved))
    delta = changes(new, old)
    assert written_over(old, delta) == new
    for part in ("texts", "values", "checked", "hidden", "disabled"):
        for element_id, value in getattr(delta, part).items():
            assert getattr(old, part).get(element_id) != value  # nothing is written twice


def test_a_move_of_one_point_leaves_every_other_points_handle_and_fields_alone() -> None:
    old = shown(Explore())
    delta = changes(shown(move(Explore(), FIXTURE, MOVED, 0.5, 1.5)), old)
    assert f"explore_{MOVED}_handle" in delta.styles
    assert delta.values[f"explore_{MOVED}_1"] == "0.5"
    written = {*delta.texts, *delta.values, *delta.styles, *delta.attributes}
    assert not [element_id for element_id in written
                if any(element_id.startswith(f"explore_{p}_") for p in POINTS[1:])]


def test_a_point_at_the_top_right_corner_writes_its_label_inward_and_its_tip_below() -> None:
    update = shown(move(Explore(), FIXTURE, MOVED, 3, 3))
    assert update.attributes[f"explore_{MOVED}_label"] == {
        "x": "294.00", "y": "19.00", "text-anchor": "end"}
    assert update.attributes[f"explore_{MOVED}_handle"] == {"data-tip": "end below"}


class Cells(HTMLParser):
    """Each row's cells as (tag, attributes, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[tuple[str, dict[str, str | None], str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("tr", "div"):
            self.rows.append([])
        elif tag in ("th", "td") or (tag == "span" and dict(attrs).get("class") != "bar-track"):
            self.rows[-1].append((tag, dict(attrs), ""))

    def handle_data(self, data: str) -> None:
        tag, attrs, text = self.rows[-1][-1]
        self.rows[-1][-1] = (tag, attrs, text + data)


def parsed(markup: str) -> list[list[tuple[str, dict[str, str | None], str]]]:
    cells = Cells()
    cells.feed(markup)
    return cells.rows


def test_a_heads_rows_are_its_steps_and_keys_each_row_headed_by_its_label() -> None:
    head = explore_view(LESSON, FIXTURE, Explore()).heads[0]
    steps = parsed(steps_html(head))
    assert [[text for _, _, text in row] for row in steps] == [
        [step.label, step.value] for step in head.steps]
    assert all(row[0][:2] == ("th", {"scope": "row"}) for row in steps)
    assert all(tag == "td" for row in steps for tag, _, _ in row[1:])
    keys = parsed(keys_html(head))
    assert [[text for _, _, text in row] for row in keys] == [
        [k.key, k.key_value, k.value, k.score, k.weight] for k in head.keys]


def test_markup_carries_text_as_text() -> None:
    bars = (Bar("<key 1>", "0.5 & up", 0.5),)
    assert parsed(bars_html(bars)) == [[
        ("span", {"class": "bar-key"}, "<key 1>"),
        ("span", {"class": "bar-fill"}, ""),
        ("span", {"class": "bar-value"}, "0.5 & up")]]
    assert "<key" not in bars_html(bars)
    assert bar_width(bars[0]) == "50.00%"


def test_an_update_goes_to_the_page_as_json_and_a_field_being_typed_keeps_its_value() -> None:
    update = shown(move(Explore(), FIXTURE, MOVED, 0.5, 1.5))
    written = json.loads(update_json(update, skip=f"explore_{MOVED}_1"))
    assert set(written) == {part.name for part in fields(PageUpdate)}
    assert written["attributes"] == update.attributes
    assert written["texts"] == update.texts
    assert f"explore_{MOVED}_1" not in written["values"]
    assert written["values"][f"explore_{MOVED}_2"] == "1.5"
    marked = {"x": "<b>é</b>"}
    assert json.loads(update_json(PageUpdate(texts=marked)))["texts"] == marked


def test_a_drag_frame_draws_the_plane_and_its_readout_and_leaves_the_rest_to_its_end() -> None:
    explore = move(Explore(), FIXTURE, MOVED, 0.5, 1.5)
    whole = explore_update(explore_view(LESSON, FIXTURE, explore))
    frame = explore_update(explore_view(LESSON, FIXTURE, explore, whole=False))
    below = ("explore_vectors", "explore_bears_out", "explore_plane_text", "explore_full_text",
             *(("explore_concatenated_1",) if LESSON.comparison else ()))
    assert not [element_id for element_id in below if element_id in frame.texts]
    assert all(element_id in whole.texts for element_id in below)
    for part in ("texts", "attributes", "styles", "values", "disabled"):  # the rest, as whole
        assert getattr(frame, part).items() <= getattr(whole, part).items()
    readout = f"explore_readout_{FIRST}_output"
    assert frame.texts[readout] == whole.texts[readout]
    assert f"explore_weight_{LAST}_{len(POINTS) - 1}" in frame.attributes

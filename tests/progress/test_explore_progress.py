"""Explore's points as progress: kept in the record's new version, and today's records migrate."""

from __future__ import annotations

import json
from dataclasses import replace

from attention_lessons import Explore, Progress, explored_only, move
from attention_lessons.engine import go_to_preset
from attention_lessons.progress import VERSION, from_json, merge, reset, set_explore, to_json
from strategies import D8, record

FIXTURE = D8.fixture
LESSON = D8.lesson


def test_a_record_of_version_1_loads_whole_with_nothing_explored() -> None:
    today = {**record(Progress(prediction="different", why="own softmax", runs=3,
                               takeaway="mine")), "version": 1}
    del today["explore"]
    loaded = from_json(json.dumps(today), LESSON)
    assert loaded == Progress(prediction="different", why="own softmax", runs=3,
                              takeaway="mine")
    assert loaded.explore == Explore()
    assert loaded.version == VERSION == 2


def test_a_record_of_version_1_with_explore_in_it_is_not_one_of_ours() -> None:
    import pytest  # noqa: PLC0415

    from attention_lessons.engine import StateError  # noqa: PLC0415

    today = {**record(Progress()), "version": 1}
    with pytest.raises(StateError, match="unknown field 'explore'"):
        from_json(json.dumps(today), LESSON)


def test_the_points_and_the_preset_come_back_from_the_record_exactly() -> None:
    explore = go_to_preset(LESSON, FIXTURE, "furthest")
    explore = move(explore, FIXTURE, "key_2", -0.25, 2.9)
    saved = set_explore(Progress(prediction="same"), explore)
    assert from_json(to_json(saved), LESSON) == saved
    assert from_json(to_json(saved), LESSON).explore.moved["key_2"] == (-0.25, 2.9)


def test_reset_forgets_what_was_explored() -> None:
    assert reset().explore == Explore()


def test_of_two_tabs_exploring_the_latest_edit_wins_and_an_unchanged_side_keeps_the_other() -> None:
    base = Progress(prediction="same")
    mine = set_explore(base, move(Explore(), FIXTURE, "query", 1, 1))
    theirs = set_explore(base, move(Explore(), FIXTURE, "query", -1, -1))
    assert merge(base, mine, theirs, LESSON).explore == theirs.explore
    assert merge(base, mine, base, LESSON).explore == mine.explore


def test_a_record_changed_in_explore_alone_is_told_from_one_changed_anywhere_else() -> None:
    base = Progress(prediction="same", answers={"q1": "0.5"}, takeaway="mine")
    moved = set_explore(base, move(Explore(), FIXTURE, "query", 1, 1))
    assert explored_only(base, moved)
    assert explored_only(moved, base)
    assert explored_only(base, base)
    for elsewhere in (replace(moved, takeaway="yours"), replace(moved, runs=1),
                      replace(moved, answers={"q1": "0.6"}), replace(moved, reading="r")):
        assert not explored_only(base, elsewhere)

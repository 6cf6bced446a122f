"""A record whose graded work is sound loads with that work when only a part that can be
rebuilt (Explore's points and experiments, a stored gate) cannot be read; that part is named."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from attention_lessons import Explore, Store, explore_view, set_explore, store_key
from attention_lessons.engine import StateError
from attention_lessons.progress import Outcome, backup_key, from_value, gate, load_record, to_json
from stored import FIRST_SITE_RECORD, Memory
from strategies import D8

LESSON = D8.lesson
SOUND = set_explore(load_record(FIRST_SITE_RECORD, LESSON).progress,
                    Explore({"key_1": (0.5, -1.0)}, None, "single", True))
MOVED = {"query": [1.0, 2.0], "key_1": [0.5, -1.0]}
# Each fault, in the record's explore, and the words the notice names it by.
FAULTS: dict[str, tuple[dict[str, Any], str]] = {
    "NaN": ({"moved": {**MOVED, "query": [float("nan"), 1.0]}}, "where Explore's query was"),
    "infinite": ({"moved": {**MOVED, "query": [float("inf"), 1.0]}}, "where Explore's query was"),
    "a string": ({"moved": {**MOVED, "query": ["1", 1.0]}}, "where Explore's query was"),
    "an object": ({"moved": {**MOVED, "query": {"x": 1}}}, "where Explore's query was"),
    "out of the plane": ({"moved": {**MOVED, "query": [3.5, 0.0]}}, "where Explore's query was"),
    "three coordinates": ({"moved": {**MOVED, "query": [1.0, 1.0, 1.0]}},
                          "where Explore's query was"),
    "an unknown point": ({"moved": {**MOVED, "key_65": [1.0, 1.0]}}, "where Explore's key 65 was"),
    "unknown preset": ({"preset": "nearest"}, "which Explore preset the points were put at"),
    "unknown scale": ({"scale": "huge"}, "Explore's scale experiment"),
    "odd full precision": ({"full_precision": "yes"}, "Explore's full-precision experiment"),
    "extra field": ({"colour": "red"}, "an unknown part of Explore, 'colour'"),
}


def faulty(change: dict[str, Any]) -> str:
    record = json.loads(to_json(SOUND))
    record["explore"] = {**record["explore"], "moved": MOVED, **change}
    return json.dumps(record)


@pytest.mark.parametrize("fault", FAULTS)
def test_a_fault_only_in_explore_loads_the_graded_work_and_names_what_was_dropped(
    fault: str,
) -> None:
    change, named = FAULTS[fault]
    loaded = load_record(faulty(change), LESSON)
    assert not loaded.unreadable
    assert loaded.dropped == (named,)
    assert named in loaded.notice
    progress = loaded.progress
    kept = {"query": (1.0, 2.0), "key_1": (0.5, -1.0)}
    if "query" in named:
        kept.pop("query")
    assert dict(progress.explore.moved) == kept
    assert (progress.prediction, progress.answers, progress.attempts, progress.takeaway) == (
        SOUND.prediction, SOUND.answers, SOUND.attempts, SOUND.takeaway)
    assert gate(progress, D8)


def test_explore_not_an_object_drops_only_explore() -> None:
    record = json.loads(to_json(SOUND))
    record["explore"] = [1, 2]
    loaded = load_record(json.dumps(record), LESSON)
    assert loaded.dropped == ("where Explore's points were and its experiments",)
    assert loaded.progress.explore == Explore()
    assert loaded.progress.takeaway == SOUND.takeaway


def test_a_stored_gate_that_is_not_true_or_false_is_dropped_it_is_worked_out_again() -> None:
    record = json.loads(to_json(SOUND))
    record["gate"] = "met"
    loaded = load_record(json.dumps(record), LESSON)
    assert loaded.dropped == ("a stored gate (it is worked out again)",)
    assert gate(loaded.progress, D8)


def test_a_fault_in_the_graded_work_still_sets_the_whole_record_aside() -> None:
    record = json.loads(faulty({"scale": "huge"}))
    record["runs"] = "lots"
    assert load_record(json.dumps(record), LESSON).unreadable


def test_the_store_sets_the_original_aside_loads_the_rest_and_then_saves_over_it() -> None:
    raw = faulty(FAULTS["NaN"][0])
    storage = Memory({store_key(LESSON): raw})
    store = Store(storage)
    progress, notice = store.load(LESSON)
    assert progress.takeaway == SOUND.takeaway
    assert "could not be read, so it was left out: where Explore's query was" in notice
    assert f"set aside just now (kept in this browser as {backup_key(LESSON)})" in notice
    assert storage.items[backup_key(LESSON)] == raw
    assert store.save(LESSON, progress) == (progress, Outcome.SAVED)
    assert load_record(storage.items[store_key(LESSON)], LESSON).progress == progress
    assert "set aside on an earlier visit" in Store(Memory(
        {store_key(LESSON): raw, backup_key(LESSON): raw})).load(LESSON)[1]


def test_an_import_stays_strict_naming_the_fault() -> None:
    with pytest.raises(StateError, match=r"explore\.preset: unknown preset 'nearest'"):
        from_value(json.loads(faulty({"preset": "nearest"})), LESSON)


def test_a_stored_point_a_hair_from_zero_reads_0_0_never_minus_0_0() -> None:
    record = json.loads(faulty({}))
    record["explore"]["moved"] = {"query": [1e-320, -1e-320]}
    progress = load_record(json.dumps(record), LESSON).progress
    x, y = progress.explore.moved["query"]
    assert (x, math.copysign(1, y)) == (0.0, 1.0)
    view = explore_view(LESSON, D8.fixture, progress.explore)
    assert "\N{MINUS SIGN}0.0" not in view.vectors
    assert "-0.0" not in view.vectors


def test_a_stored_point_this_lesson_has_not_does_not_count_as_moved() -> None:
    record = json.loads(faulty({}))
    record["explore"]["moved"] = {"key_9": [1.0, 1.0]}  # D8 has four keys
    explore = load_record(json.dumps(record), LESSON).progress.explore
    view = explore_view(LESSON, D8.fixture, explore)
    assert "moved by you" not in view.vectors
    assert not view.moved
    moved = Explore({"key_4": (1.0, 1.0)})
    assert "moved by you" in explore_view(LESSON, D8.fixture, moved).vectors

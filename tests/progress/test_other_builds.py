"""Records written by another build: a newer one this tab cannot read is never written over,
and an older one (version 1, no explored points) merges against what its tab read."""

from __future__ import annotations

import json

import pytest

from attention_lessons import Explore, Store, save_takeaway, set_explore, store_key
from attention_lessons.progress import (
    OUT_OF_DATE,
    Outcome,
    backup_key,
    check,
    from_json,
    to_json,
)
from stored import FIRST_SITE_RECORD, NEWER_TAKEAWAY, Memory, newer_records
from strategies import D8

LESSON = D8.lesson
KEY = store_key(LESSON)
MOVED = Explore({"query": (1.0, 2.0)})


@pytest.mark.parametrize("kind", newer_records())
def test_a_record_this_build_cannot_read_from_another_tab_is_never_written_over(
    kind: str,
) -> None:
    memory = Memory()
    memory.items[KEY] = FIRST_SITE_RECORD
    tab = Store(memory)
    mine, _ = tab.load(LESSON)
    theirs = newer_records()[kind]
    memory.items[KEY] = theirs  # another tab saves; this one hears a storage event
    assert tab.sync(LESSON, mine) == (mine, Outcome.OUT_OF_DATE)
    assert "out of date" in OUT_OF_DATE
    assert "Reload" in OUT_OF_DATE
    assert not tab.saving
    moved = set_explore(mine, MOVED)  # the next save, a single Explore move
    assert tab.save(LESSON, moved) == (moved, Outcome.OUT_OF_DATE)
    assert memory.items == {KEY: theirs}  # theirs whole, and nothing piled up beside it
    memory.items[KEY] = to_json(mine)  # the other tab writes what this build reads again
    assert tab.save(LESSON, moved) == (moved, Outcome.SAVED)
    assert tab.saving


def test_a_record_set_aside_on_load_is_still_written_over_by_this_tab() -> None:
    memory = Memory()
    memory.items[KEY] = newer_records()["a newer version"]
    tab = Store(memory)
    fresh, said = tab.load(LESSON)
    assert "set aside just now" in said
    assert tab.save(LESSON, set_explore(fresh, MOVED))[1] is Outcome.SAVED
    assert from_json(memory.items[KEY], LESSON).explore == MOVED
    assert memory.items[backup_key(LESSON)] == newer_records()["a newer version"]


def old_build_edit(record: str, **answers: str) -> str:
    """A version-1 record as the build before explored points wrote it: its own record whole,
    never merged with a version 2 it could not read."""
    raw = json.loads(record)
    raw["answers"] = {**raw["answers"], **answers}
    return json.dumps(raw)


@pytest.mark.parametrize("heard", ["storage event", "next save"])
def test_an_old_tab_writing_version_1_over_a_deploy_loses_nothing_of_the_new_tab(
    heard: str,
) -> None:
    memory = Memory()
    memory.items[KEY] = FIRST_SITE_RECORD  # tab OLD met the gate before the deploy
    new = Store(memory)
    progress, _ = new.load(LESSON)
    progress, said = new.save(LESSON, set_explore(save_takeaway(progress, NEWER_TAKEAWAY), MOVED))
    assert said is Outcome.SAVED
    memory.items[KEY] = old_build_edit(FIRST_SITE_RECORD, a_output="1.38")  # OLD edits
    if heard == "storage event":
        merged, told = new.sync(LESSON, progress)
        assert told is Outcome.FROM_OTHER_TAB  # the answer came from the other tab
    else:
        merged, told = new.save(LESSON, check(progress, {"b_output": "0.87"}, D8))
        assert told is Outcome.SAVED
        assert merged.answers["b_output"] == "0.87"
    assert merged.takeaway == NEWER_TAKEAWAY  # never the old tab's takeaway, "brought in"
    assert merged.explore == MOVED
    assert merged.answers["a_output"] == "1.38"
    assert all(merged.attempts[q] >= n for q, n in progress.attempts.items())
    stored = from_json(memory.items[KEY], LESSON)
    assert (stored.takeaway, stored.explore) == (NEWER_TAKEAWAY, MOVED)
    assert json.loads(memory.items[KEY])["version"] == 2
    # OLD edits again, from its own record: merged against that one, not the first
    memory.items[KEY] = old_build_edit(FIRST_SITE_RECORD, a_output="1.38", a_weight_1="0.5")
    merged, _ = new.sync(LESSON, merged)
    assert (merged.takeaway, merged.explore) == (NEWER_TAKEAWAY, MOVED)
    assert (merged.answers["a_output"], merged.answers["a_weight_1"]) == ("1.38", "0.5")

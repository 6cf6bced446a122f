"""The store's saving rules and the merge of two tabs' records, against a storage in memory."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from attention_lessons import Progress, Store, lock_prediction, lock_reading, open_hint, store_key
from attention_lessons.progress import (
    NOT_SET_ASIDE,
    Outcome,
    backup_key,
    check,
    from_json,
    merge,
    said,
    to_json,
)
from stored import Memory
from strategies import D8, journeys

LESSON = D8.lesson
KEY = store_key(LESSON)


LOCKED = lock_prediction(Progress(), LESSON, "different", "own softmax")


def test_a_failed_save_is_retried_at_the_next_change_and_the_notice_goes() -> None:
    memory = Memory(quota=10)
    store = Store(memory)
    store.load(LESSON)
    assert store.save(LESSON, LOCKED) == (LOCKED, Outcome.NOT_SAVED_YET)
    assert not store.saving
    memory.quota = None  # space freed
    later = check(LOCKED, {"a_output": "1.376"}, D8)
    assert store.save(LESSON, later) == (later, Outcome.SAVED)
    assert store.saving
    assert from_json(memory.items[KEY], LESSON) == later


def test_an_unreadable_record_is_set_aside_once_under_one_key() -> None:
    memory = Memory()
    memory.items[KEY] = "{oops"
    _, said = Store(memory).load(LESSON)
    assert "set aside just now" in said
    assert memory.items[backup_key(LESSON)] == "{oops"
    _, said = Store(memory).load(LESSON)  # a reload before any save
    assert "set aside on an earlier visit" in said
    assert [k for k in memory.items if k != KEY] == [backup_key(LESSON)]


def test_a_record_that_cannot_be_set_aside_is_never_written_over_until_reset() -> None:
    huge = "[" * 400 + "x"
    memory = Memory(quota=len(huge) + 5)
    memory.items[KEY] = huge
    store = Store(memory)
    assert store.load(LESSON) == (Progress(), NOT_SET_ASIDE)
    assert store.save(LESSON, LOCKED) == (LOCKED, Outcome.NOT_SET_ASIDE)
    assert memory.items[KEY] == huge
    assert store.held == {"d8": len(huge)}
    assert store.put(LESSON, Progress()) == (Progress(), Outcome.SAVED)
    assert memory.items == {KEY: to_json(Progress())}
    assert store.save(LESSON, LOCKED) == (LOCKED, Outcome.SAVED)


def test_a_save_merges_in_what_another_tab_saved_meanwhile() -> None:
    memory = Memory()
    one, two = Store(memory), Store(memory)
    one.load(LESSON)
    two.load(LESSON)
    one.save(LESSON, LOCKED)
    ran = check(Progress(), {"a_score_1": "2"}, D8)  # tab two never saw the lock
    merged, said = two.save(LESSON, ran)
    assert (merged.prediction, merged.runs, said) == ("different", 1, Outcome.SAVED)
    synced, told = one.sync(LESSON, LOCKED)
    assert (synced, told) == (merged, Outcome.FROM_OTHER_TAB)


def test_a_reset_in_another_tab_is_followed() -> None:
    memory = Memory()
    one, two = Store(memory), Store(memory)
    one.load(LESSON)
    one.save(LESSON, LOCKED)
    two.load(LESSON)
    two.put(LESSON, Progress())
    synced, told = one.sync(LESSON, LOCKED)
    assert synced == Progress()
    assert told is Outcome.RESET_ELSEWHERE
    assert "reset or replaced in another tab" in said(told)


def test_two_tabs_locking_different_predictions_agree_on_one() -> None:
    other = lock_prediction(Progress(), LESSON, "close", "halves")
    assert merge(Progress(), LOCKED, other, LESSON) == merge(Progress(), other, LOCKED, LESSON)
    assert merge(LOCKED, LOCKED, replace(LOCKED, why="edited"), LESSON).prediction == "different"


def test_the_right_reading_stays_and_the_latest_edit_of_an_answer_wins() -> None:
    right = lock_reading(LOCKED, LESSON.correct_reading, LESSON)
    wrong = lock_reading(LOCKED, next(c.id for c in LESSON.readings
                                      if c.id != LESSON.correct_reading), LESSON)
    assert merge(LOCKED, right, wrong, LESSON).reading == LESSON.correct_reading
    mine = check(LOCKED, {"a_output": "1"}, D8)
    theirs = check(LOCKED, {"a_output": "2"}, D8)
    assert merge(LOCKED, mine, theirs, LESSON).answers["a_output"] == "2"
    assert merge(LOCKED, mine, LOCKED, LESSON).answers["a_output"] == "1"


def test_a_hand_edited_record_cannot_open_hints_its_runs_have_not_opened() -> None:
    edited = to_json(replace(LOCKED, hints_opened=2, runs=0))
    assert from_json(edited, LESSON).hints_opened == 0
    three = check(check(check(LOCKED, {"a_output": "1"}, D8), {"a_output": "2"}, D8),
                  {"a_output": "3"}, D8)
    opened = open_hint(three, LESSON, 1)
    assert from_json(to_json(opened), LESSON) == opened


base_then_two = journeys().flatmap(lambda base: st.tuples(st.just(base), journeys(base),
                                                          journeys(base)))


@given(base_then_two)
def test_a_merge_never_loses_a_lock_nor_lowers_a_count_and_is_symmetric_there(
    tabs: tuple[Progress, Progress, Progress],
) -> None:
    base, mine, theirs = tabs
    one, two = merge(base, mine, theirs, LESSON), merge(base, theirs, mine, LESSON)
    for merged in (one, two):
        assert merged.runs == max(mine.runs, theirs.runs)
        assert merged.hints_opened == max(mine.hints_opened, theirs.hints_opened)
        for qid in {*mine.attempts, *theirs.attempts}:
            assert merged.attempts[qid] >= max(mine.attempts.get(qid, 0),
                                               theirs.attempts.get(qid, 0))
        if base.prediction is not None:
            assert (merged.prediction, merged.why) == (base.prediction, base.why)
        elif mine.prediction or theirs.prediction:
            assert merged.prediction in (mine.prediction, theirs.prediction)
    assert (one.prediction, one.why, one.runs, one.attempts, one.hints_opened) == (
        two.prediction, two.why, two.runs, two.attempts, two.hints_opened)

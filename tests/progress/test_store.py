"""Loading a saved record: a good one comes back, a missing one starts afresh, a bad one is kept."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from attention_lessons import NOT_SAVING, Progress, Store, lock_prediction, removes_copy, store_key
from attention_lessons.progress import (
    NOT_SET_ASIDE,
    VERSION,
    Outcome,
    gate,
    load_record,
    notices,
    to_json,
)
from stored import FIRST_SITE_KEY, FIRST_SITE_RECORD, Blocked, Memory
from strategies import D8


def test_a_saved_record_comes_back_without_a_notice() -> None:
    saved = lock_prediction(Progress(), D8.lesson, "different", "each head has its own softmax")
    loaded = load_record(to_json(saved), lesson=D8.lesson)
    assert (loaded.progress, loaded.notice, loaded.unreadable) == (saved, "", False)


def test_no_record_starts_afresh_quietly() -> None:
    fresh = load_record(to_json(Progress()), lesson=D8.lesson)
    assert load_record(None, lesson=D8.lesson) == fresh


@given(st.text().filter(lambda t: not t.startswith("{")))
def test_an_unreadable_record_is_named_for_a_backup_and_said_so(raw: str) -> None:
    loaded = load_record(raw, lesson=D8.lesson)
    assert loaded.progress == Progress()
    assert loaded.unreadable
    assert f"{store_key(D8.lesson)}:unreadable" in loaded.notice
    assert "could not be read" in loaded.notice


def test_a_record_from_an_unknown_version_is_kept_too() -> None:
    unknown = to_json(Progress()).replace(f'"version": {VERSION}', '"version": 99')
    loaded = load_record(unknown, lesson=D8.lesson)
    assert loaded.unreadable


def test_a_new_trouble_saving_is_added_to_the_load_notice_once() -> None:
    assert notices("", "") == ""
    assert notices("", NOT_SAVING) == NOT_SAVING
    assert notices("Set aside.", NOT_SAVING) == f"Set aside. {NOT_SAVING}"
    assert notices(f"Set aside. {NOT_SAVING}", NOT_SAVING) == f"Set aside. {NOT_SAVING}"
    assert notices("Set aside.", "") == "Set aside."





def test_a_d8_record_from_the_first_site_comes_back_whole() -> None:
    assert store_key(D8.lesson) == FIRST_SITE_KEY
    loaded = load_record(FIRST_SITE_RECORD, lesson=D8.lesson)
    assert (loaded.notice, loaded.unreadable) == ("", False)
    progress = loaded.progress
    assert (progress.prediction, progress.why) == ("close", "heads are halves")
    assert progress.answers == {"a_output": "1.376", "a_score_1": "3", "a_weight_1": "0.46",
                                "b_output": "0.874", "b_score_2": "-1", "b_weight_1": "0.47"}
    assert progress.attempts == {"a_output": 2, "a_score_1": 3, "a_weight_1": 3, "b_output": 5,
                                 "b_score_2": 1, "b_weight_1": 3}
    assert progress.graded["b_output"] == 0.874
    assert (progress.runs, progress.hints_opened, progress.reading) == (5, 2, "own_scores")
    assert progress.projection == ((1.0, 0.5), (-1.5, 1.0))
    assert progress.takeaway == "Each head has its own softmax <b>not HTML</b>."
    assert gate(progress, D8)


def test_a_store_saves_and_loads_each_lesson_under_its_own_key() -> None:
    storage = Memory()
    store = Store(storage)
    progress = lock_prediction(Progress(), D8.lesson, "same")
    assert store.save(D8.lesson, progress) == (progress, Outcome.SAVED)
    assert set(storage.items) == {store_key(D8.lesson)}
    assert store.load(D8.lesson) == (progress, "")
    assert store.peek(D8.lesson) == progress


def test_blocked_storage_keeps_progress_in_memory_and_says_so() -> None:
    store = Store(Blocked())
    assert store.load(D8.lesson) == (Progress(), NOT_SAVING)
    assert not store.saving
    assert store.save(D8.lesson, Progress()) == (Progress(), Outcome.NOT_SAVING)


def test_an_unreadable_record_is_backed_up_and_never_written_over() -> None:
    storage = Memory({store_key(D8.lesson): "{not json"})
    progress, notice = Store(storage).load(D8.lesson)
    assert progress == Progress()
    assert "set aside" in notice
    assert storage.items[f"{store_key(D8.lesson)}:unreadable"] == "{not json"
    full = Memory({store_key(D8.lesson): "{not json"}, quota=12)
    store = Store(full)
    assert store.load(D8.lesson) == (Progress(), NOT_SET_ASIDE)
    assert store.save(D8.lesson, Progress()) == (Progress(), Outcome.NOT_SET_ASIDE)
    assert full.items == {store_key(D8.lesson): "{not json"}


def test_once_reset_clears_a_record_there_was_no_room_to_set_aside_the_notice_goes() -> None:
    full = Memory({store_key(D8.lesson): "{not json" * 40}, quota=600)
    store = Store(full)
    assert store.load(D8.lesson) == (Progress(), NOT_SET_ASIDE)
    assert store.notice(D8.lesson, Outcome.SAVED) == NOT_SET_ASIDE
    assert store.forget(D8.lesson) == (Progress(), Outcome.SAVED)
    assert store.saving
    assert store.notice(D8.lesson, Outcome.SAVED) == ""
    locked = lock_prediction(Progress(), D8.lesson, "same")
    assert store.save(D8.lesson, locked) == (locked, Outcome.SAVED)


def test_a_second_unreadable_record_replaces_the_first_copy_and_says_so() -> None:
    key = f"{store_key(D8.lesson)}:unreadable"
    storage = Memory({store_key(D8.lesson): "{second", key: "{first"})
    _, notice = Store(storage).load(D8.lesson)
    assert f"kept in this browser as {key}, in place of the unreadable record set aside there " \
        "before" in notice
    assert storage.items[key] == "{second"


def test_reset_also_removes_the_copy_set_aside_and_offers_to_say_so() -> None:
    storage = Memory({store_key(D8.lesson): "{not json"})
    store = Store(storage)
    _, notice = store.load(D8.lesson)
    assert store.notice(D8.lesson, Outcome.SAVED) == notice != ""
    assert store.copy_set_aside(D8.lesson) == len("{not json")
    assert removes_copy(9) == ("It also removes the copy of unreadable saved progress "
                               "(9 characters) that this browser set aside.")
    # The record it set aside is its own to clear.
    assert store.forget(D8.lesson) == (Progress(), Outcome.SAVED)
    assert storage.items == {store_key(D8.lesson): to_json(Progress())}
    assert store.copy_set_aside(D8.lesson) is None
    assert store.notice(D8.lesson, Outcome.SAVED) == ""


def test_a_five_megabyte_crafted_record_is_set_aside_at_once() -> None:
    crafted = "[" * 21 + '"' + '\\"' * 2_500_000
    storage = Memory({store_key(D8.lesson): crafted}, quota=10**8)
    assert load_record(crafted, D8.lesson).unreadable
    progress, notice = Store(storage).load(D8.lesson)
    assert progress == Progress()
    assert "set aside just now" in notice

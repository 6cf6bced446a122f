"""Loading a saved record: a good one comes back, a missing one starts afresh, a bad one is kept."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from attention_lessons import (
    NOT_SAVING,
    STORE_KEY,
    Progress,
    load_record,
    lock_prediction,
    notices,
    to_json,
)


def test_a_saved_record_comes_back_without_a_notice() -> None:
    saved = lock_prediction(Progress(), "different", "each head has its own softmax")
    loaded = load_record(to_json(saved), now_ms=1)
    assert (loaded.progress, loaded.notice, loaded.backup_key) == (saved, "", None)


def test_no_record_starts_afresh_quietly() -> None:
    assert load_record(None, now_ms=1) == load_record(to_json(Progress()), now_ms=2)


@given(st.text().filter(lambda t: not t.startswith("{")))
def test_an_unreadable_record_is_named_for_a_backup_and_said_so(raw: str) -> None:
    loaded = load_record(raw, now_ms=1700)
    assert loaded.progress == Progress()
    assert loaded.backup_key == f"{STORE_KEY}:backup:1700"
    assert loaded.backup_key in loaded.notice
    assert "could not be read" in loaded.notice


def test_a_record_from_an_unknown_version_is_kept_too() -> None:
    loaded = load_record(to_json(Progress()).replace('"version": 1', '"version": 99'), now_ms=5)
    assert loaded.backup_key is not None


def test_a_new_trouble_saving_is_added_to_the_load_notice_once() -> None:
    assert notices("", "") == ""
    assert notices("", NOT_SAVING) == NOT_SAVING
    assert notices("Set aside.", NOT_SAVING) == f"Set aside. {NOT_SAVING}"
    assert notices(f"Set aside. {NOT_SAVING}", NOT_SAVING) == f"Set aside. {NOT_SAVING}"
    assert notices("Set aside.", "") == "Set aside."

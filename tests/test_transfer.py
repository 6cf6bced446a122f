"""Download and import: the file names its lesson; an import is checked before it replaces."""

from __future__ import annotations

import json

import pytest

from attention_lessons import (
    Progress,
    StateError,
    apply_early,
    check,
    export_json,
    lock_prediction,
    read_import,
)
from strategies import D8

LESSON = D8.lesson
LOCKED = lock_prediction(Progress(), LESSON, "different", "own softmax")


def test_a_downloaded_file_imports_back_whole_and_says_what_it_replaces() -> None:
    done = check(LOCKED, {"a_score_1": "2", "a_output": "1.376"}, D8)
    incoming = read_import(export_json(done, LESSON), Progress(), D8)
    assert incoming.progress == done
    assert incoming.summary == (
        "Importing replaces your progress here (no prediction, zero runs, 0 of 6 numbers right, "
        "gate not met) with the file's (a locked prediction, one run, 2 of 6 numbers right, "
        "gate not met).")


@pytest.mark.parametrize(("text", "said"), [
    ("not json", "it is not JSON"),
    ("[]", "not progress downloaded from this site"),
    ('{"kind": "attention-lessons progress", "lesson": "8-2", "progress": {}}',
     "another lesson, not D8"),
    ('{"kind": "attention-lessons progress", "lesson": "d8", "progress": {"version": 7}}',
     "unknown version 7"),
    ("x" * 300_000, "far too big"),
])
def test_a_bad_file_gets_a_clear_message(text: str, said: str) -> None:
    with pytest.raises(StateError, match=said) as raised:
        read_import(text, LOCKED, D8)
    assert str(raised.value).endswith("Nothing was changed.")


def test_a_prediction_locked_before_python_applies_unless_a_saved_one_wins() -> None:
    applied, said = apply_early(Progress(), LESSON, "same", " why ")
    assert (applied.prediction, applied.why) == ("same", "why")
    assert "now applied" in said
    kept, said = apply_early(LOCKED, LESSON, "same", "")
    assert kept is LOCKED
    assert "locked in on an earlier visit, so it stands" in said
    assert apply_early(LOCKED, LESSON, "", "") == (LOCKED, "")
    assert json.loads(export_json(LOCKED, LESSON))["lesson"] == "d8"

"""Download and import: the file names its lesson; an import is checked before it replaces."""

from __future__ import annotations

import json

import pytest

from attention_lessons import (
    Explore,
    Progress,
    apply_early,
    check_size,
    confirm_import,
    export_json,
    lock_prediction,
    lock_reading,
    read_import,
    save_takeaway,
    set_explore,
)
from attention_lessons.engine import StateError
from attention_lessons.progress import check
from strategies import D8

LESSON = D8.lesson
LOCKED = lock_prediction(Progress(), LESSON, "different", "own softmax")
RIGHT = {"a_score_1": "2", "a_weight_1": "0.4643", "a_output": "1.376", "b_score_2": "-1",
         "b_weight_1": "0.4754", "b_output": "0.8744"}


def test_a_downloaded_file_imports_back_whole_and_says_what_it_replaces() -> None:
    done = check(LOCKED, {"a_score_1": "2", "a_output": "1.376"}, D8)
    incoming = read_import(export_json(done, LESSON), Progress(), D8)
    assert incoming.progress == done
    assert incoming.summary == (
        "Importing replaces your progress here (no prediction, zero runs, 0 of 6 numbers right, "
        "gate not met) with the file's (a locked prediction, one run, 2 of 6 numbers right, "
        "gate not met).")


def test_the_summary_says_which_prediction_reason_and_takeaway_an_import_replaces() -> None:
    here = save_takeaway(LOCKED, "mine, written here")
    other = lock_prediction(Progress(), LESSON, "same", "the file's reason")
    summary = read_import(export_json(save_takeaway(other, "the file's"), LESSON), here,
                          D8).summary
    assert summary.endswith(
        "a takeaway). Your locked prediction, “{}”, and your reason are replaced by the file's, "
        "“{}”. Your takeaway here is replaced by the file's.".format(
            LESSON.prediction_label("different"), LESSON.prediction_label("same")))
    same = read_import(export_json(lock_prediction(Progress(), LESSON, "different", "why not"),
                                   LESSON), here, D8).summary
    assert same.endswith(" The reason you gave for your prediction is replaced by the file's. "
                         "Your takeaway here is removed: the file holds none.")
    assert read_import(export_json(here, LESSON), here, D8).summary.endswith("a takeaway).")


def spoiled(**fields: object) -> str:
    """A downloaded file with fields of its record changed or added."""
    file = json.loads(export_json(LOCKED, LESSON))
    file["progress"].update(fields)
    return json.dumps(file)


@pytest.mark.parametrize(("text", "said"), [
    ("not json", "it is not JSON"),
    ("[]", "not progress downloaded from this site"),
    ('{"kind": "attention-lessons progress", "lesson": "8-2", "progress": {}}',
     "another lesson, not D8"),
    ('{"kind": "attention-lessons progress", "lesson": "d8", "progress": {"version": 7}}',
     "unknown version 7"),
    ("x" * 300_000, "far too big"),
    (spoiled(runs=10**30), "runs: expected a whole number from 0 to 1,000,000"),
    (spoiled(streak=3), "unknown field 'streak'"),
    ("[" * 30 + "]" * 30, "nests deeper than 20 levels"),
    ('{"kind": "attention-lessons progress", "x": ' + "[" * 30 + "]" * 30 + "}",
     "nests deeper than 20 levels"),
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
    assert said == ("\u201cClearly different, by more than 0.1.\u201d was already saved as your "
                    "locked prediction (from another tab or an earlier visit), so it stands; "
                    "\u201cThe same two numbers.\u201d chosen here while Python was starting was "
                    "not used.")
    assert "so it stands as saved" in apply_early(LOCKED, LESSON, "different", "")[1]
    assert apply_early(LOCKED, LESSON, "", "") == (LOCKED, "")
    assert json.loads(export_json(LOCKED, LESSON))["lesson"] == "d8"


def test_a_huge_file_is_refused_by_its_size_before_it_is_read() -> None:
    check_size(200_000)
    with pytest.raises(StateError, match="far too big"):
        check_size(50_000_000)


def test_the_confirm_replaces_only_what_the_summary_described() -> None:
    file = check(LOCKED, {"a_output": "1.376"}, D8)
    incoming = read_import(export_json(file, LESSON), Progress(), D8)
    assert confirm_import(incoming, Progress(), D8) is None
    worked = lock_reading(check(LOCKED, RIGHT, D8), "own_scores", LESSON)
    again = confirm_import(incoming, worked, D8)
    assert again is not None
    assert again.summary.startswith("Your progress here changed since you chose the file")
    assert "(a locked prediction, one run, 6 of 6 numbers right, gate met)" in again.summary
    assert confirm_import(again, worked, D8) is None


def test_a_file_that_claims_a_gate_its_numbers_do_not_meet_is_told() -> None:
    claimed = json.loads(export_json(LOCKED, LESSON))
    claimed["progress"]["gate"] = True
    summary = read_import(json.dumps(claimed), Progress(), D8).summary
    assert summary.endswith("The file says its gate was met, but its numbers and reading do not "
                            "meet it, so here it will not be.")


def test_an_explore_move_after_the_file_is_chosen_does_not_make_the_summary_stale() -> None:
    file = check(LOCKED, {"a_output": "1.376"}, D8)
    incoming = read_import(export_json(file, LESSON), LOCKED, D8)
    moved = set_explore(LOCKED, Explore({"query": (1.0, 2.0)}, None, "single", True))
    assert confirm_import(incoming, moved, D8) is None
    assert confirm_import(incoming, check(moved, {"a_output": "1"}, D8), D8) is not None

"""Progress: pure transitions for every learner action, and a saved record that loads back."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from attention_lessons import (
    Progress,
    lock_prediction,
    lock_reading,
    open_hint,
    parse_number,
    reset_projection,
    save_takeaway,
    set_projection,
)
from attention_lessons.engine import ParseError, StateError
from attention_lessons.progress import MAX_COUNT, check, from_json, gate, reset, to_json
from strategies import D8, QIDS, json_type, json_values, progresses, record, typed_texts

RIGHT = {"a_score_1": "2", "a_weight_1": "0.4643", "a_output": "1.376", "b_score_2": "-1",
         "b_weight_1": "0.4754", "b_output": "0.8744"}


def checked(*rounds: dict[str, str]) -> Progress:
    """Return the progress after pressing Check once per round of typed values."""
    progress = Progress()
    for typed in rounds:
        progress = check(progress, typed, D8)
    return progress


def test_a_prediction_locks_once_and_keeps_a_trimmed_why() -> None:
    locked = lock_prediction(Progress(), D8.lesson, "close", "  softmax is linear enough  ")
    assert (locked.prediction, locked.why) == ("close", "softmax is linear enough")
    again = lock_prediction(locked, D8.lesson, "different", "changed my mind")
    assert (again.prediction, again.why) == ("close", "softmax is linear enough")
    assert len(lock_prediction(Progress(), D8.lesson, "same", "x" * 500).why) == 300


@pytest.mark.parametrize("choice", ["", "Same", "maybe", "different "])
def test_an_unknown_prediction_is_refused(choice: str) -> None:
    with pytest.raises(StateError, match="Choose one of the three predictions"):
        lock_prediction(Progress(), D8.lesson, choice)


def test_a_new_value_costs_one_attempt_and_one_run() -> None:
    progress = checked({"a_output": "1.2"})
    assert progress.attempts == {"a_output": 1}
    assert progress.graded == {"a_output": 1.2}
    assert progress.runs == 1


def test_rechecking_an_unchanged_value_costs_nothing() -> None:
    once = checked({"a_output": "1.2"})
    twice = check(once, {"a_output": "1.2"}, D8)
    assert (twice.attempts, twice.runs) == (once.attempts, once.runs)
    assert check(once, {}, D8) == once  # Check with the fields as they stand


def test_the_same_number_typed_differently_is_not_new() -> None:
    progress = checked({"b_weight_1": "0.5"}, {"b_weight_1": ".5"}, {"b_weight_1": "1/2"},
                       {"b_weight_1": " 0,5 "})
    assert progress.attempts == {"b_weight_1": 1}
    assert progress.runs == 1
    assert progress.answers["b_weight_1"] == " 0,5 "  # what was typed last is what shows


@pytest.mark.parametrize("typed", ["", "abc", "nan", "1/0", "1,000", "x" * 65])
def test_an_unreadable_value_costs_nothing(typed: str) -> None:
    progress = checked({"a_score_1": typed})
    assert (progress.attempts, progress.graded, progress.runs) == ({}, {}, 0)
    assert progress.answers["a_score_1"] == typed


def test_one_check_with_several_new_values_is_one_run() -> None:
    progress = checked(RIGHT)
    assert progress.runs == 1
    assert progress.attempts == dict.fromkeys(QIDS, 1)
    mixed = check(progress, {"a_output": "1.3", "b_output": "0.8744"}, D8)
    assert mixed.runs == 2
    assert mixed.attempts == {**dict.fromkeys(QIDS, 1), "a_output": 2}


def test_going_back_to_an_earlier_value_is_new_again() -> None:
    progress = checked({"a_output": "1"}, {"a_output": "2"}, {"a_output": "1"})
    assert (progress.attempts["a_output"], progress.runs) == (3, 3)


def test_check_ignores_fields_that_are_not_questions() -> None:
    assert checked({"c_output": "1"}).runs == 0
    assert set(checked({"c_output": "1"}).answers) == set(QIDS)


def test_hints_open_at_runs_three_and_five_exactly() -> None:
    progress = Progress()
    for run, value in enumerate(["1", "2", "3", "4", "5"], 1):
        for rung in (1, 2):
            if (rung == 1 and run < 3) or (rung == 2 and run < 5):
                with pytest.raises(StateError, match=f"Hint {rung} is not available yet"):
                    open_hint(progress, D8.lesson, rung)
        progress = check(progress, {"a_output": value}, D8)
        assert progress.runs == run
    assert open_hint(progress, D8.lesson, 2).hints_opened == 2
    # Opening rung 1 after rung 2 never closes a rung.
    assert open_hint(open_hint(progress, D8.lesson, 2), D8.lesson, 1).hints_opened == 2
    assert open_hint(replace(progress, runs=3), D8.lesson, 1).hints_opened == 1
    with pytest.raises(StateError):
        open_hint(replace(progress, runs=4), D8.lesson, 2)


def test_a_wrong_reading_can_be_replaced_and_the_right_one_sticks() -> None:
    wrong = lock_reading(Progress(), "rounding", D8.lesson)
    assert wrong.reading == "rounding"
    right = lock_reading(lock_reading(wrong, "scale", D8.lesson), "own_scores", D8.lesson)
    assert right.reading == "own_scores"
    assert lock_reading(right, "broken", D8.lesson).reading == "own_scores"


@pytest.mark.parametrize("reading", ["", "own scores", "Own_scores"])
def test_an_unknown_reading_is_refused(reading: str) -> None:
    with pytest.raises(StateError, match="Choose one reading"):
        lock_reading(Progress(), reading, D8.lesson)


def test_the_gate_needs_five_right_numbers_and_the_right_reading() -> None:
    five = checked({**RIGHT, "b_output": "9"})
    assert not gate(five, D8)  # no reading yet
    assert not gate(lock_reading(five, "scale", D8.lesson), D8)
    met = lock_reading(five, "own_scores", D8.lesson)
    assert gate(met, D8)
    four = check(met, {"a_output": "0"}, D8)
    assert not gate(four, D8)  # the gate follows the current answers
    assert gate(check(four, {"a_output": "1.39"}, D8), D8)
    reading_first = checked()
    reading_first = lock_reading(reading_first, "own_scores", D8.lesson)
    assert gate(check(reading_first, RIGHT, D8), D8)


def test_an_unreadable_answer_no_longer_counts_towards_the_gate() -> None:
    met = lock_reading(checked({**RIGHT, "b_output": "9"}), "own_scores", D8.lesson)
    assert not gate(check(met, {"a_output": "one point four"}, D8), D8)


def test_projection_entries_are_set_one_at_a_time_and_reset() -> None:
    progress = set_projection(set_projection(Progress(), 0, 1, 0.5), 1, 1, -2.0)
    assert progress.projection == ((1.0, 0.5), (0.0, -2.0))
    assert reset_projection(progress).projection == ((1.0, 0.0), (0.0, 1.0))
    assert reset_projection(progress).takeaway == progress.takeaway


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_a_projection_entry_must_be_finite(value: float) -> None:
    with pytest.raises(StateError, match="finite"):
        set_projection(Progress(), 0, 0, value)


def test_a_takeaway_is_saved_trimmed() -> None:
    assert save_takeaway(Progress(), "  Heads normalise alone.\n").takeaway == \
        "Heads normalise alone."
    assert save_takeaway(Progress(), "x" * 1000).takeaway == "x" * 1000


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "x" * 1001])
def test_a_blank_or_over_long_takeaway_is_refused(text: str) -> None:
    with pytest.raises(StateError):
        save_takeaway(Progress(), text)


def test_reset_forgets_everything_the_prediction_included() -> None:
    progress = save_takeaway(lock_prediction(checked(RIGHT), D8.lesson, "same"), "mine")
    assert progress != Progress()
    assert reset() == Progress()
    assert lock_prediction(reset(), D8.lesson, "different").prediction == "different"


def test_transitions_never_mutate_their_input() -> None:
    before = checked({"a_output": "1"})
    snapshot = (dict(before.answers), dict(before.attempts), dict(before.graded))
    check(before, {"a_output": "2", "b_output": "3"}, D8)
    assert (dict(before.answers), dict(before.attempts), dict(before.graded)) == snapshot


@settings(max_examples=150, deadline=None)
@given(progresses)
def test_a_record_loads_back_as_it_was_saved(progress: Progress) -> None:
    assert from_json(to_json(progress), D8.lesson) == progress


def reads_as(text: str) -> float | str:
    """Return what the parser makes of text: its value, or its complaint."""
    try:
        return parse_number(text).value
    except ParseError as exc:
        return str(exc)


@settings(max_examples=150)
@given(typed_texts)
def test_check_stores_text_that_reads_as_what_was_typed(text: str) -> None:
    stored = checked({"a_output": text}).answers["a_output"]
    assert reads_as(stored) == reads_as(text)
    assert len(stored) <= 200


def test_a_long_paste_into_a_field_still_loads_back() -> None:
    pasted = checked({"a_output": "x" * 250, "b_output": " " * 240 + "0.8744 "})
    loaded = from_json(to_json(pasted), D8.lesson)
    assert loaded == pasted
    assert loaded.graded == {"b_output": 0.8744}


@settings(max_examples=150)
@given(st.text())
def test_arbitrary_text_is_refused_with_state_error(text: str) -> None:
    with pytest.raises(StateError):
        from_json(text, D8.lesson)


@settings(max_examples=150)
@given(json_values)
def test_arbitrary_json_is_refused_with_state_error(value: Any) -> None:
    with pytest.raises(StateError):
        from_json(json.dumps(value), D8.lesson)


FIELD_TYPES = {"version": "int", "prediction": "str|NoneType", "why": "str", "answers": "dict",
               "graded": "dict", "attempts": "dict", "runs": "int", "hints_opened": "int",
               "reading": "str|NoneType", "projection": "list", "takeaway": "str|NoneType",
               "explore": "dict"}
# Records written before the gate was derived carry it too; it must still be true or false.
OLD_FIELD_TYPES = {**FIELD_TYPES, "gate": "bool"}


# Near misses first: true for 1, 1.0 for 1, "1" for 1 and null are the likely corruptions.
near_misses: st.SearchStrategy[Any] = (
    st.sampled_from([True, False, 1.0, 0, 1, "1", "", None, [], {}]) | json_values)


@settings(max_examples=200)
@given(st.sampled_from(sorted(OLD_FIELD_TYPES)), near_misses, progresses)
def test_one_field_of_the_wrong_type_is_refused(field: str, value: Any,
                                                progress: Progress) -> None:
    assume(json_type(value) not in OLD_FIELD_TYPES[field].split("|"))
    with pytest.raises(StateError):
        from_json(json.dumps({**record(progress), field: value}), D8.lesson)


@pytest.mark.parametrize("spoil", [
    {"version": 3}, {"version": 0}, {"version": True}, {"version": 1.0}, {"version": "1"},
    {"prediction": "maybe"}, {"reading": "vibes"}, {"why": "x" * 301},
    {"answers": {"a_output": 1.376}}, {"answers": {"c_output": "1"}},
    {"answers": {"a_output": "x" * 201}},
    {"graded": {"a_output": "1.376"}}, {"graded": {"a_output": None}},
    {"graded": {"a_output": 10**400}}, {"graded": {"a_output": True}},
    {"attempts": {"a_output": -1}}, {"attempts": {"a_output": 1.5}},
    {"attempts": {"a_output": False}}, {"runs": -1}, {"runs": 2.0}, {"hints_opened": None},
    {"projection": [[1, 0]]}, {"projection": [[1, 0], [0]]}, {"projection": [[1, 0], "01"]},
    {"projection": [[10**400, 0], [0, 1]]}, {"projection": [[1, 0], [0, None]]},
    {"takeaway": "x" * 1001}, {"takeaway": 5}, {"gate": 1}, {"gate": "true"},
    {"runs": 10**30}, {"runs": 1_000_001}, {"attempts": {"a_output": 10**6 + 1}},
    {"hints_opened": 10**9}, {"streak": 3},
    {"explore": None}, {"explore": {"moved": {}}}, {"explore": {"moved": [], "preset": None}},
    {"explore": {"moved": {"key_0": [0, 0]}, "preset": None}},
    {"explore": {"moved": {"query": [0, 3.5]}, "preset": None}},
    {"explore": {"moved": {"query": [0]}, "preset": None}},
    {"explore": {"moved": {"query": [0, "1"]}, "preset": None}},
    {"explore": {"moved": {}, "preset": "even"}},  # 8.2's preset, not D8's
])
def test_a_spoiled_field_is_refused(spoil: dict[str, Any]) -> None:
    with pytest.raises(StateError):
        from_json(json.dumps({**record(), **spoil}), D8.lesson)


@pytest.mark.parametrize("text", [
    "", "null", "[]", '"progress"', "1" * 5000, '{"runs": ' + "1" * 5000 + "}",
    "[" * 100_000 + "]" * 100_000, '{"version": 1', "NaN",
], ids=["empty", "null", "array", "string", "4300-digits", "4300-digit-field", "deep", "cut",
        "nan"])
def test_text_that_is_not_a_record_is_refused(text: str) -> None:
    with pytest.raises(StateError):
        from_json(text, D8.lesson)


def test_json_floats_out_of_range_are_refused() -> None:
    spoiled = to_json(Progress()).replace('"graded": {}', '"graded": {"a_output": 1e999}')
    with pytest.raises(StateError, match=r"graded\.a_output"):
        from_json(spoiled, D8.lesson)


def test_the_saved_record_names_every_field_and_the_version() -> None:
    assert set(record()) == set(FIELD_TYPES)
    assert record()["version"] == 2


@pytest.mark.parametrize("claimed", [True, False])
def test_a_saved_gate_is_never_trusted(claimed: bool) -> None:
    met = lock_reading(checked(RIGHT), "own_scores", D8.lesson)
    for progress in (Progress(), met):
        loaded = from_json(json.dumps({**record(progress), "gate": claimed}), D8.lesson)
        assert gate(loaded, D8) == gate(progress, D8)


@pytest.mark.parametrize(("row", "col", "value"), [(2, 0, 1.0), (0, -2, 1.0), (0, 0, 100.5),
                                                   (1, 1, -1e300), (0, 1, math.inf)])
def test_set_projection_refuses_entries_off_the_matrix_or_out_of_range(
        row: int, col: int, value: float) -> None:
    with pytest.raises(StateError):
        set_projection(Progress(), row, col, value)


def test_counts_stop_at_what_a_person_could_do() -> None:
    busy = replace(Progress(), runs=MAX_COUNT, attempts={"a_output": MAX_COUNT})
    again = check(busy, {"a_output": "1.2"}, D8)
    assert (again.runs, again.attempts["a_output"]) == (MAX_COUNT, MAX_COUNT)
    assert from_json(to_json(again), D8.lesson) == again

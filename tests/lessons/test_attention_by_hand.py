"""Every number lesson 8.2 shows, as the package prints it and as numpy computes it."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_lessons import (
    LESSONS,
    Progress,
    choose_scale,
    explore_update,
    explore_view,
    explore_work,
    fixed_view,
    grade,
    lock_prediction,
    lock_reading,
    open_hint,
    parse_fixture,
    progress_view,
    truth,
    work,
)
from attention_lessons.engine import Explore, Fixture, decimals, exact, move
from attention_lessons.lessons.attention_by_hand import unscaled
from attention_lessons.progress import check
from course_work import announced
from explored import assert_printed_head, explored, moves, vectors
from notebooks import code_cells, load, run_cells
from oracles import LessonOracle, own_fixture, rows
from strategies import assert_close, assert_head, moved_to, numpy_attention, plane_places
from wheels import unpack_wheel

LESSON = LESSONS["8-2"]
FIXTURE = own_fixture(LESSON)
L82 = work(LESSON, FIXTURE)
HEAD = L82.heads[0]
ORACLE = numpy_attention(FIXTURE.query, FIXTURE.keys, FIXTURE.values)
VIEW = fixed_view(L82).heads[0]
RIGHT = {"score_3": "1", "scaled_1": "1.4142", "weight_1": "0.6090", "weight_3": "0.3003",
         "output_1": "1.1740", "output_2": "0.7643"}


def oracle(fixture: Fixture) -> LessonOracle:
    """8.2 by numpy: one head over both coordinates, its output marked on the plane."""
    head = numpy_attention(fixture.query, fixture.keys, fixture.values)
    return LessonOracle(weights=(rows(head["weights"]),), outputs=(rows(head["output"]),),
                        reference=None, marks={"output_single": tuple(head["output"])},
                        values=np.asarray(fixture.values, dtype=np.float64))


def test_the_head_matches_numpy_to_full_precision() -> None:
    assert_close(HEAD.scale, 1 / np.sqrt(2))
    assert_head(HEAD, ORACLE)


def test_the_step_table_prints_each_step() -> None:
    assert [(s.label, s.value) for s in VIEW.steps] == [
        ("scores, query times key", "2, -1, 1, -3"),
        ("scaled by 1 over the square root of 2", "1.4142, -0.7071, 0.7071, -2.1213"),
        ("exponentials", "4.1133, 0.4931, 2.0281, 0.1199"),
        ("their sum", "6.7543"),
        ("weights", "0.6090, 0.0730, 0.3003, 0.0177"),
        ("output, weights against values", "1.1740, 0.7643"),
    ]
    printed = [s.value for s in VIEW.steps]
    assert printed[1] == ", ".join(decimals(x) for x in ORACLE["scaled"])
    assert printed[4] == ", ".join(decimals(x) for x in ORACLE["weights"])
    assert printed[5] == ", ".join(decimals(x) for x in ORACLE["output"])


def test_the_scale_is_printed_as_one_over_the_square_root_of_two() -> None:
    assert VIEW.scale == f"scale 1 / sqrt(2) = {decimals(1 / np.sqrt(2))}" == \
        "scale 1 / sqrt(2) = 0.7071"


def test_bars_key_table_intro_and_summary() -> None:
    assert [(b.key, b.weight) for b in VIEW.bars] == [
        ("key 1", "0.6090"), ("key 2", "0.0730"), ("key 3", "0.3003"), ("key 4", "0.0177")]
    assert_close([b.share for b in VIEW.bars], ORACLE["weights"])
    assert [(r.key, r.key_value, r.value, r.score, r.weight) for r in VIEW.keys] == [
        ("1", "1, 0", "1, 0", "2", "0.6090"), ("2", "0, 1", "0, 2", "-1", "0.0730"),
        ("3", "1, 1", "2, 2", "1", "0.3003"), ("4", "-1, 1", "-2, 1", "-3", "0.0177")]
    assert VIEW.intro == ("Query [2, -1], keys [1, 0], [0, 1], [1, 1], [-1, 1], values [1, 0], "
                          "[0, 2], [2, 2], [-2, 1].")
    assert VIEW.summary == ("The head reads both coordinates: query [2, -1] against 4 keys. "
                            "The largest weight is 0.6090 on key 1. The output is 1.1740, 0.7643.")
    assert VIEW.figure_text == ("Weights of the head: key 1, 0.6090; key 2, 0.0730; key 3, "
                                "0.3003; key 4, 0.0177.")


def test_the_six_truths_are_the_numpy_numbers() -> None:
    expected = [ORACLE["scores"][2], ORACLE["scaled"][0], ORACLE["weights"][0],
                ORACLE["weights"][2], ORACLE["output"][0], ORACLE["output"][1]]
    assert_close([truth(q, L82) for q in LESSON.questions], expected)
    assert [exact(truth(q, L82)) for q in LESSON.questions] == [
        "1", "1.4142", "0.6090", "0.3003", "1.1740", "0.7643"]


def _feedback(qid: str, typed: float) -> str:
    question = next(q for q in LESSON.questions if q.id == qid)
    return grade(question, typed, L82).message


def test_named_slips_are_computed_from_the_numbers() -> None:
    flat_weights, flat_output = unscaled(HEAD)
    raw = np.exp(ORACLE["scores"]) / np.exp(ORACLE["scores"]).sum()
    assert_close(flat_weights, raw)
    assert_close(flat_output, raw @ np.asarray(FIXTURE.values))
    assert "score before scaling" in _feedback("scaled_1", 2)
    assert "multiplied by the square root of 2" in _feedback("scaled_1", 2.8284)
    assert "divided by 2, the dimension" in _feedback("scaled_1", 1.0)
    assert "scaled score. The score comes before" in _feedback("score_3", 0.7071)
    assert "without the scale" in _feedback("weight_1", float(raw[0]))
    assert "without the scale" in _feedback("output_1", float(flat_output[0]))
    assert "entry 2, not entry 1" in _feedback("output_1", 0.7643)
    assert "plain average" in _feedback("output_2", 1.25)
    assert _feedback("weight_3", 0.3003) == "Within 0.02 of 0.3003, computed here."


def test_compare_derives_the_right_prediction_from_the_weights() -> None:
    locked = lock_prediction(Progress(), LESSON, "key_1")
    assert progress_view(locked, L82).compare == (
        "You predicted: Key 1. The largest weight is 0.6090 on key 1. The numbers bear your "
        "prediction out.")
    wrong = lock_prediction(Progress(), LESSON, "even")
    assert progress_view(wrong, L82).compare.endswith("So the numbers say: Key 1.")


def test_an_even_or_tied_fixture_is_told_honestly() -> None:
    even = work(LESSON, parse_fixture('{"query": [0, 0], "keys": [[1, 0], [0, 1], [1, 1], '
                                      '[-1, 1]], "values": [[1, 2], [3, 4], [5, 6], [7, 8]]}'))
    assert LESSON.fitting_prediction(even) == "even"
    tied = work(LESSON, parse_fixture('{"query": [1, 0], "keys": [[1, 0], [1, 1], [0, 1], '
                                      '[-1, 1]], "values": [[1, 2], [3, 4], [5, 6], [7, 8]]}'))
    assert LESSON.fitting_prediction(tied) is None
    view = progress_view(lock_prediction(Progress(), LESSON, "key_1"), tied)
    assert "is shared by keys 1 and 2" in view.compare
    assert view.compare.endswith("None of the five predictions describes that exactly.")


def test_reading_feedback_quotes_numbers_from_the_head() -> None:
    feedback = {c.id: LESSON.reading_feedback(c.id, L82) for c in LESSON.readings}
    assert feedback["dimension"].startswith("Right.")
    assert "key 1's scaled score would be 1.0000, not 1.4142" in feedback["keys"]
    flat_weights, _ = unscaled(HEAD)
    assert f"key 1 would take {decimals(flat_weights[0])}, not 0.6090" in feedback["sum"]
    assert "add up to 1.0000" in feedback["sum"]
    assert "so its scale is 0.7071" in feedback["constant"]


def test_the_whole_lesson_from_prediction_to_gate_with_hints() -> None:
    progress = lock_prediction(Progress(), LESSON, "key_3", "key 3 points the query's way")
    for value in ("9", "8", "7"):
        progress = check(progress, {"output_2": value}, L82)
    progress = open_hint(progress, LESSON, 1)
    hints = progress_view(progress, L82).hints
    assert hints[0].text == ("Key 1 scores 2 and key 3 scores 1. What does multiplying each by "
                             "1 over the square root of 2 give, and what is e raised to each of "
                             "those?")
    for value in ("6", "5"):
        progress = check(progress, {"output_2": value}, L82)
    hints = progress_view(open_hint(progress, LESSON, 2), L82).hints
    assert hints[1].text == (
        "The score for key 3: 1. The scaled score for key 1: 1.4142. The weight on key 1: 0.6090. "
        "The weight on key 3: 0.3003. The output, first entry: 1.1740. The output, second entry: "
        "0.7643. The exponentials add up to 6.7543, and each weight is one exponential divided "
        "by that sum.")
    before = lock_reading(progress, "dimension", LESSON)
    after = check(before, RIGHT, L82)
    assert announced(before, after, L82) == (
        "Checked. 6 of 6 within tolerance. You have run it 6 times. Your check is met.")
    gate = progress_view(after, L82).gate
    assert (gate.met, gate.status) == (True, "6 of 6 numbers within tolerance, 5 needed. The "
                                             "right reading is locked in.")


@pytest.mark.parametrize("reading", ["keys", "sum", "constant"])
def test_a_wrong_reading_may_be_locked_again(reading: str) -> None:
    wrong = lock_reading(check(Progress(), RIGHT, L82), reading, LESSON)
    assert not progress_view(wrong, L82).gate.met
    assert progress_view(lock_reading(wrong, "dimension", LESSON), L82).gate.met


def test_points_at_one_place_on_the_plane_share_one_label_that_names_them_all() -> None:
    explore = move(move(Explore(), FIXTURE, "key_3", 1, 0), FIXTURE, "key_2", -2.5, -2.5)
    labels = explore_view(LESSON, FIXTURE, explore).plane.labels
    assert labels["value_1"].text == "value 1 and keys 1 and 3"  # value 1 is at [1, 0] too
    assert labels["key_1"].text == labels["key_3"].text == ""
    assert labels["key_2"].text == "key 2"


@given(data=st.data())
def test_explores_readout_says_nothing_beside_the_plane_wherever_the_points_are(
        data: st.DataObject) -> None:
    explore = moved_to(FIXTURE, data.draw(plane_places(FIXTURE)))
    assert explore_view(LESSON, FIXTURE, explore).readout.note == ""


def test_the_notebook_prints_the_lessons_numbers() -> None:
    outputs = run_cells(code_cells(load("8-2.ipynb")), unpack_wheel())
    printed = "".join(outputs)
    assert "single head (scale 1/sqrt(2) = 0.7071)" in printed
    assert "weights                                 0.6090, 0.0730, 0.3003, 0.0177" in printed
    assert "output, weights against values          1.1740, 0.7643" in printed
    assert "sum of the weights 1.0000" in printed


# Explore's scale experiment: the weights follow the scale, and the wrong readings point to it.
@pytest.mark.parametrize(("choice", "root"), [("own", 2), ("one", 1), ("four", 4)])
def test_the_scale_moves_the_weights_as_numpy_says(choice: str, root: int) -> None:
    worked = explore_work(LESSON, FIXTURE, choose_scale(Explore(), LESSON, choice))
    scale = 1 / math.sqrt(root)
    weights = np.exp(np.asarray(FIXTURE.keys) @ np.asarray(FIXTURE.query) * scale)
    np.testing.assert_allclose(worked.heads[0].weights, weights / weights.sum(), rtol=1e-12)
    label = explore_view(LESSON, FIXTURE, choose_scale(Explore(), LESSON, choice)).heads[0].steps[1]
    assert label.label == f"scaled by 1 over the square root of {root}"


def test_the_weights_sharpen_as_the_scale_grows() -> None:
    top = [max(explore_work(LESSON, FIXTURE, choose_scale(Explore(), LESSON, c)).heads[0].weights)
           for c in ("four", "own", "one")]
    assert top == sorted(top)
    assert top[0] < top[2]


def test_wrong_readings_point_to_the_scale_experiment() -> None:
    for reading in ("sum", "constant"):
        assert "Try it in Explore: set the scale to 1" in LESSON.reading_feedback(
            reading, explore_work(LESSON, FIXTURE, Explore()))


def test_key_1_at_1_0_opens_its_tip_above_the_handle_centred() -> None:
    update = explore_update(explore_view(LESSON, FIXTURE, move(Explore(), FIXTURE, "query", 3, 3)))
    assert update.attributes["explore_key_1_handle"] == {"data-tip": "middle above"}  # [1, 0]


# Explore, every explored step of the head against numpy.
@given(moves(FIXTURE))
def test_the_explored_single_head_is_numpys(moved: list[tuple[str, float, float]]) -> None:
    explore = explored(FIXTURE, moved)
    q, k, v = vectors(FIXTURE, explore)
    (head,) = explore_view(LESSON, FIXTURE, explore).heads
    assert_printed_head(head, numpy_attention(q, k, v), 2)


def test_the_fixture_loads_as_floats() -> None:
    fixture = own_fixture(LESSON)
    assert fixture == Fixture("8.2 attention fixture", {
        "query": (2.0, -1.0),
        "keys": ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0), (-1.0, 1.0)),
        "values": ((1.0, 0.0), (0.0, 2.0), (2.0, 2.0), (-2.0, 1.0)),
    })
    assert fixture.dimension == 2
    assert all(isinstance(x, float) for row in fixture.keys for x in row)

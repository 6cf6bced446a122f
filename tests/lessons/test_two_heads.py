"""Every number the D8 spec prints, as the package prints it and as numpy computes it."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from hypothesis import given

from attention_lessons import (
    LESSONS,
    Progress,
    choose_scale,
    compute,
    explore_view,
    explore_work,
    fixed_view,
    grade,
    parse_fixture,
    progress_view,
    show_full_precision,
    truth,
    work,
)
from attention_lessons.engine import (
    COARSE,
    EDGE,
    Explore,
    Fixture,
    FixtureError,
    PresetSearches,
    StateError,
    at_preset,
    go_to_preset,
    listing,
    move,
)
from attention_lessons.engine.explore import explored_fixture
from attention_lessons.views import move_announcement, pattern
from explored import Ticks, assert_printed, assert_printed_head, explored, moves, vectors
from notebooks import code_cells, load, run_cells
from oracles import LessonOracle, own_fixture, rows
from strategies import assert_close, assert_head, numpy_attention, numpy_heads
from wheels import unpack_wheel

LESSON = LESSONS["d8"]
FIXTURE = own_fixture(LESSON)
D8 = work(LESSON, FIXTURE)
QUESTIONS = LESSON.questions
ORACLE_A, ORACLE_B = numpy_heads(FIXTURE.query, FIXTURE.keys, FIXTURE.values, [0, 1, 2])
ORACLE_SINGLE = numpy_attention(FIXTURE.query, FIXTURE.keys, FIXTURE.values)
VIEW = fixed_view(D8)
START = progress_view(Progress(), D8)
# D8 has all three: the single head from 8.2, the comparison table and the output projection.
assert D8.single is not None
assert D8.differences is not None
assert VIEW.comparison is not None
assert START.projection is not None
SINGLE, DIFFERENCES, COMPARISON, PROJECTION = (
    D8.single, D8.differences, VIEW.comparison, START.projection)

# The spec's step tables, row by row, exactly as printed.
STEPS = {
    "a": [
        ("scores, query times key", "2, 0, 2, -2"),
        ("scaled by 1 over the square root of 1", "2, 0, 2, -2"),
        ("exponentials", "7.3891, 1.0000, 7.3891, 0.1353"),
        ("their sum", "15.9134"),
        ("weights", "0.4643, 0.0628, 0.4643, 0.0085"),
        ("output, weights against values", "1.3760"),
    ],
    "b": [
        ("scores, query times key", "0, -1, -1, -1"),
        ("scaled by 1 over the square root of 1", "0, -1, -1, -1"),
        ("exponentials", "1.0000, 0.3679, 0.3679, 0.3679"),
        ("their sum", "2.1036"),
        ("weights", "0.4754, 0.1749, 0.1749, 0.1749"),
        ("output, weights against values", "0.8744"),
    ],
}
# "Show this head's numbers": key, key value, value, score, weight.
KEY_ROWS = {
    "a": [("1", "1", "1", "2", "0.4643"), ("2", "0", "0", "0", "0.0628"),
          ("3", "1", "2", "2", "0.4643"), ("4", "-1", "-2", "-2", "0.0085")],
    "b": [("1", "0", "0", "0", "0.4754"), ("2", "1", "2", "-1", "0.1749"),
          ("3", "1", "2", "-1", "0.1749"), ("4", "1", "1", "-1", "0.1749")],
}
INTROS = {"a": "Query 2, keys [1, 0, 1, -1], values [1, 0, 2, -2].",
          "b": "Query -1, keys [0, 1, 1, 1], values [0, 2, 2, 1]."}


def oracle(fixture: Fixture) -> LessonOracle:
    """D8 by numpy: one head per coordinate, each marked on the axis it reads, the two
    concatenated, and 8.2's single head beside them; the readout prints how far apart they are."""
    heads = numpy_heads(fixture.query, fixture.keys, fixture.values, [0, 1, 2])
    single = numpy_attention(fixture.query, fixture.keys, fixture.values)["output"]
    a, b = (h["output"] for h in heads)
    (x,), (y,) = a, b
    return LessonOracle(
        weights=tuple(rows(h["weights"]) for h in heads),
        outputs=tuple(rows(h["output"]) for h in heads), reference=single,
        marks={"output_a": (x, 0.0), "output_b": (0.0, y), "concatenated": (x, y),
               "reference": tuple(single)},
        values=np.asarray(fixture.values, dtype=np.float64),
        gaps=np.concatenate([a, b]) - single)


def test_head_a_matches_numpy_to_full_precision() -> None:
    a = D8.heads[0]
    assert_close(a.scores, [2, 0, 2, -2])
    assert_head(a, ORACLE_A)


def test_head_b_matches_numpy_to_full_precision() -> None:
    b = D8.heads[1]
    assert_close(b.scores, [0, -1, -1, -1])
    assert_head(b, ORACLE_B)


def test_both_heads_use_scale_exactly_one_and_print_it() -> None:
    assert [h.scale for h in D8.heads] == [1.0, 1.0]
    assert [h.scale for h in VIEW.heads] == ["scale 1 / sqrt(1) = 1"] * 2
    assert SINGLE.scale == pytest.approx(1 / np.sqrt(2), rel=1e-15)


@pytest.mark.parametrize("index", [0, 1], ids=["a", "b"])
def test_step_table_is_printed_as_the_spec_prints_it(index: int) -> None:
    head = VIEW.heads[index]
    assert [(s.label, s.value) for s in head.steps] == STEPS[head.id]


@pytest.mark.parametrize("index", [0, 1], ids=["a", "b"])
def test_bars_and_figure_text_print_the_weights(index: int) -> None:
    head = VIEW.heads[index]
    weights = STEPS[head.id][4][1].split(", ")
    assert [(b.key, b.weight) for b in head.bars] == [
        (f"key {i}", w) for i, w in enumerate(weights, 1)]
    assert_close([b.share for b in head.bars], (ORACLE_A, ORACLE_B)[index]["weights"])
    assert head.figure_text == f"Weights of head {head.id.upper()}: " + "; ".join(
        f"key {i}, {w}" for i, w in enumerate(weights, 1)) + "."


@pytest.mark.parametrize("index", [0, 1], ids=["a", "b"])
def test_per_key_table_and_intro(index: int) -> None:
    head = VIEW.heads[index]
    assert [(r.key, r.key_value, r.value, r.score, r.weight) for r in head.keys] == \
        KEY_ROWS[head.id]
    assert head.intro == INTROS[head.id]


def test_head_b_summary_is_word_for_word_the_spec() -> None:
    assert VIEW.heads[1].summary == (
        "head B reads coordinate 2 only: query -1, keys 0, 1, 1, 1, values 0, 2, 2, 1. "
        "The largest weight is 0.4754 on key 1. The output is 0.8744.")


def test_head_a_summary_does_not_pretend_key_1_beat_key_3() -> None:
    # Deliberate deviation: the spec says "The largest weight is 0.4643 on key 1." but keys 1
    # and 3 tie exactly, and the design forbids prose that names one winner of a tie.
    a = D8.heads[0]
    assert a.weights[0] == a.weights[2]
    assert VIEW.heads[0].summary == (
        "head A reads coordinate 1 only: query 2, keys 1, 0, 1, -1, values 1, 0, 2, -2. "
        "The largest weight, 0.4643, is shared by keys 1 and 3. The output is 1.3760.")


def test_single_head_and_concatenation_match_numpy() -> None:
    assert_close(SINGLE.output, ORACLE_SINGLE["output"])
    assert_close(D8.concatenated, [ORACLE_A["output"][0], ORACLE_B["output"][0]])
    assert_close(DIFFERENCES, np.array(D8.concatenated) - ORACLE_SINGLE["output"])


def test_comparison_table_is_the_spec_table() -> None:
    assert COMPARISON.concatenated == ("1.3760", "0.8744")
    assert COMPARISON.single == ("1.1740", "0.7643")
    assert COMPARISON.differences == ("0.2019", "0.1101")


def test_differences_come_from_full_precision_not_the_printed_numbers() -> None:
    # 1.3760 - 1.1740 would print 0.2020; 1.37597... - 1.17403... prints the spec's 0.2019.
    assert f"{1.3760 - 1.1740:.4f}" == "0.2020"
    assert DIFFERENCES[0] == pytest.approx(0.20194827, abs=1e-8)


def test_projection_at_identity_as_the_spec_prints_it() -> None:
    projection = PROJECTION
    assert projection.badge == "identity"
    assert projection.before == ("1.3760", "0.8744")
    assert projection.after == ("1.3760", "0.8744")
    assert projection.sentence == ("The concatenated heads are 1.3760 and 0.8744. Through this "
                                   "projection they come out as 1.3760 and 0.8744.")


def test_the_page_at_the_start_reads_as_the_spec() -> None:
    assert START.gate.status == ("0 of 6 numbers within tolerance, 5 needed. "
                                 "No reading locked in yet.")
    assert (START.gate.badge, START.gate.met) == ("not yet", False)
    assert START.gate.headline == "Not met yet. Keep working the session."
    assert START.runs == "You have run it 0 times."
    assert [h.status for h in START.hints] == [
        "A question: available after 3 evaluated runs.",
        "The answer: available after 5 evaluated runs.",
    ]
    assert [q.attempts for q in START.questions] == ["Attempts: 0"] * 6
    assert START.compare == ""


def test_the_six_questions_are_the_spec_labels() -> None:
    assert [q.label for q in QUESTIONS] == [
        "Head A, the score for key 1", "Head A, the weight on key 1", "Head A, the output",
        "Head B, the score for key 2", "Head B, the weight on key 1", "Head B, the output"]


def test_truths_are_the_numpy_numbers_the_questions_ask_for() -> None:
    expected = [ORACLE_A["scores"][0], ORACLE_A["weights"][0], ORACLE_A["output"][0],
                ORACLE_B["scores"][1], ORACLE_B["weights"][0], ORACLE_B["output"][0]]
    assert_close([truth(q, D8) for q in QUESTIONS], expected)
    assert [truth(q, D8) for q in QUESTIONS][::3] == [2.0, -1.0]


def test_compute_refuses_anything_but_two_dimensions() -> None:
    one = parse_fixture('{"query": [1], "keys": [[1]], "values": [[1]]}')
    with pytest.raises(FixtureError, match=r"^query: D8 needs vectors of dimension 2, got 1$"):
        compute(one)


def test_two_heads_are_told_apart_on_the_plane_by_pattern_and_lie_side_by_side() -> None:
    view = explore_view(LESSON, FIXTURE, Explore())
    assert [pattern(h)[0] for h in range(2)] == ["solid", "dashed"]
    assert pattern(0)[1] == ""
    assert pattern(1)[1]  # a dashed line has its dasharray
    a, b = (next(x for x in view.plane.lines if x.id == f"weight_{h}_1") for h in "ab")
    assert np.hypot(a.x1 - b.x1, a.y1 - b.y1) == pytest.approx(4.0, abs=0.02)  # APART, rounded


def test_the_notebook_prints_the_lessons_numbers() -> None:
    numbers = D8
    outputs = run_cells(code_cells(load("d8.ipynb")), unpack_wheel())
    printed = "".join(outputs)
    for name, head in zip("AB", numbers.heads, strict=True):
        assert f"head {name}, coordinate" in printed
        assert f"weights                                 {listing(head.weights)}" in printed
    assert f"concatenated heads {listing(numbers.concatenated)}" in printed
    assert "concatenated heads 1.3760, 0.8744" in printed
    assert "single head        1.1740, 0.7643" in printed
    assert "difference         0.2019, 0.1101" in printed
    assert "scaled by 1 over the square root of 1   2, 0, 2, -2" in printed
    # The cell whose query the learner changes names each head's weights.
    assert f"head B weights {listing(numbers.heads[1].weights)}" in printed


# The plane on the preset search's coarse grid: a found preset is at least as good as all of it.
GRID = [(x, y) for x in np.arange(-EDGE, EDGE + 1e-9, COARSE)
        for y in np.arange(-EDGE, EDGE + 1e-9, COARSE)]


def at_preset_by_numpy(preset: str) -> LessonOracle:
    """D8 by numpy where the preset puts the points."""
    explore = go_to_preset(LESSON, FIXTURE, preset)
    assert explore.preset == preset
    return oracle(explored_fixture(FIXTURE, explore))


def gap(found: LessonOracle) -> float:
    """How far the two heads land from the single head."""
    assert found.gaps is not None
    return float(np.abs(found.gaps).max())


def test_the_closest_preset_brings_the_two_heads_nearest_the_single_head() -> None:
    assert gap(at_preset_by_numpy("closest")) < 1e-9  # even weights in every head, so no gap


def test_the_furthest_preset_sets_them_furthest_apart() -> None:
    widest = gap(at_preset_by_numpy("furthest"))
    queried = [gap(oracle(FIXTURE.with_inputs("grid", query=at))) for at in GRID]
    assert widest >= max(queried) - 1e-12
    assert widest > gap(oracle(FIXTURE))


def test_the_tie_preset_has_two_keys_share_head_as_largest_weight() -> None:
    a = at_preset_by_numpy("tie").weights[0].ravel()
    first, second, third = np.sort(a)[::-1][:3]
    assert first - second < 1e-12
    assert second - third > 0.1


def test_each_scale_has_its_own_search_and_a_found_preset_costs_nothing_again() -> None:
    lesson = LESSON
    scales = [c.id for c in lesson.scale_choices()]
    clock = Ticks()
    searches = PresetSearches(lesson, FIXTURE, clock)
    assert searches.next_unfound("") == lesson.presets()[0].id
    found = {}
    for scale in ("", scales[1]):
        explore = searches.advance("furthest", scale, 1e9)
        assert explore is not None  # a slice this long runs the whole search
        found[scale] = explore
    for scale, explore in found.items():
        assert at_preset(Explore(scale=scale), explore, "furthest") == go_to_preset(
            lesson, FIXTURE, "furthest", Explore(scale=scale))
    assert found[""].moved != found[scales[1]].moved  # the scale changes where it lands
    read = clock.now
    assert searches.advance("furthest", "", 0.0) is found[""]
    assert clock.now == read  # kept: no search ran, not even one place
    assert "furthest" not in {searches.next_unfound(""), searches.next_unfound(scales[1])}


# Explore's experiments: each wrong reading's experiment shows what the reading gets wrong.
Q, K, V = (np.array(x, dtype=float) for x in (FIXTURE.query, FIXTURE.keys, FIXTURE.values))


def numpy_head(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float) -> np.ndarray:
    weights = np.exp(k @ q * scale)
    weights /= weights.sum()
    return np.asarray(weights @ v)


def test_with_the_single_heads_scale_the_two_heads_still_differ_from_it() -> None:
    explore = choose_scale(Explore(), LESSON, "single")
    worked = explore_work(LESSON, FIXTURE, explore)
    assert [h.scale for h in worked.heads] == [1 / math.sqrt(2)] * 2
    both = np.concatenate([numpy_head(Q[i:i + 1], K[:, i:i + 1], V[:, i:i + 1], 1 / math.sqrt(2))
                           for i in (0, 1)])
    single = numpy_attention(Q, K, V)["output"]
    np.testing.assert_allclose(worked.concatenated, both, rtol=1e-12)
    assert worked.differences is not None
    np.testing.assert_allclose(worked.differences, both - single, rtol=1e-12, atol=1e-15)
    assert np.abs(both - single).min() > 0.05  # still apart: the scale is not why they differ
    view = explore_view(LESSON, FIXTURE, explore)
    assert view.heads[0].scale == "scale 1 / sqrt(2) = 0.7071"
    assert view.heads[0].steps[1].label == "scaled by 1 over the square root of 2"


def test_full_precision_shows_the_gap_is_about_a_fifth_not_rounding() -> None:
    text = explore_view(LESSON, FIXTURE, show_full_precision(Explore(), True)).full_precision
    gaps = [float(x) for x in re.findall(r"-?\d+\.\d{6,}", text.split("differences are")[1])]
    a = numpy_head(Q[:1], K[:, :1], V[:, :1], 1.0)
    b = numpy_head(Q[1:], K[:, 1:], V[:, 1:], 1.0)
    oracle = np.concatenate([a, b]) - numpy_attention(Q, K, V)["output"]
    np.testing.assert_allclose(gaps, oracle, rtol=1e-12)
    assert 0.19 < gaps[0] < 0.21
    assert explore_view(LESSON, FIXTURE, Explore()).full_precision == ""


def test_wrong_readings_point_to_the_experiment_that_answers_them() -> None:
    worked = explore_work(LESSON, FIXTURE, Explore())
    assert LESSON.reading_feedback("scale", worked).endswith(
        "Try it in Explore: give every head the single head's scale.")
    assert LESSON.reading_feedback("rounding", worked).endswith("show full precision.")


def test_a_scale_another_lesson_offers_is_refused_here() -> None:
    with pytest.raises(StateError):
        choose_scale(Explore(), LESSON, "four")  # 8.2's, not this lesson's


# Explore, every explored step of both heads, the single head and the gaps against numpy.
@given(moves(FIXTURE))
def test_the_explored_two_heads_single_head_and_differences_are_numpys(
        moved: list[tuple[str, float, float]]) -> None:
    explore = explored(FIXTURE, moved)
    q, k, v = vectors(FIXTURE, explore)
    view = explore_view(LESSON, FIXTURE, explore)
    oracle_a, oracle_b = numpy_heads(q, k, v, [0, 1, 2])
    single = numpy_attention(q, k, v)
    assert_printed_head(view.heads[0], oracle_a, 1)
    assert_printed_head(view.heads[1], oracle_b, 1)
    concatenated = np.concatenate([oracle_a["output"], oracle_b["output"]])
    assert view.comparison is not None
    assert_printed(" ".join(view.comparison.concatenated), concatenated)
    assert_printed(" ".join(view.comparison.single), single["output"])
    # Differences come from full precision, not from the rounded entries above.
    assert_printed(" ".join(view.comparison.differences), concatenated - single["output"])


def test_the_bears_out_line_follows_numpys_gap() -> None:
    for at in ((0.0, 0.0), (2.0, -1.0), (0.3, 0.3)):
        explore = move(Explore(), FIXTURE, "query", *at)
        q, k, v = vectors(FIXTURE, explore)
        a, b = numpy_heads(q, k, v, [0, 1, 2])
        gaps = np.abs(np.concatenate([a["output"], b["output"]])
                      - numpy_attention(q, k, v)["output"])
        line = explore_view(LESSON, FIXTURE, explore).bears_out
        if gaps.max() < 0.5e-4:
            assert line.endswith("The same two numbers.")
        elif gaps.min() > 0.1:
            assert line.endswith("Clearly different, by more than 0.1.")


def test_the_plane_names_what_each_axis_is_and_every_keys_value() -> None:
    view = explore_view(LESSON, FIXTURE, Explore())
    assert view.plane.axes == ("coordinate 1, which head A reads",
                               "coordinate 2, which head B reads")
    assert [p.name for p in view.plane.points] == ["query", "key 1", "key 2", "key 3", "key 4"]
    assert "Key 2 is at 0.0, 1.0, value [0, 2]." in view.plane.text
    assert view.vectors.startswith("These are explored vectors, not the fixture")


def test_the_announcement_names_the_point_each_heads_top_weight_and_the_verdict() -> None:
    view = explore_view(LESSON, FIXTURE, move(Explore(), FIXTURE, "query", 2, -1))
    said = move_announcement(LESSON, view, "query")
    assert said.startswith("Query at 2.0, \N{MINUS SIGN}1.0. In head A: The largest weight, "
                           "0.4643, is shared by keys 1 and 3. In head B:")
    assert said.endswith(view.bears_out)


def test_a_number_two_slips_share_names_both() -> None:
    # D8's key 1 has coordinate 1 and value 1: a score of 1 is either slip.
    d8 = D8
    score = next(q for q in d8.lesson.questions if q.id == "a_score_1")
    assert grade(score, 1.0, d8).message == (
        "Not within 0.02. That is key 1's own coordinate, not its score. Multiply it by the "
        "query. Or: That is key 1's value. The score uses the key, not the value.")

"""Every number lesson 8.4 shows, as the package prints it and as numpy computes it, every named
slip as numpy computes that wrong method, and Explore moving its tokens."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings

from attention_lessons import (
    LESSONS,
    Progress,
    explore_update,
    explore_view,
    fixed_view,
    grade,
    lock_prediction,
    lock_reading,
    progress_view,
    truth,
    work,
)
from attention_lessons.engine import (
    Explore,
    Fixture,
    decimals,
    exact,
    explored_fixture,
    move,
    vector,
)
from attention_lessons.progress import check
from course_work import announced
from explored import HALF_LAST_DIGIT, Moves, explored, moves, printed, row
from oracles import LessonOracle, own_fixture, rows
from strategies import Array

LESSON = LESSONS["8-4"]
FIXTURE = own_fixture(LESSON)
L84 = work(LESSON, FIXTURE)
RIGHT = {"query_4": "-2", "scaled_4_3": "2.1213", "total_4": "9.1374", "weight_3_4": "0.5052",
         "weight_1_2": "0.8457", "output_3": "0.1194"}


def numpy_self_attention(fixture: Fixture, scale: float | None = None, flip: bool = False,
                         axis: int = 1, project: bool = True) -> dict[str, Array]:
    """Self-attention the textbook way: Q = X W_Qᵀ, K = X W_Kᵀ, V = X W_Vᵀ, a softmax of
    Q Kᵀ / sqrt(d) along each row. The slips: W transposed (flip), the softmax down each column
    (axis 0), the tokens unprojected (project False), another scale."""
    x = np.asarray(fixture.matrix("tokens"), dtype=np.float64)
    w = {name: np.asarray(fixture.matrix(name), dtype=np.float64)
         for name in ("w_q", "w_k", "w_v")}
    if flip:
        w = {name: m.T for name, m in w.items()}
    q, k, v = ((x @ w[n].T) if project else x for n in ("w_q", "w_k", "w_v"))
    scores = q @ k.T
    scaled = scores * (1 / np.sqrt(q.shape[1]) if scale is None else scale)
    shifted = np.exp(scaled - scaled.max(axis=axis, keepdims=True))
    weights = shifted / shifted.sum(axis=axis, keepdims=True)
    return {"queries": q, "keys": k, "values": v, "scores": scores, "scaled": scaled,
            "exps": np.exp(scaled), "weights": weights, "outputs": weights @ v}


def oracle(fixture: Fixture) -> LessonOracle:
    """8.4 by numpy: one row of weights for each token that asks, its lines from its token to
    every token; the plane draws no value and marks no output (they are not the tokens')."""
    worked = numpy_self_attention(fixture)
    tokens = np.asarray(fixture.matrix("tokens"), dtype=np.float64)
    return LessonOracle(weights=tuple(rows(r) for r in worked["weights"]),
                        outputs=tuple(rows(o) for o in worked["outputs"]), reference=None,
                        marks={}, values=np.empty((0, 2)), starts=tokens, ends=tokens)


ORACLE = numpy_self_attention(FIXTURE)


def projected_place(x: float, y: float) -> Array:
    """Where the projected space (from -9 to 9, in a 300-unit viewBox) draws (x, y), held to
    its edge."""
    return np.clip([(x + 9) / 18 * 300, (9 - y) / 18 * 300], 0, 300)


def test_the_projections_and_every_row_match_numpy_to_full_precision() -> None:
    for name in ("queries", "keys", "values"):
        np.testing.assert_allclose(L84.intermediates[name], ORACLE[name], rtol=0, atol=1e-12)
    for i, head in enumerate(L84.heads):
        np.testing.assert_allclose(head.query, ORACLE["queries"][i], atol=1e-12)
        np.testing.assert_allclose(head.scores, ORACLE["scores"][i], atol=1e-12)
        np.testing.assert_allclose(head.scaled, ORACLE["scaled"][i], atol=1e-12)
        np.testing.assert_allclose(head.weights, ORACLE["weights"][i], atol=1e-12)
        np.testing.assert_allclose(head.output, ORACLE["outputs"][i], atol=1e-12)
        assert head.scale == pytest.approx(1 / np.sqrt(2), abs=1e-15)


def test_every_row_adds_up_to_1_and_a_column_need_not() -> None:
    matrix = np.array([head.weights for head in L84.heads])
    np.testing.assert_allclose(matrix.sum(axis=1), 1.0, atol=1e-12)
    assert not np.allclose(matrix.sum(axis=0), 1.0)


def test_the_six_truths_are_numpys_and_print_as_the_page_prints_them() -> None:
    expected = [ORACLE["queries"][3][0], ORACLE["scaled"][3][2], ORACLE["exps"][3].sum(),
                ORACLE["weights"][2][3], ORACLE["weights"][0][1], ORACLE["outputs"][2][1]]
    np.testing.assert_allclose([truth(q, L84) for q in LESSON.questions], expected,
                               atol=1e-12)
    assert {q.id: exact(truth(q, L84)) for q in LESSON.questions} == RIGHT


def _named(question_id: str, typed: float) -> str:
    question = next(q for q in LESSON.questions if q.id == question_id)
    return grade(question, typed, L84).message


FLIPPED = numpy_self_attention(FIXTURE, flip=True)
BY_COLUMN = numpy_self_attention(FIXTURE, axis=0)
UNSCALED = numpy_self_attention(FIXTURE, scale=1.0)
UNPROJECTED = numpy_self_attention(FIXTURE, project=False)


@pytest.mark.parametrize(("question_id", "slipped", "says"), [
    ("query_4", UNPROJECTED["queries"][3][0], "token 4 itself, not its query"),
    ("query_4", FLIPPED["queries"][3][0], "W_Q's transpose"),
    ("scaled_4_3", ORACLE["scores"][3][2], "the score before the scale"),
    ("scaled_4_3", UNPROJECTED["scaled"][3][2], "unprojected"),
    ("total_4", UNSCALED["exps"][3].sum(), "the scale forgotten"),
    ("total_4", UNPROJECTED["exps"][3].sum(), "unprojected"),
    ("total_4", FLIPPED["exps"][3].sum(), "transposed"),
    ("weight_3_4", BY_COLUMN["weights"][2][3], "normalised down column 4"),
    ("weight_3_4", UNSCALED["weights"][2][3], "the scale forgotten"),
    ("weight_3_4", UNPROJECTED["weights"][2][3], "unprojected"),
    ("weight_3_4", FLIPPED["weights"][2][3], "transposed"),
    ("weight_1_2", BY_COLUMN["weights"][0][1], "normalised down column 2"),
    ("weight_1_2", UNSCALED["weights"][0][1], "the scale forgotten"),
    ("weight_1_2", UNPROJECTED["weights"][0][1], "unprojected"),
    ("weight_1_2", FLIPPED["weights"][0][1], "transposed"),
    ("output_3", BY_COLUMN["outputs"][2][1], "normalised down each column"),
    ("output_3", UNSCALED["outputs"][2][1], "the scale forgotten"),
    ("output_3", UNPROJECTED["outputs"][2][1], "unprojected"),
    ("output_3", FLIPPED["outputs"][2][1], "every matrix transposed"),
])
def test_each_wrong_method_numpy_works_is_named(question_id: str, slipped: float,
                                                says: str) -> None:
    assert says in _named(question_id, float(slipped))


def test_each_named_slip_is_the_wrong_method_numpy_works() -> None:
    question = {q.id: q for q in LESSON.questions}
    weight = [s.value for s in question["weight_3_4"].slips(L84)]
    np.testing.assert_allclose(weight, [BY_COLUMN["weights"][2][3], UNSCALED["weights"][2][3],
                                        UNPROJECTED["weights"][2][3], FLIPPED["weights"][2][3]],
                               atol=1e-12)
    output = [s.value for s in question["output_3"].slips(L84)]
    np.testing.assert_allclose(output, [BY_COLUMN["outputs"][2][1], UNSCALED["outputs"][2][1],
                                        UNPROJECTED["outputs"][2][1], FLIPPED["outputs"][2][1]],
                               atol=1e-12)


def test_each_panel_steps_from_its_token_to_its_output() -> None:
    view = fixed_view(L84).heads[2]
    assert [(s.label, s.value) for s in view.steps] == [
        ("token 3", "1, 0"),
        ("its query, W_Q times it", "1, 1"),
        ("every token's key, W_K times it", "0, -1; 1, -2; -1, 1; 1, 0"),
        ("every token's value, W_V times it", "-1, 1; -3, 2; 2, -1; -1, 0"),
        ("scores, its query times each key", "-1, -1, 0, 1"),
        ("scaled by 1 over the square root of 2", "-0.7071, -0.7071, 0, 0.7071"),
        ("exponentials", "0.4931, 0.4931, 1.0000, 2.0281"),
        ("their sum", "4.0143"),
        ("weights", "0.1228, 0.1228, 0.2491, 0.5052"),
        ("output, weights against values", "-0.4983, 0.1194"),
    ]
    assert [b.key for b in view.bars] == ["token 1", "token 2", "token 3", "token 4"]
    assert view.summary == ("Token 3 asks all 4 tokens, itself among them. The largest weight "
                            "is 0.5052 on token 4. The output is -0.4983, 0.1194.")


def test_the_prediction_and_the_reading_come_from_the_numbers() -> None:
    assert LESSON.fitting_prediction(L84) == "token_4"
    wrong = lock_prediction(Progress(), LESSON, "token_3")
    assert progress_view(wrong, L84).compare.endswith("So the numbers say: Token 4.")
    feedback = {c.id: LESSON.reading_feedback(c.id, L84) for c in LESSON.readings}
    assert feedback["matrices"] == (
        "Right. Token 1's query is [1, -2] and its key is [0, -1]: W_Q and W_K turn the same "
        "token different ways, so token 1's score on itself is 2 and on token 2 5, and token 2 "
        "takes 0.8457 of its weight.")
    assert "token 2 gives itself 0.8803" in feedback["itself"]
    assert "add up to 1.0000" in feedback["columns"]


def test_the_whole_lesson_to_the_gate() -> None:
    before = lock_reading(lock_prediction(Progress(), LESSON, "token_4"), "matrices", LESSON)
    after = check(before, RIGHT, L84)
    assert announced(before, after, L84) == (
        "Checked. 6 of 6 within tolerance. You have run it 1 time. Your check is met.")
    assert progress_view(after, L84).gate.met


def test_the_plane_draws_each_rows_lines_from_its_token_and_no_value_or_arrow() -> None:
    plane = explore_view(LESSON, FIXTURE, Explore()).plane
    assert plane.arrow is None
    assert [s.id for s in plane.spots] == []
    centres = {p.id: (p.cx, p.cy) for p in plane.points}
    for line in plane.lines:
        _, _, h, k = line.id.split("_")
        start, end = centres[f"token_{h}"], centres[f"token_{k}"]
        # Drawn beside the straight line between the two tokens, 2 viewBox units to one side.
        assert abs(np.hypot(line.x1 - start[0], line.y1 - start[1]) - (2 if h != k else 0)) \
            < 0.02
        assert abs(np.hypot(line.x2 - end[0], line.y2 - end[1]) - (2 if h != k else 0)) < 0.02
        assert line.width == pytest.approx(
            0 if ORACLE["weights"][int(h) - 1][int(k) - 1] <= 0 else
            round(max(0.75, ORACLE["weights"][int(h) - 1][int(k) - 1] * 9), 2))


def test_two_tokens_lines_to_each_other_lie_side_by_side() -> None:
    plane = explore_view(LESSON, FIXTURE, Explore()).plane
    lines = {line.id: line for line in plane.lines}
    there, back = lines["weight_row_1_4"], lines["weight_row_4_1"]
    assert (there.x1, there.y1) != (back.x2, back.y2)


@settings(max_examples=40, deadline=None)
@given(moves(FIXTURE))
def test_a_moved_token_recomputes_the_heatmap_and_the_text_alternative(moved: Moves) -> None:
    explore = explored(FIXTURE, moved)
    now = numpy_self_attention(explored_fixture(FIXTURE, explore))
    view = explore_view(LESSON, FIXTURE, explore)
    update = explore_update(view)
    for i in range(4):
        for k in range(4):
            cell = f"explore_readout_row_{i + 1}_{k + 1}"
            assert update.texts[cell] == decimals(now["weights"][i][k])
            assert float(update.styles[cell]["--weight"]) == pytest.approx(
                now["weights"][i][k], abs=5e-4)
        np.testing.assert_allclose(printed(view.readout.outputs[i]), now["outputs"][i],
                                   atol=HALF_LAST_DIGIT)
        np.testing.assert_allclose(row(view.heads[i], "weights"), now["weights"][i],
                                   atol=HALF_LAST_DIGIT)
        q, k, v = (now[n][i] for n in ("queries", "keys", "values"))
        said = f"query {vector(q)}, key {vector(k)}, value {vector(v)}."
        assert said in view.plane.text
    for i, head_weights in enumerate(now["weights"], 1):
        listed = "; ".join(f"token {k}, {decimals(w)}" for k, w in enumerate(head_weights, 1))
        assert f"The weights of token {i}'s row: {listed}." in view.plane.text



def test_a_record_keeps_a_moved_token_and_refuses_a_key() -> None:
    from attention_lessons.progress.record import names  # noqa: PLC0415

    assert {"token_1", "token_64"} <= names(LESSON)
    assert "key_1" not in names(LESSON)
    assert "query" not in names(LESSON)
    explore = move(Explore(), FIXTURE, "token_3", 0.5, -2)
    assert explored_fixture(FIXTURE, explore).matrix("tokens")[2] == (0.5, -2.0)


def test_the_cli_moves_a_token_and_prints_numpys_rows_and_projections(
        capsys: pytest.CaptureFixture[str]) -> None:
    from attention_lessons.cli import main  # noqa: PLC0415

    assert main(["8.4", "--move", "token_3=0.9,1", "--json"]) == 0
    printed_json = json.loads(capsys.readouterr().out)
    now = numpy_self_attention(explored_fixture(FIXTURE, move(Explore(), FIXTURE, "token_3",
                                                                 0.9, 1)))
    assert printed_json["inputs"]["tokens"][2] == [0.9, 1.0]
    for name in ("queries", "keys", "values"):
        np.testing.assert_allclose(printed_json["intermediates"][name], now[name], atol=1e-12)
    np.testing.assert_allclose([h["weights"] for h in printed_json["heads"]], now["weights"],
                               atol=1e-12)
    assert main(["8.4"]) == 0
    text = capsys.readouterr().out
    assert "Along the way\n  queries" in text
    assert "weights                                 0.1228, 0.1228, 0.2491, 0.5052" in text


@settings(max_examples=25, deadline=None)
@given(moves(FIXTURE))
def test_the_projected_space_draws_numpys_queries_keys_and_values(moved: Moves) -> None:
    explore = explored(FIXTURE, moved)
    now = numpy_self_attention(explored_fixture(FIXTURE, explore))
    (space,) = explore_view(LESSON, FIXTURE, explore).plane.spaces
    marks = {mark.id: (mark.cx, mark.cy) for mark in space.marks}
    for noun, name in (("query", "queries"), ("key", "keys"), ("value", "values")):
        for i, (x, y) in enumerate(now[name], 1):
            np.testing.assert_allclose(marks[f"{noun[0]}_{i}"], projected_place(x, y), atol=1e-9)
            said = f"token {i}'s {noun} at {exact(float(x))}, {exact(float(y))}"
            assert said in space.text
    named = " and ".join(label.text for label in space.labels.values() if label.text)
    assert sorted(re.findall(r"[qkv]\d", named)) == sorted(m.replace("_", "") for m in marks)
    assert explore_view(LESSON, FIXTURE, explore, whole=False).plane.spaces == ()

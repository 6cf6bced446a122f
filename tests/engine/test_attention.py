"""Attention against a numpy oracle, plus the properties softmax and heads must keep."""

from __future__ import annotations

import copy
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_lessons import attend, softmax, split_heads
from attention_lessons.engine import concat, dot, project
from strategies import (
    Vectors,
    assert_close,
    bounds,
    elements,
    fixtures,
    numpy_attention,
    numpy_heads,
)

float_heavy = settings(max_examples=150, deadline=None)


@float_heavy
@given(fixtures())
def test_one_head_matches_numpy_step_by_step(fixture: Vectors) -> None:
    query, keys, values = fixture
    head = attend(query, keys, values)
    oracle = numpy_attention(query, keys, values)
    assert_close(head.scores, oracle["scores"])
    assert_close(head.scaled, oracle["scaled"])
    assert_close(head.weights, oracle["weights"])
    assert_close(head.output, oracle["output"])
    assert_close(head.scale, 1 / np.sqrt(len(query)))


@float_heavy
@given(fixtures())
def test_exponentials_and_their_sum_match_numpy(fixture: Vectors) -> None:
    query, keys, values = fixture
    head = attend(query, keys, values)
    # Bounded inputs keep e**scaled far from overflow, so numpy's plain exp is a fair oracle.
    exps = np.exp(numpy_attention(query, keys, values)["scaled"])
    assert_close(head.exps, exps)
    assert_close(head.total, exps.sum())
    assert_close(np.array(head.exps) / head.total, head.weights)


@float_heavy
@given(fixtures())
def test_weights_are_non_negative_and_sum_to_one(fixture: Vectors) -> None:
    head = attend(*fixture)
    assert all(w >= 0 for w in head.weights)
    assert math.fsum(head.weights) == pytest.approx(1.0, abs=1e-12)
    assert len(head.weights) == len(fixture[1])


@settings(max_examples=60)
@given(st.data(), st.integers(1, 10))
def test_a_head_of_dimension_one_uses_scale_exactly_one(data: st.DataObject, n: int) -> None:
    query = [data.draw(elements)]
    keys = data.draw(st.lists(st.lists(elements, min_size=1, max_size=1), min_size=n, max_size=n))
    head = attend(query, keys, keys)
    assert head.scale == 1.0
    assert head.scaled == head.scores


@float_heavy
@given(st.data(), fixtures())
def test_split_heads_match_numpy_and_concatenate_in_order(data: st.DataObject,
                                                          fixture: Vectors) -> None:
    query, keys, values = fixture
    cuts = data.draw(bounds(len(query)))
    heads = split_heads(query, keys, values, cuts)
    oracles = numpy_heads(query, keys, values, cuts)
    assert len(heads) == len(cuts) - 1
    for head, oracle, (lo, hi) in zip(heads, oracles, itertools.pairwise(cuts), strict=True):
        assert len(head.query) == hi - lo
        assert_close(head.scores, oracle["scores"])
        assert_close(head.weights, oracle["weights"])
        assert_close(head.output, oracle["output"])
    assert_close(concat(heads), np.concatenate([o["output"] for o in oracles]))
    assert len(concat(heads)) == len(query)


@float_heavy
@given(st.data(), fixtures())
def test_splitting_then_concatenating_is_each_head_run_alone(data: st.DataObject,
                                                             fixture: Vectors) -> None:
    query, keys, values = fixture
    cuts = data.draw(bounds(len(query)))
    one_at_a_time: list[float] = []
    for lo, hi in itertools.pairwise(cuts):
        alone = attend(query[lo:hi], [k[lo:hi] for k in keys], [v[lo:hi] for v in values])
        one_at_a_time.extend(alone.output)
    assert concat(split_heads(query, keys, values, cuts)) == tuple(one_at_a_time)


@float_heavy
@given(fixtures())
def test_a_single_cut_is_the_whole_head(fixture: Vectors) -> None:
    query, keys, values = fixture
    (whole,) = split_heads(query, keys, values, [0, len(query)])
    assert whole == attend(query, keys, values)


@float_heavy
@given(fixtures())
def test_attend_leaves_its_inputs_alone(fixture: Vectors) -> None:
    before = copy.deepcopy(fixture)
    head = attend(*fixture)
    assert fixture == before
    assert head.query == tuple(fixture[0])
    assert head.keys == tuple(tuple(k) for k in fixture[1])


@float_heavy
@given(st.integers(1, 6).flatmap(
    lambda n: st.tuples(st.lists(st.lists(elements, min_size=n, max_size=n), min_size=1,
                                 max_size=6),
                        st.lists(elements, min_size=n, max_size=n))))
def test_projection_matches_numpy(case: tuple[list[list[float]], list[float]]) -> None:
    matrix, vector = case
    assert_close(project(matrix, vector), np.array(matrix) @ np.array(vector))


@float_heavy
@given(st.lists(elements, min_size=1, max_size=8))
def test_identity_projection_changes_nothing(vector: list[float]) -> None:
    identity = np.eye(len(vector)).tolist()
    assert project(identity, vector) == tuple(vector)


@pytest.mark.parametrize("scaled", [[1000.0, 1001.0], [-1000.0, -1001.0], [710.0, 0.0],
                                    [1e300, -1e300], [1e6, 1e6, 1e6 - 1]])
def test_softmax_survives_scores_where_naive_exp_overflows(scaled: list[float]) -> None:
    weights = softmax(scaled)
    assert all(math.isfinite(w) for w in weights)
    shifted = np.exp(np.array(scaled) - max(scaled))
    assert_close(weights, shifted / shifted.sum())


def test_attend_with_scores_of_1000_and_1001_keeps_finite_weights() -> None:
    head = attend([1.0], [[1000.0], [1001.0]], [[0.0], [1.0]])
    assert head.scores == (1000.0, 1001.0)
    # The step table shows e**1000 as it is, out of float range; the weights do not care.
    assert head.exps == (math.inf, math.inf)
    assert_close(head.weights, [1 / (1 + math.e), math.e / (1 + math.e)])
    assert_close(head.output, [math.e / (1 + math.e)])


@settings(max_examples=150)
@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=12))
def test_softmax_of_large_scores_is_finite_and_matches_numpy(scaled: list[float]) -> None:
    weights = softmax(scaled)
    shifted = np.exp(np.array(scaled) - max(scaled))
    assert_close(weights, shifted / shifted.sum())
    assert math.fsum(weights) == pytest.approx(1.0, abs=1e-12)


def test_equal_scores_get_equal_weights() -> None:
    assert softmax([3.0, 3.0, 3.0, 3.0]) == (0.25, 0.25, 0.25, 0.25)
    assert softmax([-7.5]) == (1.0,)


def test_dot_is_exact_where_numpy_would_round() -> None:
    # fsum: 1e16 + 1 - 1e16 is 1 exactly; a plain left-to-right sum loses the 1.
    assert dot([1e16, 1.0, -1e16], [1.0, 1.0, 1.0]) == 1.0
    with pytest.raises(ValueError, match=r"shorter|longer"):
        dot([1.0, 2.0], [1.0])


def test_the_package_names_its_version_and_nothing_else_lazily() -> None:
    import attention_lessons  # noqa: PLC0415

    assert isinstance(attention_lessons.__version__, str)
    assert attention_lessons.__version__
    with pytest.raises(AttributeError):
        attention_lessons.no_such_name  # noqa: B018

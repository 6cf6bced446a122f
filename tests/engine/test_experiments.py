"""Explore's experiments: each wrong reading's experiment shows what the reading gets wrong."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from attention_lessons import (
    LESSONS,
    choose_scale,
    explore_view,
    explore_work,
    parse_fixture,
    show_full_precision,
)
from attention_lessons.engine import Explore, StateError
from strategies import FIXTURE_TEXT, numpy_attention

FIXTURE = parse_fixture(FIXTURE_TEXT)
D8, L82 = LESSONS["d8"], LESSONS["8-2"]
Q, K, V = (np.array(x, dtype=float) for x in (FIXTURE.query, FIXTURE.keys, FIXTURE.values))


def numpy_head(q: np.ndarray, k: np.ndarray, v: np.ndarray, scale: float) -> np.ndarray:
    weights = np.exp(k @ q * scale)
    weights /= weights.sum()
    return np.asarray(weights @ v)


def test_with_the_single_heads_scale_the_two_heads_still_differ_from_it() -> None:
    explore = choose_scale(Explore(), D8, "single")
    worked = explore_work(D8, FIXTURE, explore)
    assert [h.scale for h in worked.heads] == [1 / math.sqrt(2)] * 2
    both = np.concatenate([numpy_head(Q[i:i + 1], K[:, i:i + 1], V[:, i:i + 1], 1 / math.sqrt(2))
                           for i in (0, 1)])
    single = numpy_attention(Q, K, V)["output"]
    np.testing.assert_allclose(worked.concatenated, both, rtol=1e-12)
    assert worked.differences is not None
    np.testing.assert_allclose(worked.differences, both - single, rtol=1e-12, atol=1e-15)
    assert np.abs(both - single).min() > 0.05  # still apart: the scale is not why they differ
    view = explore_view(D8, FIXTURE, explore)
    assert view.heads[0].scale == "scale 1 / sqrt(2) = 0.7071"
    assert view.heads[0].steps[1].label == "scaled by 1 over the square root of 2"


def test_full_precision_shows_the_gap_is_about_a_fifth_not_rounding() -> None:
    text = explore_view(D8, FIXTURE, show_full_precision(Explore(), True)).full_precision
    gaps = [float(x) for x in re.findall(r"-?\d+\.\d{6,}", text.split("differences are")[1])]
    a = numpy_head(Q[:1], K[:, :1], V[:, :1], 1.0)
    b = numpy_head(Q[1:], K[:, 1:], V[:, 1:], 1.0)
    oracle = np.concatenate([a, b]) - numpy_attention(Q, K, V)["output"]
    np.testing.assert_allclose(gaps, oracle, rtol=1e-12)
    assert 0.19 < gaps[0] < 0.21
    assert explore_view(D8, FIXTURE, Explore()).full_precision == ""


@pytest.mark.parametrize(("choice", "root"), [("own", 2), ("one", 1), ("four", 4)])
def test_82s_scale_moves_the_weights_as_numpy_says(choice: str, root: int) -> None:
    worked = explore_work(L82, FIXTURE, choose_scale(Explore(), L82, choice))
    scale = 1 / math.sqrt(root)
    weights = np.exp(K @ Q * scale)
    np.testing.assert_allclose(worked.heads[0].weights, weights / weights.sum(), rtol=1e-12)
    label = explore_view(L82, FIXTURE, choose_scale(Explore(), L82, choice)).heads[0].steps[1]
    assert label.label == f"scaled by 1 over the square root of {root}"


def test_the_weights_sharpen_as_the_scale_grows() -> None:
    top = [max(explore_work(L82, FIXTURE, choose_scale(Explore(), L82, c)).heads[0].weights)
           for c in ("four", "own", "one")]
    assert top == sorted(top)
    assert top[0] < top[2]


def test_a_scale_not_on_offer_is_refused_and_the_lessons_own_is_stored_as_none() -> None:
    with pytest.raises(StateError):
        choose_scale(Explore(), D8, "four")
    assert choose_scale(choose_scale(Explore(), D8, "single"), D8, "own").scale == ""


def test_wrong_readings_point_to_the_experiment_that_answers_them() -> None:
    worked = explore_work(D8, FIXTURE, Explore())
    assert D8.reading_feedback("scale", worked).endswith(
        "Try it in Explore: give every head the single head's scale.")
    assert D8.reading_feedback("rounding", worked).endswith("show full precision.")
    for reading in ("sum", "constant"):
        assert "Try it in Explore: set the scale to 1" in L82.reading_feedback(
            reading, explore_work(L82, FIXTURE, Explore()))

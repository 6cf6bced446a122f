"""Each lesson's Explore presets, found by search, do what their labels say, by numpy."""

from __future__ import annotations

import numpy as np
import pytest

from attention_lessons import LESSONS, parse_fixture
from attention_lessons.engine import (
    COARSE,
    EDGE,
    Explore,
    PresetSearches,
    StateError,
    at_preset,
    go_to_preset,
    points,
    preset_named,
)
from attention_lessons.views import preset_searching
from strategies import FIXTURE_TEXT, numpy_attention, numpy_heads

FIXTURE = parse_fixture(FIXTURE_TEXT)
KEYS = np.array(FIXTURE.keys)
VALUES = np.array(FIXTURE.values)
# The plane on the search's coarse grid: a found preset must be at least as good as all of it.
GRID = [(x, y) for x in np.arange(-EDGE, EDGE + 1e-9, COARSE)
        for y in np.arange(-EDGE, EDGE + 1e-9, COARSE)]


def placed(slug: str, preset: str) -> tuple[np.ndarray, np.ndarray]:
    """The query and the keys where the preset puts them."""
    explore = go_to_preset(LESSONS[slug], FIXTURE, preset)
    assert explore.preset == preset
    now = points(FIXTURE, explore)
    return np.array(now["query"]), np.array([now[f"key_{i}"] for i in range(1, 5)])


def gap(q: np.ndarray, k: np.ndarray = KEYS) -> float:
    """How far D8's two heads land from the single head, by numpy."""
    a, b = numpy_heads(q, k, VALUES, [0, 1, 2])
    both = np.concatenate([a["output"], b["output"]])
    return float(np.abs(both - numpy_attention(q, k, VALUES)["output"]).max())


def masked_weights(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """8.3's weights by numpy: keys 1 and 2 share everything."""
    return np.concatenate([numpy_attention(q, k[:2], VALUES[:2])["weights"], [0.0, 0.0]])


def plain_weights(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    return numpy_attention(q, k, VALUES)["weights"]


def test_every_lesson_names_presets_with_distinct_ids_and_labels() -> None:
    for lesson in LESSONS.values():
        presets = lesson.presets()
        assert len(presets) >= 3
        assert len({p.id for p in presets}) == len({p.label for p in presets}) == len(presets)


def test_d8_closest_brings_the_two_heads_nearest_the_single_head() -> None:
    assert gap(*placed("d8", "closest")) < 1e-9  # even weights in every head, so no gap


def test_d8_furthest_sets_them_furthest_apart() -> None:
    widest = gap(*placed("d8", "furthest"))
    assert widest >= max(gap(np.array(at)) for at in GRID) - 1e-12
    assert widest > gap(np.array(FIXTURE.query))


def test_d8_tie_has_two_keys_share_head_as_largest_weight() -> None:
    q, k = placed("d8", "tie")
    a, _ = numpy_heads(q, k, VALUES, [0, 1, 2])
    first, second, third = np.sort(a["weights"])[::-1][:3]
    assert first - second < 1e-12
    assert second - third > 0.1


@pytest.mark.parametrize(("slug", "weights"), [("8-2", plain_weights), ("8-3", masked_weights)])
def test_even_gives_every_key_the_query_may_see_about_the_same_weight(
        slug: str, weights: object) -> None:
    w = weights(*placed(slug, "even"))  # type: ignore[operator]
    seen = w[w > 0]
    assert seen.max() - seen.min() <= 0.05  # within 8.2's "about equally"


@pytest.mark.parametrize(("slug", "weights"), [("8-2", plain_weights), ("8-3", masked_weights)])
def test_one_key_takes_almost_all_the_weight(slug: str, weights: object) -> None:
    assert weights(*placed(slug, "one_key")).max() > 0.95  # type: ignore[operator]


@pytest.mark.parametrize(("slug", "weights"), [("8-2", plain_weights), ("8-3", masked_weights)])
def test_tie_has_two_keys_share_the_largest_weight(slug: str, weights: object) -> None:
    first, second, third = np.sort(weights(*placed(slug, "tie")))[::-1][:3]  # type: ignore[operator]
    assert first - second < 1e-9
    assert second - third > 0.1


def test_a_preset_the_lesson_does_not_name_is_refused() -> None:
    with pytest.raises(StateError, match="no preset called"):
        go_to_preset(LESSONS["8-2"], FIXTURE, "closest")


class Ticks:
    """A clock that moves on by one each time it is read: a slice of `n` seconds tries n places."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.mark.parametrize("slug", ["8-2", "8-3", "d8"])
def test_a_preset_searched_a_slice_at_a_time_lands_where_the_whole_search_does(slug: str) -> None:
    lesson = LESSONS[slug]
    for preset in lesson.presets():
        searches = PresetSearches(lesson, FIXTURE, Ticks())
        shares, found = [0.0], None
        while found is None:
            found = searches.advance(preset.id, "", 7.0)
            shares.append(searches.share_done(preset.id, ""))
        assert len(shares) > 10  # it really was cut into slices
        assert shares == sorted(shares)
        assert shares[-1] == 1.0
        assert shares[-2] < 1.0  # and reaches the whole only when found
        assert at_preset(Explore(), found, preset.id) == go_to_preset(lesson, FIXTURE, preset.id)


def test_each_scale_has_its_own_search_and_a_found_preset_costs_nothing_again() -> None:
    lesson = LESSONS["d8"]
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


def test_a_search_for_a_preset_the_lesson_does_not_name_is_refused_and_says_so() -> None:
    searches = PresetSearches(LESSONS["8-3"], FIXTURE)
    with pytest.raises(StateError, match="no preset called 'closest'"):
        searches.advance("closest", "", 0.01)
    assert preset_searching(LESSONS["d8"], "tie", 0.426) == (
        f"Searching the plane for “{preset_named(LESSONS['d8'], 'tie').label}”: 43% done.")

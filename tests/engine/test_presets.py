"""Each lesson's Explore presets, found by search, do what their labels say, by numpy."""

from __future__ import annotations

import numpy as np
import pytest

from attention_lessons import LESSONS
from attention_lessons.engine import (
    Explore,
    Lesson,
    PresetSearches,
    StateError,
    at_preset,
    go_to_preset,
    preset_named,
)
from attention_lessons.engine.explore import explored_fixture
from attention_lessons.views import preset_searching
from explored import Ticks
from oracles import by_numpy, own_fixture

EVERY = pytest.mark.parametrize("lesson", list(LESSONS.values()), ids=list(LESSONS))
# The lessons that offer the plain presets (they keep Lesson's own), each tried on its first head.
SEARCHED = [lesson for lesson in LESSONS.values() if lesson.presets()]  # presets are optional
PLAIN = [lesson for lesson in LESSONS.values() if type(lesson).presets is Lesson.presets]


def weights_at(lesson: Lesson, preset: str) -> np.ndarray:
    """The lesson's first head's weights where the preset puts the points, by its oracle."""
    fixture = own_fixture(lesson)
    explore = go_to_preset(lesson, fixture, preset)
    assert explore.preset == preset
    return by_numpy(lesson, explored_fixture(fixture, explore)).weights[0].ravel()


def test_every_lesson_names_presets_with_distinct_ids_and_labels() -> None:
    for lesson in LESSONS.values():  # presets are optional: a lesson may name none
        presets = lesson.presets()
        assert len({p.id for p in presets}) == len({p.label for p in presets}) == len(presets)


@pytest.mark.parametrize("lesson", PLAIN, ids=[lesson.slug for lesson in PLAIN])
def test_even_gives_every_key_the_query_may_see_about_the_same_weight(lesson: Lesson) -> None:
    w = weights_at(lesson, "even")
    seen = w[w > 0]
    assert seen.max() - seen.min() <= 0.05  # within 8.2's "about equally"


@pytest.mark.parametrize("lesson", PLAIN, ids=[lesson.slug for lesson in PLAIN])
def test_one_key_takes_almost_all_the_weight(lesson: Lesson) -> None:
    assert weights_at(lesson, "one_key").max() > 0.95


@pytest.mark.parametrize("lesson", PLAIN, ids=[lesson.slug for lesson in PLAIN])
def test_tie_has_two_keys_share_the_largest_weight(lesson: Lesson) -> None:
    first, second, third = np.sort(weights_at(lesson, "tie"))[::-1][:3]
    assert first - second < 1e-9
    assert second - third > 0.1


@EVERY
def test_a_preset_the_lesson_does_not_name_is_refused(lesson: Lesson) -> None:
    with pytest.raises(StateError, match="no preset called"):
        go_to_preset(lesson, own_fixture(lesson), "nowhere")


@EVERY
def test_a_preset_searched_a_slice_at_a_time_lands_where_the_whole_search_does(
        lesson: Lesson) -> None:
    fixture = own_fixture(lesson)
    for preset in lesson.presets():
        searches = PresetSearches(lesson, fixture, Ticks())
        shares, found = [0.0], None
        while found is None:
            found = searches.advance(preset.id, "", 7.0)
            shares.append(searches.share_done(preset.id, ""))
        assert len(shares) > 10  # it really was cut into slices
        assert shares == sorted(shares)
        assert shares[-1] == 1.0
        assert shares[-2] < 1.0  # and reaches the whole only when found
        assert at_preset(Explore(), found, preset.id) == go_to_preset(lesson, fixture, preset.id)


@pytest.mark.parametrize("lesson", SEARCHED, ids=[lesson.slug for lesson in SEARCHED])
def test_a_search_for_a_preset_the_lesson_does_not_name_is_refused_and_says_so(
        lesson: Lesson) -> None:
    searches = PresetSearches(lesson, own_fixture(lesson))
    with pytest.raises(StateError, match="no preset called 'nowhere'"):
        searches.advance("nowhere", "", 0.01)
    preset = lesson.presets()[-1].id
    assert preset_searching(lesson, preset, 0.426) == (
        f"Searching the plane for “{preset_named(lesson, preset).label}”: 43% done.")

"""Explore's experiments offer only their own scales, and a lesson's own scale is stored as none;
each lesson's experiments answering its wrong readings are checked in its own test."""

from __future__ import annotations

import pytest

from attention_lessons import LESSONS, choose_scale
from attention_lessons.engine import Explore, Lesson, StateError

SCALED = [lesson for lesson in LESSONS.values() if lesson.scale_choices()]


@pytest.mark.parametrize("lesson", SCALED, ids=[lesson.slug for lesson in SCALED])
def test_a_scale_not_on_offer_is_refused_and_the_lessons_own_is_stored_as_none(
        lesson: Lesson) -> None:
    own, other = (c.id for c in lesson.scale_choices()[:2])
    with pytest.raises(StateError):
        choose_scale(Explore(), lesson, "nowhere")
    assert choose_scale(choose_scale(Explore(), lesson, other), lesson, own).scale == ""

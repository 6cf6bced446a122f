"""The course's lessons, in track order: adding a lesson means writing its module and listing it."""

from __future__ import annotations

from ..engine import Lesson
from . import attention_by_hand, masked_attention, self_attention, two_heads

LESSONS: dict[str, Lesson] = {lesson.slug: lesson for lesson in (
    attention_by_hand.LESSON,
    two_heads.LESSON,
    masked_attention.LESSON,
    self_attention.LESSON,
)}

"""Presets are a lesson's choice: a lesson that names none gets no presets' box on its page."""

from __future__ import annotations

import pytest

from attention_lessons import LESSONS
from attention_lessons.engine import Preset
from course_build.pages import lesson_page, site_templates


class _NoPresets:
    """Mixed in before a lesson's class: its plane has no places worth a visit."""

    def presets(self) -> tuple[Preset, ...]:
        return ()


def test_a_lesson_with_no_presets_gets_no_presets_box(monkeypatch: pytest.MonkeyPatch) -> None:
    slug, lesson = next(iter(LESSONS.items()))
    assert 'class="explore-presets"' in lesson_page(site_templates(), slug)
    bare = type("Bare", (_NoPresets, type(lesson)), {})
    # The build reads the package's registry, the same dict as this one.
    monkeypatch.setitem(LESSONS, slug, bare(**vars(lesson)))
    html = lesson_page(site_templates(), slug)
    assert 'class="explore-presets"' not in html
    assert 'id="explore_plane_svg"' in html  # Explore itself is still there

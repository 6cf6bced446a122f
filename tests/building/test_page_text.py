"""Each lesson page, as build.py renders it, names the package's questions and choices word for
word, and carries none of the numbers that Python computes."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from attention_lessons import (
    LESSONS,
    Progress,
    fixed_view,
    load_fixture,
    lock_prediction,
    page_update,
    progress_view,
    work,
)
from attention_lessons.engine import Lesson
from course_build.pages import lesson_page, site_templates, track_page
from strategies import FIXTURES

ENVIRONMENT = site_templates()


class _Labels(HTMLParser):
    """Collect each <label>'s text by its `for` target, and each radio group's values by label."""

    def __init__(self) -> None:
        super().__init__()
        self.by_for: dict[str, str] = {}
        self.radios: dict[str, dict[str, str]] = {}
        self._open: tuple[str | None, str | None, str | None] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "label":
            self._open, self._text = (a.get("for"), None, None), []
        elif tag == "input" and a.get("type") == "radio" and self._open is not None:
            self._open = (self._open[0], a.get("name"), a.get("value"))

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "label" and self._open is not None:
            target, name, value = self._open
            text = " ".join("".join(self._text).split())
            if target:
                self.by_for[target] = text
            if name and value:
                self.radios.setdefault(name, {})[value] = text
            self._open = None


def _labels(lesson: Lesson) -> _Labels:
    parser = _Labels()
    parser.feed(lesson_page(ENVIRONMENT, lesson.slug))
    return parser


LESSON_LIST = pytest.mark.parametrize("lesson", LESSONS.values(), ids=list(LESSONS))


@LESSON_LIST
def test_each_field_is_labelled_as_its_question(lesson: Lesson) -> None:
    labels = _labels(lesson).by_for
    assert {q.id: labels.get(q.id) for q in lesson.questions} == \
        {q.id: q.label for q in lesson.questions}


@LESSON_LIST
def test_the_prediction_choices_are_the_lessons_predictions_word_for_word(lesson: Lesson) -> None:
    assert _labels(lesson).radios["prediction"] == {c.id: c.label for c in lesson.predictions}


@LESSON_LIST
def test_the_reading_choices_are_the_lessons_readings(lesson: Lesson) -> None:
    assert _labels(lesson).radios["reading"] == {c.id: c.label for c in lesson.readings}


@LESSON_LIST
def test_the_page_carries_no_computed_number(lesson: Lesson) -> None:
    worked = work(lesson, load_fixture(lesson.fixture, FIXTURES, lesson.inputs))
    view = fixed_view(worked)
    printed = {bar.weight for head in view.heads for bar in head.bars}
    printed |= {step.value for head in view.heads for step in head.steps if "." in step.value}
    html = lesson_page(ENVIRONMENT, lesson.slug)
    assert printed
    assert sorted(n for n in printed if n in html) == []


def test_the_track_lists_every_lesson_in_order() -> None:
    html = track_page(ENVIRONMENT)
    places = [html.index(f'href="{slug}/"') for slug in LESSONS]
    assert places == sorted(places)


@LESSON_LIST
def test_the_track_calls_a_lesson_optional_only_if_it_is(lesson: Lesson) -> None:
    html = track_page(ENVIRONMENT)
    entry = html[html.index(f'id="lesson_{lesson.slug}"'):]
    entry = entry[: entry.index("</li>")]
    assert (f"optional {lesson.kind}," in entry) is lesson.optional
    assert f"{lesson.kind}, about {lesson.minutes} minutes" in entry


class _Ids(HTMLParser):
    """Collect every element id on a page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if (element_id := dict(attrs).get("id")) is not None:
            self.ids.add(element_id)


@LESSON_LIST
def test_every_element_the_page_update_writes_is_on_the_page(lesson: Lesson) -> None:
    worked = work(lesson, load_fixture(lesson.fixture, FIXTURES, lesson.inputs))
    locked = lock_prediction(Progress(), lesson, lesson.predictions[0].id)
    update = page_update(progress_view(locked, worked))
    written = {*update.texts, *update.hidden, *update.disabled, *update.states, *update.invalid}
    page = _Ids()
    page.feed(lesson_page(ENVIRONMENT, lesson.slug))
    assert written - page.ids == set()
    assert update.texts["lock_prediction"] == "Prediction locked in"
    assert update.hidden["after_prediction"] is False
    assert {q.id for q in lesson.questions} <= set(update.invalid)

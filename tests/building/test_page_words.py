"""The page's own words for a head (Explore's instructions, its readout, legend and tables) are
the lesson's: a lesson that calls its keys tokens gets "token" wherever the template would
otherwise have written "key"."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from attention_lessons import LESSONS
from attention_lessons.engine import Input, Words
from course_build.pages import lesson_page, site_templates

WORDS = Words(query="question", key="token", keys="tokens", value="answer", values="answers")
INPUTS = (Input("query", ("d",), "question"), Input("keys", ("n", "d"), "token"),
          Input("values", ("n", "d")))


def test_a_lesson_with_words_of_its_own_gets_them_on_its_page(
        monkeypatch: pytest.MonkeyPatch) -> None:
    slug, lesson = next(iter(LESSONS.items()))
    # The build reads the package's registry, the same dict as this one.
    monkeypatch.setitem(LESSONS, slug, replace(lesson, words=WORDS, inputs=INPUTS))
    html = re.sub(r"\s+", " ", lesson_page(site_templates(), slug))
    for said in ("Drag the question or a token across the plane",
                 '<th scope="col">token</th><th scope="col">token value</th>'
                 '<th scope="col">answer</th>',
                 '<th scope="row">token 2</th>', "line from the question to each token",
                 "The answers, where the fixture has them.", "<legend>Type the question</legend>",
                 "<legend>Type token 3</legend>", "The explored tokens, answers, scores"):
        assert said in html
    assert "Drag the query" not in html
    assert '<th scope="col">key</th>' not in html

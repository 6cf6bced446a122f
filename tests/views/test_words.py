"""The words are the lesson's: every sentence the engine makes for a head (its step table, bars,
summary, Explore's text alternative and labels, the presets, the shared slips) takes its nouns
from the lesson, so a lesson that calls its keys tokens never reads "key" where the engine
wrote it."""

from __future__ import annotations

import re
from dataclasses import replace

from attention_lessons import LESSONS, lesson_fixture
from attention_lessons.engine import (
    Explore,
    Input,
    Words,
    even_weight,
    exponential,
    go_to_preset,
    move,
    plain_average,
    work,
)
from attention_lessons.views import explore_view, move_announcement
from attention_lessons.views.heads import head_view
from strategies import FIXTURES

PLAIN_NOUNS = re.compile(r"\b(?:[Qq]uery|[Kk]eys?|[Vv]alues?)\b")
WORDS = Words(query="question", key="token", keys="tokens", value="answer", values="answers")
# 8.2's head, its inputs moving under the lesson's own names.
OURS = replace(next(iter(LESSONS.values())), words=WORDS, inputs=(
    Input("query", ("d",), "question"), Input("keys", ("n", "d"), "token"),
    Input("values", ("n", "d"))))
FIXTURE = lesson_fixture(OURS, FIXTURES)


def engine_sentences(explore: Explore) -> list[str]:
    """Every sentence the engine writes for the lesson's heads on the page and in Explore."""
    worked, view = work(OURS, FIXTURE), explore_view(OURS, FIXTURE, explore)
    said: list[str] = []
    for head in (head_view(0, worked), *view.heads):
        said += [head.intro, head.figure_text, head.summary, *(bar.key for bar in head.bars),
                 *(step.label for step in head.steps)]
    said += [view.vectors, view.plane.text, *(label.text for label in view.plane.labels.values()),
             *(point.valuetext for point in view.plane.points),
             move_announcement(OURS, view, "token_2").split(". In ")[0]]
    said += [preset.label for preset in OURS.presets()]
    trace = worked.heads[0]
    said += [exponential(trace, 1, WORDS).message, even_weight(trace, WORDS).message,
             plain_average(trace, 0, WORDS).message]
    return said


def test_no_engine_sentence_names_the_plain_heads_nouns_when_the_lesson_has_its_own() -> None:
    for explore in (Explore(), move(Explore(), FIXTURE, "token_2", 1, 1),
                    go_to_preset(OURS, FIXTURE, "tie")):
        said = engine_sentences(explore)
        assert [s for s in said if PLAIN_NOUNS.search(s)] == []
        assert any("token 2" in s for s in said)
        assert any("question" in s for s in said)


def test_the_plain_heads_own_words_are_todays() -> None:
    lesson = next(iter(LESSONS.values()))
    worked = work(lesson, lesson_fixture(lesson, FIXTURES))
    head = head_view(0, worked)
    assert head.steps[0].label == "scores, query times key"
    assert head.bars[0].key == "key 1"
    assert "on key" in head.summary

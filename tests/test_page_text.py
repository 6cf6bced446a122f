"""The page's static prose and the package's lesson data name the same questions and choices."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from attention_lessons import QUESTIONS
from attention_lessons._grading import PREDICTIONS, READINGS

PAGE = Path(__file__).resolve().parents[1] / "web" / "d8" / "index.html"


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


def _labels() -> _Labels:
    parser = _Labels()
    parser.feed(PAGE.read_text(encoding="utf-8"))
    return parser


def test_each_field_is_labelled_as_its_question() -> None:
    labels = _labels().by_for
    assert {q.id: labels.get(q.id) for q in QUESTIONS} == {q.id: q.label for q in QUESTIONS}


def test_the_prediction_choices_are_the_packages_predictions_word_for_word() -> None:
    assert _labels().radios["prediction"] == PREDICTIONS


def test_the_reading_choices_are_the_packages_readings() -> None:
    assert tuple(_labels().radios["reading"]) == READINGS

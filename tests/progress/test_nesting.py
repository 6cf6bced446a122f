"""The nesting check before parsing: exact on JSON, never below a parser's depth, and linear."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_lessons.engine import StateError
from attention_lessons.progress import MAX_DEPTH, depth_over, from_json, too_deep
from strategies import D8


def scanned_depth(text: str) -> int:
    """The deepest nesting outside strings, one character at a time: the check's reference.

    Escapes are read as a JSON reader reads them ("\\\\", then "\\""), wherever they are."""
    depth = deepest = 0
    inside = False
    at = 0
    while at < len(text):
        char = text[at]
        if char == "\\" and text[at + 1:at + 2] in ("\\", '"'):
            at += 2
            continue
        if char == '"':
            inside = not inside
        elif not inside and char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif not inside and char in "]}":
            depth -= 1
        at += 1
    return deepest


def nest(depth: int, inner: Any) -> Any:
    for level in range(depth):
        inner = [inner] if level % 2 else {"k[\\\"{": inner}
    return inner


# Texts made of what the check reads, around the depth where it matters.
crafted = st.lists(st.sampled_from(['[', ']', '{', '}', '"', '\\', '\\"', '\\\\', 'é', 'a', ',',
                                    '[' * 19, '"[' * 3]), max_size=60).map("".join)
strings = st.text(alphabet='[]{}"\\ aé\u2028\ud800', max_size=8)


@settings(max_examples=600)
@given(crafted, st.integers(min_value=0, max_value=25))
def test_any_text_is_judged_as_the_reference_scan_judges_it(text: str, limit: int) -> None:
    assert depth_over(text, limit) == (scanned_depth(text) > limit)


@settings(max_examples=300)
@given(st.integers(min_value=0, max_value=40), strings, st.booleans())
def test_json_is_too_deep_exactly_when_it_nests_past_the_limit(
        depth: int, text: str, ascii_only: bool) -> None:
    value = nest(depth, [text, {text: text}])
    dumped = json.dumps(value, ensure_ascii=ascii_only)
    assert too_deep(dumped) == (depth + 2 > MAX_DEPTH)
    assert scanned_depth(dumped) == depth + 2


@pytest.mark.parametrize("text", [
    "[" * 21 + '"' + '\\"' * 20_000,  # the crafted record: a string that never closes
    "[" * 21 + '"' * 100_000,
    "[" * 21 + '"' + "\\" * 100_001,
    '["\\"",' * 20_000 + "[" * 21,
])
def test_crafted_texts_deep_outside_their_strings_are_too_deep(text: str) -> None:
    assert too_deep(text)


@pytest.mark.parametrize("text", [
    '"' + "[" * 50_000 + '"',
    ('[' * 20 + ']' * 20) * 5_000,
    ('[' * 19 + '"\\\\"' + ']' * 19) * 5_000,
    '"\\"' + "[" * 100 + '"',
])
def test_brackets_in_strings_or_no_deeper_than_the_limit_pass(text: str) -> None:
    assert not too_deep(text)


def test_a_crafted_record_is_refused_as_too_deep_and_a_huge_one_as_too_big() -> None:
    with pytest.raises(StateError, match="nests deeper than 20 levels"):
        from_json("[" * 21 + '"' + '\\"' * 20_000, D8.lesson)
    with pytest.raises(StateError, match="far more than a record"):
        from_json("[" * 21 + '"' + '\\"' * 2_500_000, D8.lesson)

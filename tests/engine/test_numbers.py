"""Tests for reading a learner's typed number: what is accepted, echoed and refused."""

from __future__ import annotations

import dataclasses
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attention_lessons.engine import MAX_LENGTH, LessonError, ParseError, Reading, parse_number


@pytest.mark.parametrize(
    ("text", "value", "echo"),
    [
        (" 0,4643 ", 0.4643, "read as 0.4643"),
        ("0,46", 0.46, "read as 0.46"),
        ("1,5", 1.5, "read as 1.5"),
        ("0,464", 0.464, "read as 0.464"),
        ("−1", -1.0, "read as -1"),
        ("−0,5", -0.5, "read as -0.5"),
        (".4754", 0.4754, "read as 0.4754"),
        ("7/8", 0.875, "read as 0.875"),
        ("-1/2", -0.5, "read as -0.5"),
        ("1.5/3", 0.5, "read as 0.5"),
        (" 1 / 4 ", 0.25, "read as 0.25"),
        ("2/3", 2 / 3, "read as 0.666667"),
        ("+2", 2.0, "read as 2"),
        ("1e-2", 0.01, "read as 0.01"),
        ("2.5E3", 2500.0, "read as 2500"),
        ("1e-5", 1e-5, "read as 1e-5"),
        ("1234567", 1234567.0, "read as 1.23457e6"),
        ("-.5", -0.5, "read as -0.5"),
        ("5.", 5.0, "read as 5"),
        ("-0", 0.0, "read as 0"),
        ("\u00a00.46\u00a0", 0.46, "read as 0.46"),
        ("\t42\n", 42.0, "read as 42"),
    ],
)
def test_accepted(text: str, value: float, echo: str) -> None:
    reading = parse_number(text)
    assert reading == Reading(value=value, echo=echo)


def test_negative_zero_is_plain_zero() -> None:
    assert math.copysign(1.0, parse_number("-0.0").value) == 1.0


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "Type a number first"),
        ("   ", "Type a number first"),
        ("abc", "“abc” is not a number"),
        ("2x", "“2x” is not a number"),
        ("1.2.3", "“1.2.3” is not a number"),
        ("1_000", "“1_000” is not a number"),
        ("0x10", "“0x10” is not a number"),
        ("1/2/3", "is not a number"),
        ("- 1", "is not a number"),
        ("\u0661", "is not a number"),
        ("nan", "NaN is not a number you can check"),
        ("NaN", "NaN is not a number you can check"),
        ("-nan", "NaN is not a number you can check"),
        ("inf", "Infinity can't be an answer"),
        ("-Infinity", "Infinity can't be an answer"),
        ("∞", "Infinity can't be an answer"),
        ("−∞", "Infinity can't be an answer"),
        ("1e999", "too large to use"),
        ("-1e999", "too large to use"),
        ("1e300/1e-300", "too large to use"),
        ("1/0", "Division by zero has no value"),
        ("0/0.0", "Division by zero has no value"),
        ("1/-2", "in front of the fraction"),
        ("9" * 10_000, f"at most {MAX_LENGTH} characters"),
        ("1,234", "“1,234” could mean 1.234 or 1234; use a point"),
        ("12,345", "could mean 12.345 or 12345"),
        ("-1,234", "could mean -1.234 or -1234"),
        ("1,2,3", "more than one comma"),
        ("1,234.5", "both a comma and a point"),
    ],
)
def test_rejected(text: str, fragment: str) -> None:
    with pytest.raises(ParseError, match=re.escape(fragment)):
        parse_number(text)


def test_parse_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="not a number"):
        parse_number("abc")
    assert issubclass(ParseError, LessonError)


def test_long_input_is_refused_before_reading() -> None:
    with pytest.raises(ParseError, match="too long") as caught:
        parse_number("1" * (MAX_LENGTH + 1))
    assert "1" * 20 not in str(caught.value)
    assert parse_number("1" * MAX_LENGTH).value == float("1" * MAX_LENGTH)
    assert parse_number(" " * 10_000 + "3" + " " * 10_000).value == 3.0


def test_long_non_number_is_quoted_short() -> None:
    with pytest.raises(ParseError) as caught:
        parse_number("x" * MAX_LENGTH)
    message = str(caught.value)
    assert "x" * 19 + "…" in message
    assert "x" * 20 not in message


def test_invisible_characters_are_masked_in_messages() -> None:
    with pytest.raises(ParseError) as caught:
        parse_number("1\x002")
    assert "\x00" not in str(caught.value)


def test_reading_is_frozen() -> None:
    reading = parse_number("1")
    with pytest.raises(dataclasses.FrozenInstanceError):
        reading.value = 2.0  # type: ignore[misc]


def _outcome(text: str) -> Reading | str:
    """Return the reading of text, or the message of the ParseError it raised."""
    try:
        return parse_number(text)
    except ParseError as error:
        return str(error)


def _assert_finite_or_explained(text: str) -> None:
    """Assert text reads as a finite number with an echo, or is refused with a message."""
    outcome = _outcome(text)
    if isinstance(outcome, str):
        assert outcome.strip()
    else:
        assert math.isfinite(outcome.value)
        assert outcome.echo.startswith("read as ")


@given(st.text())
def test_any_text_reads_finite_or_raises_parse_error(text: str) -> None:
    _assert_finite_or_explained(text)


# Near-misses of the grammar, where edge cases in signs, commas and slashes live.
_NUMBER_LIKE = (
    r"\s*[+\-−]?[0-9]{0,8}(?:[.,][0-9]{0,8})?(?:[eE]-?[0-9]{1,3})?(?: ?/ ?[0-9.,]{1,6})?\s*"
)


@given(st.from_regex(_NUMBER_LIKE, fullmatch=True))
def test_number_like_text_reads_finite_or_raises_parse_error(text: str) -> None:
    _assert_finite_or_explained(text)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_repr_round_trips(number: float) -> None:
    text = repr(number)
    assert len(text) <= MAX_LENGTH
    assert parse_number(text).value == number

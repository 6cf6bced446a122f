"""Loading a fixture: a plain head's numbers come through, and every malformed field is named.
Each lesson's own fixture is checked in its own test."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attention_lessons import Fixture, LessonError, parse_fixture
from attention_lessons.engine import FixtureError, Input
from strategies import json_values

# A plain head's fixture, this test's own: a query, and 4 keys with their values, of dimension 2.
PLAIN_TEXT = json.dumps({"name": "a plain fixture", "query": [1, -2],
                         "keys": [[0, 1], [1, 0], [1, 1], [1, -1]],
                         "values": [[0, 1], [3, 0], [1, 2], [-1, -2]]})


def good() -> dict[str, Any]:
    """Return the plain fixture as decoded JSON, fresh each time so a test may spoil it."""
    decoded: dict[str, Any] = json.loads(PLAIN_TEXT)
    return decoded


def test_a_plain_fixture_loads_as_floats() -> None:
    fixture = parse_fixture(PLAIN_TEXT)
    assert fixture == Fixture("a plain fixture", {
        "query": (1.0, -2.0),
        "keys": ((0.0, 1.0), (1.0, 0.0), (1.0, 1.0), (1.0, -1.0)),
        "values": ((0.0, 1.0), (3.0, 0.0), (1.0, 2.0), (-1.0, -2.0)),
    })
    assert fixture.dimension == 2
    assert all(isinstance(x, float) for row in fixture.keys for x in row)


def test_the_name_is_optional() -> None:
    raw = good()
    del raw["name"]
    assert parse_fixture(json.dumps(raw)).name == "fixture"


def spoiled(path: str, value: Any) -> dict[str, Any]:
    """Return the plain fixture with the field at a dotted path ("keys.2.0") replaced by value."""
    root = good()
    node: Any = root
    *parents, last = path.split(".")
    for step in parents:
        node = node[int(step)] if isinstance(node, list) else node[step]
    node[int(last) if isinstance(node, list) else last] = value
    return root


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("query", [], "query: expected a non-empty list of numbers"),
        ("query", "1, -2", "query: expected a non-empty list of numbers"),
        ("query.0", "2", "query[0]: expected a finite number, got '2'"),
        ("query.1", True, "query[1]: expected a finite number, got True"),
        ("query.0", None, "query[0]: expected a finite number, got None"),
        ("keys", [], "keys: expected a non-empty list of rows"),
        ("keys", {"0": [1, 0]}, "keys: expected a non-empty list of rows"),
        ("keys.2", [1], "keys[2]: expected 2 numbers (d = 2, as in query), got 1"),
        ("keys.2", [1, 1, 1], "keys[2]: expected 2 numbers (d = 2, as in query), got 3"),
        ("keys.3.1", [1], "keys[3][1]: expected a finite number, got [1]"),
        ("values", [[1, 0]], "values: expected 4 rows (n = 4, as in keys), got 1"),
        ("values", None, "values: expected a non-empty list of rows"),
        ("values.0", 1, "values[0]: expected a non-empty list of numbers"),
        ("values.1.0", {"x": 1}, "values[1][0]: expected a finite number, got {'x': 1}"),
        ("name", 1.5, "name: expected text"),
    ],
)
def test_a_malformed_field_is_named(path: str, value: Any, message: str) -> None:
    with pytest.raises(FixtureError) as caught:
        parse_fixture(json.dumps(spoiled(path, value)))
    assert str(caught.value) == message


@pytest.mark.parametrize("missing", ["query", "keys", "values"])
def test_a_missing_field_is_named(missing: str) -> None:
    raw = good()
    del raw[missing]
    with pytest.raises(FixtureError, match=f"^{missing}: missing$"):
        parse_fixture(json.dumps(raw))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"query": [NaN], "keys": [[1]], "values": [[1]]}', "query[0]"),
        ('{"query": [1], "keys": [[Infinity]], "values": [[1]]}', "keys[0][0]"),
        ('{"query": [1], "keys": [[1]], "values": [[-Infinity]]}', "values[0][0]"),
        ('{"query": [1], "keys": [[1e999]], "values": [[1]]}', "keys[0][0]"),
        ('{"query": [1' + "0" * 400 + '], "keys": [[1]], "values": [[1]]}', "query[0]"),
        ("[1, 2]", "expected a JSON object"),
        ("", "not valid JSON"),
        ("{'query': [1]}", "not valid JSON"),
        ('{"query": [' + "1" * 5000 + "]}", "not valid JSON"),
        ("[" * 100_000 + "]" * 100_000, "not valid JSON"),
    ],
    ids=["nan", "infinity", "minus-infinity", "overflowing-float", "huge-integer", "array",
         "empty", "single-quotes", "too-many-digits", "deep-nesting"],
)
def test_json_that_is_not_a_fixture_is_refused(text: str, message: str) -> None:
    with pytest.raises(FixtureError, match=re.escape(message)):
        parse_fixture(text)


@settings(max_examples=100)
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_fixture_error(text: str) -> None:
    with pytest.raises(FixtureError):
        parse_fixture(text)


def outcome(text: str) -> Fixture | str:
    """Return the parsed fixture, or the FixtureError's message."""
    try:
        return parse_fixture(text)
    except FixtureError as exc:
        return str(exc)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@settings(max_examples=150)
@given(st.sampled_from(["query.0", "query.1", "keys.0.0", "keys.2.1", "keys.3.0", "values.1.1",
                        "values.3.0"]),
       json_values)
def test_any_non_number_element_is_named(path: str, value: Any) -> None:
    if _is_number(value):
        value = [value]  # a number there is valid; wrap it to make it wrong
    field = re.sub(r"\.(\d+)", r"[\1]", path)
    with pytest.raises(FixtureError, match=f"^{re.escape(field)}: "):
        parse_fixture(json.dumps(spoiled(path, value)))


@settings(max_examples=80)
@given(st.sampled_from(["query", "keys", "values", "keys.1", "values.2"]), json_values)
def test_any_wrong_vector_is_named_or_refused(path: str, value: Any) -> None:
    # Whatever replaces a whole vector or matrix, the result is a fixture or a FixtureError.
    field = re.sub(r"\.(\d+)", r"[\1]", path)
    result = outcome(json.dumps(spoiled(path, value)))
    if isinstance(result, str):
        # A shorter query moves the blame to the first key that no longer fits it.
        assert result.startswith((field, "keys", "values"))
    else:
        assert len(result.values) == len(result.keys)
        assert all(len(v) == result.dimension for v in (*result.keys, *result.values))


def test_fixture_error_is_a_lesson_error() -> None:
    assert issubclass(FixtureError, LessonError)
    assert issubclass(FixtureError, ValueError)


def test_a_field_the_lesson_does_not_declare_is_refused_not_dropped() -> None:
    raw = good()
    raw["tokens"] = [[1, 0]]
    with pytest.raises(FixtureError) as caught:
        parse_fixture(json.dumps(raw))
    assert str(caught.value) == ("tokens: not an input of this lesson, which takes query, keys, "
                                 "values")


# A lesson of its own inputs: tokens in two dimensions and a 2×2 matrix, read against them.
TOKENS = (Input("tokens", ("n", 2)), Input("w_q", (2, 2)))
OWN = {"name": "own", "tokens": [[1, 0], [0, 1], [1, 1]], "w_q": [[1, 2], [0, -1]]}


def test_a_lesson_declares_its_own_inputs_and_the_fixture_holds_exactly_those() -> None:
    fixture = parse_fixture(json.dumps(OWN), TOKENS)
    assert fixture == Fixture("own", {"tokens": ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0)),
                                      "w_q": ((1.0, 2.0), (0.0, -1.0))}, TOKENS)
    assert fixture.matrix("w_q")[1] == (0.0, -1.0)
    moved = fixture.with_inputs("own, moved", tokens=((2.0, 2.0),))
    assert moved.matrix("tokens") == ((2.0, 2.0),)
    assert moved.matrix("w_q") == fixture.matrix("w_q")
    assert fixture.matrix("tokens") == ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0))


@pytest.mark.parametrize(("field", "value", "message"), [
    ("w_q", [[1, 2]], "w_q: expected 2 rows, got 1"),
    ("w_q", [[1, 2], [3]], "w_q[1]: expected 2 numbers, got 1"),
    ("tokens", [[1, 0, 0]], "tokens[0]: expected 2 numbers, got 3"),
    ("tokens", [1, 0], "tokens[0]: expected a non-empty list of numbers"),
    ("query", [2, -1], "query: not an input of this lesson, which takes tokens, w_q"),
])
def test_an_input_of_the_wrong_shape_is_named_with_the_shape_expected_and_found(
    field: str, value: Any, message: str,
) -> None:
    with pytest.raises(FixtureError) as caught:
        parse_fixture(json.dumps({**OWN, field: value}), TOKENS)
    assert str(caught.value) == message


def test_a_declared_input_left_out_is_named() -> None:
    with pytest.raises(FixtureError, match=r"^w_q: missing$"):
        parse_fixture(json.dumps({"tokens": OWN["tokens"]}), TOKENS)

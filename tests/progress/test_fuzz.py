"""Fuzzing: every generated string and JSON value gets a result or the package's own error."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attention_lessons import Progress, export_json, parse_number, read_import
from attention_lessons.engine import ParseError, StateError
from attention_lessons.progress import from_json, load_record
from strategies import D8

# 2,000 examples a fuzzer: generating them is nearly all the time (10,000 took 55 s, of which
# 0.7 s was the loader's), and every other property test here runs 60 to 600.
FUZZ = settings(max_examples=2_000, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LESSON = D8.lesson

numberish = st.text(alphabet=st.sampled_from("0123456789.,-−+/eE _\u00a0\u2009x∞nNaI"),
                    max_size=70)
odd_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["version", "prediction", "answers", "graded", "runs", "a_output",
                         "projection", "takeaway", "kind", "lesson", "progress", "gate"])
        | st.text(max_size=8), inner, max_size=4),
    max_leaves=6,
)
# Whole records with one field swapped for an odd value, so the loader gets past "version".
FRESH = json.loads(export_json(Progress(), LESSON))["progress"]
near_records = st.builds(
    lambda field, value: {**FRESH, field: value},
    st.sampled_from(["prediction", "why", "answers", "graded", "attempts", "runs", "hints_opened",
                     "reading", "projection", "takeaway", "gate", "version"]),
    odd_values,
)
deep = st.integers(1, 400).map(lambda n: "[" * n + "]" * n) | st.integers(1, 400).map(
    lambda n: '{"a":' * n + "1" + "}" * n)


@FUZZ
@given(st.text(max_size=80) | numberish)
def test_the_number_parser_reads_or_says_why(typed: str) -> None:
    try:
        reading = parse_number(typed)
    except ParseError as error:
        said = str(error)
    else:
        said = "" if reading.value == reading.value else "NaN"  # a number, never NaN
        assert said == ""


def loads_or_refuses(text: str) -> None:
    loaded = load_record(text, LESSON)
    assert isinstance(loaded.progress, Progress)
    assert (not loaded.whole) == bool(loaded.notice)  # set aside whole, or in part and named
    try:
        from_json(text, LESSON)
    except StateError as error:  # anything else propagates and fails the test
        assert len(str(error)) < 400  # noqa: PT017 (the message, not the raising, is checked)
        return
    # A loadable record also imports, wrapped as a downloaded file.
    read_import(json.dumps({"kind": "attention-lessons progress", "lesson": "d8",
                            "progress": json.loads(text)}), Progress(), D8)


@FUZZ
@given(st.one_of(odd_values, near_records).map(lambda v: json.dumps(v, allow_nan=True)) | deep)
def test_the_record_loader_loads_or_refuses_any_json(text: str) -> None:
    loads_or_refuses(text)


def test_huge_and_deep_records_are_refused_quickly() -> None:
    big: Any = {"version": 1, "why": "x" * 5_000_000}
    for text in (json.dumps(big), "[" * 200_000 + "]" * 200_000, "9" * 5000):
        loads_or_refuses(text)

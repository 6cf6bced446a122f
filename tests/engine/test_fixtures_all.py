"""Every JSON file in fixtures/ loads, and attention on it agrees with the numpy oracle."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from attention_lessons import attend, parse_fixture
from strategies import FIXTURES, assert_close, numpy_attention

ALL = sorted(FIXTURES.glob("*.json"))


def test_the_glob_finds_the_82_fixture() -> None:
    assert FIXTURES / "attention-8.2.json" in ALL


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_fixture_loads_and_attends_like_numpy(path: Path) -> None:
    fixture = parse_fixture(path.read_text(encoding="utf-8"))
    assert fixture.name.strip()
    assert len(fixture.keys) == len(fixture.values) >= 1
    assert all(len(v) == fixture.dimension for v in (*fixture.keys, *fixture.values))
    head = attend(fixture.query, fixture.keys, fixture.values)
    oracle = numpy_attention(fixture.query, fixture.keys, fixture.values)
    assert_close(head.weights, oracle["weights"])
    assert_close(head.output, oracle["output"])
    assert math.fsum(head.weights) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("path", ALL, ids=[p.name for p in ALL])
def test_fixture_is_small_data(path: Path) -> None:
    # Data is data: a fixture someone can read whole, never megabytes inlined.
    assert path.stat().st_size < 64 * 1024

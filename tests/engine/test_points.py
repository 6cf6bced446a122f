"""Explore's points are the ones a lesson declares movable, in its own words: the plain head's
query and keys by default, or any inputs of a lesson's own (here, tokens), and a move changes
exactly that input."""

from __future__ import annotations

import json

import pytest

from attention_lessons.engine import (
    PLAIN_INPUTS,
    Explore,
    Input,
    StateError,
    drag,
    explorable,
    explored_fixture,
    fixed_points,
    move,
    parse_fixture,
    point_ids,
    point_name,
    step,
)

TOKENS = (Input("tokens", ("n", 2), "token"), Input("w_q", (2, 2)))
OWN = parse_fixture(json.dumps({"tokens": [[1, 0], [0, 1], [1, 1]], "w_q": [[1, 2], [0, -1]]}),
                    TOKENS)
PLAIN = parse_fixture(json.dumps({"query": [2, -1], "keys": [[1, 0], [0, 1]],
                                  "values": [[5, 5], [6, 6]]}), PLAIN_INPUTS)


def test_the_plain_head_moves_its_query_then_its_keys() -> None:
    assert point_ids(PLAIN) == ("query", "key_1", "key_2")
    assert fixed_points(PLAIN) == {"query": (2.0, -1.0), "key_1": (1.0, 0.0), "key_2": (0.0, 1.0)}
    moved = explored_fixture(PLAIN, move(Explore(), PLAIN, "key_2", 0.5, -0.5))
    assert moved.keys == ((1.0, 0.0), (0.5, -0.5))
    assert moved.query == PLAIN.query
    assert moved.values == PLAIN.values


def test_a_lesson_of_its_own_inputs_moves_the_points_it_declares_and_nothing_else() -> None:
    assert point_ids(OWN) == ("token_1", "token_2", "token_3")
    assert point_name("token_3") == "token 3"
    assert explorable(OWN)
    explore = step(move(Explore(), OWN, "token_3", -1, 2), OWN, "token_1", "ArrowUp")
    explore = drag(explore, OWN, "token_2", 0.5, 0.5)
    moved = explored_fixture(OWN, explore)
    assert moved.matrix("tokens") == ((1.0, 0.1), (0.0, 0.0), (-1.0, 2.0))
    assert moved.matrix("w_q") == OWN.matrix("w_q")
    assert moved.declared == TOKENS


@pytest.mark.parametrize("point", ["query", "key_1", "token_4", "w_q"])
def test_a_point_the_lesson_does_not_declare_cannot_move(point: str) -> None:
    with pytest.raises(StateError, match="There is no point called"):
        move(Explore(), OWN, point, 0, 0)


def test_a_lesson_with_no_movable_point_or_one_off_the_plane_is_not_explorable() -> None:
    still = parse_fixture(json.dumps({"w_q": [[1, 2], [0, -1]]}), (Input("w_q", (2, 2)),))
    assert point_ids(still) == ()
    assert not explorable(still)
    wide = (Input("tokens", ("n", 3), "token"),)
    assert not explorable(parse_fixture(json.dumps({"tokens": [[1, 0, 0]]}), wide))

"""A lesson computes what it likes on the way to its heads, from inputs of its own: its
intermediates ride in the worked lesson, its step tables can show any of them, and the CLI's
text and JSON carry them and the inputs at full precision."""

from __future__ import annotations

import json
from collections.abc import Mapping

import numpy as np

from attention_lessons import LESSONS, cli
from attention_lessons.engine import (
    Fixture,
    HeadTrace,
    Input,
    Lesson,
    Matrix,
    Step,
    Vector,
    Worked,
    attend,
    listing,
    parse_fixture,
    work,
)
from attention_lessons.views.heads import head_view
from strategies import assert_close, numpy_attention

INPUTS = (Input("token", (2,), "token"), Input("w_q", (2, 2)), Input("keys", ("n", 2)),
          Input("values", ("n", 2)))
FIXTURE = parse_fixture(json.dumps({"name": "projected", "token": [1, 2], "w_q": [[0, 1], [1, 1]],
                                    "keys": [[1, 0], [0, 1]], "values": [[1, 0], [0, 2]]}),
                        INPUTS)


def projected(fixture: Fixture) -> Vector:
    w, x = fixture.matrix("w_q"), fixture.vector("token")
    return tuple(sum(a * b for a, b in zip(row, x, strict=True)) for row in w)


class Projected(Lesson):
    """A plain lesson whose query is computed: W_Q times the token."""

    def fitting_prediction(self, worked: Worked) -> str | None:
        return None

    def shown(self, worked: Worked) -> str:
        return self.largest(worked.heads[0])

    def reading_feedback(self, reading: str, worked: Worked) -> str:
        return "Right."

    def hint_question(self, worked: Worked) -> str:
        return "What is W_Q times the token?"

    def intermediates(self, fixture: Fixture) -> Mapping[str, Vector | Matrix]:
        return {"query, W_Q times the token": projected(fixture)}

    def compute_heads(self, fixture: Fixture, scale: float | None = None) -> tuple[HeadTrace, ...]:
        return (attend(projected(fixture), fixture.matrix("keys"), fixture.matrix("values"),
                       scale),)

    def step_rows(self, worked: Worked, index: int) -> tuple[Step, ...]:
        query = projected(worked.fixture)
        (name,) = worked.intermediates
        return (Step(name, listing(query)), *super().step_rows(worked, index))


# The first lesson's prose and questions, its inputs and computation this module's.
LESSON = Projected(**{**vars(next(iter(LESSONS.values()))), "inputs": INPUTS})


def test_the_intermediates_ride_in_the_worked_lesson_and_match_numpy() -> None:
    worked = work(LESSON, FIXTURE)
    w, x = np.array(FIXTURE.matrix("w_q")), np.array(FIXTURE.vector("token"))
    assert_close(worked.intermediates["query, W_Q times the token"], w @ x)
    oracle = numpy_attention(w @ x, FIXTURE.matrix("keys"), FIXTURE.matrix("values"))
    assert_close(worked.heads[0].weights, oracle["weights"])


def test_a_step_table_shows_an_intermediate() -> None:
    steps = head_view(0, work(LESSON, FIXTURE)).steps
    assert steps[0] == Step("query, W_Q times the token", "2.0000, 3.0000")
    assert steps[1].label == "scores, query times key"


def test_the_cli_prints_the_inputs_and_the_intermediates_in_text_and_json() -> None:
    worked = work(LESSON, FIXTURE)
    record = cli.as_json(worked)
    assert record["inputs"]["w_q"] == ((0.0, 1.0), (1.0, 1.0))
    assert record["intermediates"] == {"query, W_Q times the token": (2.0, 3.0)}
    text = cli.as_text(worked)
    assert "Along the way" in text
    assert f"  {'query, W_Q times the token':<40}2, 3" in text.splitlines()

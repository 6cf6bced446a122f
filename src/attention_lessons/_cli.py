"""The command line: print a lesson's step tables and outputs, as text or as JSON."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from ._attention import HeadTrace, attend
from ._d8 import HEAD_NAMES, compute
from ._errors import FixtureError
from ._fixture import Fixture, parse_fixture
from ._format import decimals, exact, listing

FIXTURE = "attention-8.2.json"
# A source checkout keeps the fixtures at the top of the repository; a wheel ships them inside.
CHECKOUT_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


def load_fixture(name: str = FIXTURE) -> Fixture:
    """Load a fixture shipped with the installed package, or from the checkout's fixtures/."""
    try:
        text = resources.files("attention_lessons.fixtures").joinpath(name).read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        text = (CHECKOUT_FIXTURES / name).read_text(encoding="utf-8")
    return parse_fixture(text)


def head_record(name: str, head: HeadTrace) -> dict[str, Any]:
    """One head's full trace at full precision, keyed by the names the step table uses."""
    return {
        "head": name, "dimension": len(head.query), "query": head.query, "keys": head.keys,
        "values": head.values, "scores": head.scores, "scale": head.scale,
        "scaled": head.scaled, "exps": head.exps, "total": head.total,
        "weights": head.weights, "output": head.output,
    }


def lesson_82(fixture: Fixture) -> dict[str, Any]:
    """Lesson 8.2, attention by hand: one head over the whole two-dimensional fixture."""
    single = attend(fixture.query, fixture.keys, fixture.values)
    return {"lesson": "8.2", "title": "Attention by hand", "fixture": fixture.name,
            "heads": [head_record("single", single)]}


def lesson_d8(fixture: Fixture) -> dict[str, Any]:
    """Deep dive D8: two heads of dimension one beside the single head, and their differences."""
    numbers = compute(fixture)
    heads = [head_record(n, h) for n, h in zip(HEAD_NAMES, numbers.heads, strict=True)]
    return {"lesson": "d8", "title": "Two heads of dimension one", "fixture": fixture.name,
            "heads": [*heads, head_record("single", numbers.single)],
            "concatenated": numbers.concatenated, "differences": numbers.differences}


LESSONS: dict[str, Callable[[Fixture], dict[str, Any]]] = {"8.2": lesson_82, "d8": lesson_d8}


def step_table(record: dict[str, Any]) -> list[str]:
    """A head's step table as the lesson pages print it: integers exact, the rest 4 decimals."""
    d = record["dimension"]
    title = ("single head" if record["head"] == "single"
             else f"head {record['head']}, coordinate {HEAD_NAMES.index(record['head']) + 1}")
    rows = [
        ("scores, query times key", listing(record["scores"], exact)),
        (f"scaled by 1 over the square root of {d}", listing(record["scaled"], exact)),
        ("exponentials", listing(record["exps"])),
        ("their sum", decimals(record["total"])),
        ("weights", listing(record["weights"])),
        ("output, weights against values", listing(record["output"])),
    ]
    lines = [f"{title} (scale 1/sqrt({d}) = {exact(record['scale'])})"]
    return lines + [f"  {label:<40}{value}" for label, value in rows]


def as_text(record: dict[str, Any]) -> str:
    """The whole lesson as plain text: a title, each head's step table, then any comparison."""
    lines = [f"{record['lesson']} · {record['title']} ({record['fixture']})"]
    for head in record["heads"]:
        lines += ["", *step_table(head)]
    if "concatenated" in record:
        single = record["heads"][-1]["output"]
        lines += ["", "heads A and B joined against the single head",
                  f"  {'concatenated heads':<40}{listing(record['concatenated'])}",
                  f"  {'single head':<40}{listing(single)}",
                  f"  {'difference':<40}{listing(record['differences'])}"]
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    """Parse the arguments, print the lesson and return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m attention_lessons",
        description="Print a lesson's step tables and outputs, computed from its fixture.")
    parser.add_argument("lesson", choices=sorted(LESSONS), help="the lesson: 8.2 or d8")
    parser.add_argument("--json", action="store_true", help="print full precision as JSON")
    args = parser.parse_args(argv)  # a bad argument: usage on stderr and exit status 2
    try:
        record = LESSONS[args.lesson](load_fixture(FIXTURE))
    except (OSError, FixtureError) as exc:
        parser.exit(1, f"{parser.prog}: cannot load {FIXTURE}: {exc}\n")
    print(json.dumps(record, indent=2) if args.json else as_text(record))
    return 0

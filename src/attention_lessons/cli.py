"""The command line: print a lesson's step tables and outputs, as text or as JSON."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .engine import (
    Explore,
    Fixture,
    FixtureError,
    HeadTrace,
    Lesson,
    LessonError,
    Matrix,
    Step,
    Vector,
    Worked,
    exact,
    explore_work,
    lesson_fixture,
    listing,
    move,
    parse_number,
    plain_scale_text,
    plain_step_rows,
    point_ids,
    work,
)
from .lessons import LESSONS

# A source checkout keeps the fixtures at the top of the repository; a wheel ships them inside.
CHECKOUT_FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
# Each lesson by the names a learner knows it by: its code ("8.2", as the track prints it)
# and its page's folder ("8-2"); D8's are the same, "d8", in lower case as in its URL.
NAMES = {name: lesson for lesson in LESSONS.values()
         for name in {lesson.code.lower(), lesson.slug}}
REFERENCE = "single"  # the name the JSON gives a lesson's reference head


def fixtures_folder() -> Path:
    """The fixtures the installed package ships (attention_lessons/fixtures/), or, run from the
    checkout, the checkout's fixtures/."""
    shipped = Path(__file__).resolve().parent / "fixtures"
    return shipped if shipped.is_dir() else CHECKOUT_FIXTURES


def head_record(name: str, head: HeadTrace) -> dict[str, Any]:
    """One head's full trace at full precision, keyed by the names the step table uses."""
    return {
        "head": name, "dimension": len(head.query), "query": head.query, "keys": head.keys,
        "values": head.values, "scores": head.scores, "scale": head.scale,
        "scaled": head.scaled, "exps": head.exps, "total": head.total,
        "weights": head.weights, "output": head.output,
    }


def as_json(worked: Worked) -> dict[str, Any]:
    """The lesson's every intermediate at full precision."""
    lesson = worked.lesson
    heads = [head_record(spec.id, head)
             for spec, head in zip(lesson.heads, worked.heads, strict=True)]
    record: dict[str, Any] = {"lesson": lesson.code, "title": lesson.title,
                              "fixture": worked.fixture.name, "inputs": dict(worked.fixture.inputs),
                              "intermediates": dict(worked.intermediates), "heads": heads}
    if worked.single is not None:
        record.update(reference=head_record(REFERENCE, worked.single),
                      concatenated=worked.concatenated, differences=worked.differences)
    return record


def table(title: str, scale: str, steps: Sequence[Step]) -> list[str]:
    """A head's step table under its title and scale, as the lesson page prints it."""
    return [f"{title} ({scale})", *rows(steps)]


def rows(steps: Sequence[Step]) -> list[str]:
    return [f"  {step.label:<40}{step.value}" for step in steps]


def spelled(numbers: Vector | Matrix) -> str:
    """A vector as its entries, a matrix as its rows: "1, 0.5000" or "[1, 0], [0, 1]"."""
    matrix = [row for row in numbers if isinstance(row, tuple)]
    if matrix:
        return ", ".join(f"[{listing(row, exact)}]" for row in matrix)
    return listing((x for x in numbers if isinstance(x, float)), exact)


def as_text(worked: Worked) -> str:
    """The lesson as plain text: a title, each head's step table, then any comparison."""
    lesson = worked.lesson
    lines = [f"{lesson.code} · {lesson.title} ({worked.fixture.name})"]
    if worked.intermediates:
        lines += ["", "Along the way", *rows([Step(name, spelled(numbers))
                                              for name, numbers in worked.intermediates.items()])]
    for index, (spec, head) in enumerate(zip(lesson.heads, worked.heads, strict=True)):
        lines += ["", *table(spec.title, lesson.scale_text(head), lesson.step_rows(worked, index))]
    if lesson.comparison is not None and worked.single is not None:
        c, differences = lesson.comparison, worked.differences or ()
        # A reference head is a plain scaled dot-product head, whatever the lesson's own heads do.
        single = worked.single
        lines += ["", *table(c.reference, plain_scale_text(single), plain_step_rows(single)),
                  "", c.caption]
        lines += rows([Step(c.concatenated, listing(worked.concatenated)),
                       Step(c.reference, listing(worked.single.output)),
                       Step("difference", listing(differences))])
    return "\n".join(lines)


def coordinates(text: str) -> tuple[float, float]:
    """Read "1,0.5" as a point, each coordinate by the package's own parser."""
    parts = text.split(",")
    if len(parts) != 2:
        raise LessonError(f"expected two coordinates, x,y, got {text!r}")
    x, y = (parse_number(part).value for part in parts)
    return x, y


def explored(fixture: Fixture, query: str | None, keys: Sequence[str],
             moves: Sequence[str] = ()) -> Explore:
    """Move the points named on the command line, as Explore does: the query, key N ("2=0,1"
    is key 2 at 0, 1), or any point the lesson declares ("token_3=0,1")."""
    explore = Explore()
    if query is not None:
        explore = move(explore, fixture, "query", *coordinates(query))
    for given in keys:
        number, _, at = given.partition("=")
        # ASCII digits only: "²".isdigit() holds and int("２") is 2, neither a key's name here
        keys_here = [p for p in point_ids(fixture) if p.startswith("key_")]
        if not (number.isascii() and number.isdigit()) or f"key_{number}" not in keys_here:
            raise LessonError(f"--key {given}: name a key from 1 to {len(keys_here)}, "
                              "as in 2=0,1")
        explore = move(explore, fixture, f"key_{number}", *coordinates(at))
    for given in moves:
        point, _, at = given.partition("=")
        if point not in point_ids(fixture):
            named = ", ".join(point_ids(fixture)) or "none"
            raise LessonError(f"--move {given}: this lesson's points are {named}")
        explore = move(explore, fixture, point, *coordinates(at))
    return explore


def main(argv: Sequence[str]) -> int:
    """Parse the arguments, print the lesson and return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m attention_lessons",
        description="Print a lesson's step tables and outputs, computed from its fixture.")
    parser.add_argument("lesson", choices=sorted(NAMES),
                        help="the lesson, by its code or its folder")
    parser.add_argument("--json", action="store_true", help="print full precision as JSON")
    parser.add_argument("--query", metavar="X,Y", help="move the query, as Explore does")
    parser.add_argument("--key", metavar="N=X,Y", action="append", default=[],
                        help="move key N (from 1), as Explore does; give it once a key")
    parser.add_argument("--move", metavar="POINT=X,Y", action="append", default=[],
                        help="move any point the lesson's Explore moves (token_3=1,0.5)")
    args = parser.parse_args(argv)  # a bad argument: usage on stderr and exit status 2
    lesson: Lesson = NAMES[args.lesson]
    try:
        fixture = lesson_fixture(lesson, fixtures_folder())
        worked = work(lesson, fixture)
    except (OSError, FixtureError) as exc:
        parser.exit(1, f"{parser.prog}: cannot load {lesson.fixture}: {exc}\n")
    if args.query is not None or args.key or args.move:
        try:
            moved = explored(fixture, args.query, args.key, args.move)
            worked = explore_work(lesson, fixture, moved)
        except LessonError as exc:
            parser.error(str(exc))  # usage and exit status 2, as for any bad argument
    print(json.dumps(as_json(worked), indent=2) if args.json else as_text(worked))
    return 0

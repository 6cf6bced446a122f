"""Load an attention fixture from JSON and check its shape, naming any field that is wrong."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from .attention import Matrix, Vector
from .errors import FixtureError
from .numbers import finite_float


@dataclass(frozen=True)
class Fixture:
    """A query, its keys and their values, all of one dimension."""

    name: str
    query: Vector
    keys: Matrix
    values: Matrix

    @property
    def dimension(self) -> int:
        """Return the dimension every vector shares."""
        return len(self.query)


def _vector(raw: Any, field: str, length: int | None) -> Vector:
    if not isinstance(raw, list) or not raw:
        raise FixtureError(f"{field}: expected a non-empty list of numbers")
    if length is not None and len(raw) != length:
        raise FixtureError(f"{field}: expected {length} numbers, got {len(raw)}")
    numbers = []
    for i, x in enumerate(raw):
        number = finite_float(x)
        if number is None:
            raise FixtureError(f"{field}[{i}]: expected a finite number, got {x!r}")
        numbers.append(number)
    return tuple(numbers)


def _matrix(raw: Any, field: str, width: int, rows: int | None) -> Matrix:
    if not isinstance(raw, list) or not raw:
        raise FixtureError(f"{field}: expected a non-empty list of vectors")
    if rows is not None and len(raw) != rows:
        raise FixtureError(f"{field}: expected {rows} vectors, one per key, got {len(raw)}")
    return tuple(_vector(row, f"{field}[{i}]", width) for i, row in enumerate(raw))


def parse_fixture(text: str) -> Fixture:
    """Parse fixture JSON text, raising FixtureError that names the offending field."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise FixtureError(f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except (ValueError, RecursionError):
        # Python refuses integers of more than 4300 digits, and nesting deeper than its stack.
        raise FixtureError("not valid JSON: nested too deeply or a number too long") from None
    if not isinstance(raw, dict):
        raise FixtureError("expected a JSON object with query, keys and values")
    for field in ("query", "keys", "values"):
        if field not in raw:
            raise FixtureError(f"{field}: missing")
    name = raw.get("name", "fixture")
    if not isinstance(name, str):
        raise FixtureError("name: expected text")
    query = _vector(raw["query"], "query", None)
    keys = _matrix(raw["keys"], "keys", len(query), None)
    values = _matrix(raw["values"], "values", len(query), len(keys))
    return Fixture(name=name, query=query, keys=keys, values=values)


def load_fixture(name: str, folder: str | os.PathLike[str]) -> Fixture:
    """Read and check the fixture file `name` in `folder`: the checkout's fixtures/, the one the
    package ships, or the one the browser's archive unpacks."""
    with open(os.path.join(folder, name), encoding="utf-8") as fixture_file:
        return parse_fixture(fixture_file.read())

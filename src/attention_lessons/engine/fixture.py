"""A lesson's inputs: what it declares (named vectors and matrices, each with its shape), and a
fixture's JSON read against that declaration, naming any field that is wrong and how."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from .attention import Matrix, Vector
from .errors import FixtureError
from .numbers import finite_float

Dimension = int | str  # a fixed size, or a size named once and shared by every input naming it


@dataclass(frozen=True)
class Input:
    """One input a lesson declares: a vector (one dimension) or a matrix (rows, then columns).

    A dimension that is a name ("n", "d") may take any size, the same wherever it is named: the
    first input that names it sets it."""

    name: str
    shape: tuple[Dimension] | tuple[Dimension, Dimension]
    # What a learner calls it on Explore's plane, where it moves: a vector is one point ("query")
    # and a matrix's rows are points numbered from 1 ("key" names key 1, key 2, ...); None
    # where it stays put.
    point: str | None = None

    @property
    def called(self) -> str:
        """What a learner calls it as a whole: "query"; a matrix's points, "keys"."""
        name = self.point or self.name
        return f"{name}s" if self.is_matrix else name

    @property
    def is_matrix(self) -> bool:
        return len(self.shape) == 2

    def point_ids(self, rows: int) -> tuple[str, ...]:
        """Name its movable points, given how many rows it has: "query", or "key_1", "key_2"."""
        if self.point is None:
            return ()
        return tuple(f"{self.point}_{i + 1}" for i in range(rows)) if self.is_matrix \
            else (self.point,)


# The plain head's inputs: a query, and n keys with their values, all of dimension d. The query
# and the keys move on Explore's plane; the values stay the fixture's.
# (Annotated, so that mypy knows its type inside an import circle, as a planted one makes.)
PLAIN_INPUTS: tuple[Input, ...] = (
    Input("query", ("d",), "query"), Input("keys", ("n", "d"), "key"), Input("values", ("n", "d")))


@dataclass(frozen=True)
class Fixture:
    """A lesson's inputs by name, each of the shape the lesson declares."""

    name: str
    inputs: Mapping[str, Vector | Matrix]
    declared: tuple[Input, ...] = PLAIN_INPUTS  # what the lesson reading it declares

    def vector(self, name: str) -> Vector:
        """Return the input `name`, a vector."""
        return cast(Vector, self.inputs[name])  # a vector by the lesson's declaration

    def matrix(self, name: str) -> Matrix:
        """Return the input `name`, a matrix (its rows)."""
        return cast(Matrix, self.inputs[name])  # a matrix by the lesson's declaration

    def with_inputs(self, name: str, **changed: Vector | Matrix) -> Fixture:
        """The same fixture, renamed, with some inputs changed (each of its declared shape)."""
        return Fixture(name, {**self.inputs, **changed}, self.declared)

    # The plain head's inputs (PLAIN_INPUTS), for the lessons that declare them.
    @property
    def query(self) -> Vector:
        return self.vector("query")

    @property
    def keys(self) -> Matrix:
        return self.matrix("keys")

    @property
    def values(self) -> Matrix:
        return self.matrix("values")

    @property
    def dimension(self) -> int:
        """Return the dimension the query and every key and value share."""
        return len(self.query)


class _Sizes:
    """The named sizes, each set by the first input that names it."""

    def __init__(self) -> None:
        self.known: dict[str, tuple[int, str]] = {}  # a size's name: its size, who set it

    def expect(self, dimension: Dimension, got: int, field: str, unit: str) -> None:
        """Hold `got`, the size of `field` along `dimension`, to the size expected there."""
        if isinstance(dimension, int):
            if got != dimension:
                raise FixtureError(f"{field}: expected {dimension} {unit}s, got {got}")
        elif dimension not in self.known:
            self.known[dimension] = (got, field)
        elif got != (size := self.known[dimension])[0]:
            raise FixtureError(f"{field}: expected {size[0]} {unit}s ({dimension} = {size[0]}, "
                               f"as in {size[1]}), got {got}")


def _vector(raw: Any, field: str, length: Dimension, sizes: _Sizes) -> Vector:
    if not isinstance(raw, list) or not raw:
        raise FixtureError(f"{field}: expected a non-empty list of numbers")
    sizes.expect(length, len(raw), field, "number")
    numbers = []
    for i, x in enumerate(raw):
        number = finite_float(x)
        if number is None:
            raise FixtureError(f"{field}[{i}]: expected a finite number, got {x!r}")
        numbers.append(number)
    return tuple(numbers)


def _matrix(raw: Any, field: str, rows: Dimension, width: Dimension, sizes: _Sizes) -> Matrix:
    if not isinstance(raw, list) or not raw:
        raise FixtureError(f"{field}: expected a non-empty list of rows")
    sizes.expect(rows, len(raw), field, "row")
    return tuple(_vector(row, f"{field}[{i}]", width, sizes) for i, row in enumerate(raw))


def _decoded(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FixtureError(f"not valid JSON: {exc.msg} at line {exc.lineno}") from None
    except (ValueError, RecursionError):
        # Python refuses integers of more than 4300 digits, and nesting deeper than its stack.
        raise FixtureError("not valid JSON: nested too deeply or a number too long") from None


def parse_fixture(text: str, inputs: tuple[Input, ...] = PLAIN_INPUTS) -> Fixture:
    """Parse fixture JSON text holding exactly the inputs declared (and a name, if it likes),
    raising FixtureError that names the offending field, the shape expected and the one found."""
    names = [put.name for put in inputs]
    raw = _decoded(text)
    if not isinstance(raw, dict):
        raise FixtureError(f"expected a JSON object with {', '.join(names)}")
    for field in names:
        if field not in raw:
            raise FixtureError(f"{field}: missing")
    for field in raw:
        if field != "name" and field not in names:
            raise FixtureError(f"{field}: not an input of this lesson, which takes "
                               f"{', '.join(names)}")
    name = raw.get("name", "fixture")
    if not isinstance(name, str):
        raise FixtureError("name: expected text")
    sizes = _Sizes()
    read: dict[str, Vector | Matrix] = {}
    for put in inputs:
        given, first, last = raw[put.name], put.shape[0], put.shape[-1]
        read[put.name] = (_matrix(given, put.name, first, last, sizes) if put.is_matrix
                          else _vector(given, put.name, first, sizes))
    return Fixture(name=name, inputs=read, declared=inputs)


def load_fixture(name: str, folder: str | os.PathLike[str],
                 inputs: tuple[Input, ...] = PLAIN_INPUTS) -> Fixture:
    """Read and check the fixture file `name` in `folder` (the checkout's fixtures/, the one the
    package ships, or the one the browser's archive unpacks) against the inputs declared."""
    with open(os.path.join(folder, name), encoding="utf-8") as fixture_file:
        return parse_fixture(fixture_file.read(), inputs)

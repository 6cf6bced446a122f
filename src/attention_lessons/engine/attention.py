"""Scaled dot-product attention traced step by step; heads, concatenation and projection."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

Vector = tuple[float, ...]
Matrix = tuple[Vector, ...]


@dataclass(frozen=True)
class HeadTrace:
    """Every intermediate of one head, named as the step table names it."""

    query: Vector
    keys: Matrix
    values: Matrix
    scores: Vector
    scale: float
    scaled: Vector
    exps: Vector
    total: float
    weights: Vector
    output: Vector


def _exp(x: float) -> float:
    # The step table shows e**scaled as printed in the spec; beyond float range it is honestly inf.
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    """Return the dot product of two equal-length vectors."""
    return math.fsum(x * y for x, y in zip(a, b, strict=True))


def softmax(scaled: Sequence[float]) -> Vector:
    """Return weights that sum to 1, stable for large inputs because the max is subtracted first."""
    top = max(scaled)
    shifted = [math.exp(x - top) for x in scaled]
    total = math.fsum(shifted)
    return tuple(x / total for x in shifted)


def attend(query: Sequence[float], keys: Sequence[Sequence[float]],
           values: Sequence[Sequence[float]], scale: float | None = None) -> HeadTrace:
    """Run one head of scaled dot-product attention and return its full trace.

    The scale is one over the square root of the dimension unless an experiment sets it."""
    scores = tuple(dot(query, key) for key in keys)
    scale = 1.0 / math.sqrt(len(query)) if scale is None else scale
    scaled = tuple(score * scale for score in scores)
    exps = tuple(_exp(x) for x in scaled)
    total = math.fsum(exps)
    weights = softmax(scaled)
    output = tuple(math.fsum(w * value[j] for w, value in zip(weights, values, strict=True))
                   for j in range(len(values[0])))
    return HeadTrace(
        query=tuple(query), keys=tuple(tuple(k) for k in keys),
        values=tuple(tuple(v) for v in values), scores=scores, scale=scale, scaled=scaled,
        exps=exps, total=total, weights=weights, output=output,
    )


def split_heads(query: Sequence[float], keys: Sequence[Sequence[float]],
                values: Sequence[Sequence[float]], bounds: Sequence[int],
                scale: float | None = None) -> tuple[HeadTrace, ...]:
    """Run one head per coordinate slice; bounds [0, 1, 2] cuts two heads of dimension one."""
    slices = [slice(lo, hi) for lo, hi in itertools.pairwise(bounds)]
    return tuple(attend(query[s], [k[s] for k in keys], [v[s] for v in values], scale)
                 for s in slices)


def concat(heads: Sequence[HeadTrace]) -> Vector:
    """Join the heads' outputs into one vector, in head order."""
    return tuple(x for head in heads for x in head.output)


def project(matrix: Sequence[Sequence[float]], vector: Sequence[float]) -> Vector:
    """Multiply the vector by the output projection: entry r is row r against the vector."""
    return tuple(dot(row, vector) for row in matrix)

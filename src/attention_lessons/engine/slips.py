"""Slips any lesson's head can name: a number from another step of the same head."""

from __future__ import annotations

import math

from .attention import HeadTrace
from .lesson import Slip


def exponential(head: HeadTrace, k: int) -> Slip:
    """Key k's exponential, typed where its weight was asked: the division by the sum left out."""
    return Slip(head.exps[k], f"That is key {k + 1}'s exponential. Divide it by the sum to get "
                              "the weight.")


def even_weight(head: HeadTrace) -> Slip:
    """One over the number of keys: the weight every key would get if the scores were equal."""
    return Slip(1 / len(head.scores), "That is one over the number of keys, the weight every key "
                                      "would get if all the scores were equal.")


def plain_average(head: HeadTrace, j: int) -> Slip:
    """The values' entry j averaged without the weights."""
    return Slip(math.fsum(v[j] for v in head.values) / len(head.values),
                "That is the plain average of the values. Weight each value by its key's weight.")

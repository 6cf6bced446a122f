"""Slips any lesson's head can name: a number from another step of the same head."""

from __future__ import annotations

import math

from .attention import HeadTrace
from .lesson import Slip
from .words import PLAIN_WORDS, Words


def exponential(head: HeadTrace, k: int, words: Words = PLAIN_WORDS) -> Slip:
    """Key k's exponential, typed where its weight was asked: the division by the sum left out."""
    return Slip(head.exps[k], f"That is {words.key} {k + 1}'s exponential. Divide it by the sum "
                              "to get the weight.")


def even_weight(head: HeadTrace, words: Words = PLAIN_WORDS) -> Slip:
    """One over the number of keys: the weight every key would get if the scores were equal."""
    return Slip(1 / len(head.scores), f"That is one over the number of {words.keys}, the weight "
                                      f"every {words.key} would get if all the scores were equal.")


def plain_average(head: HeadTrace, j: int, words: Words = PLAIN_WORDS) -> Slip:
    """The values' entry j averaged without the weights."""
    return Slip(math.fsum(v[j] for v in head.values) / len(head.values),
                f"That is the plain average of the {words.values}. Weight each {words.value} by "
                f"its {words.key}'s weight.")

"""Each lesson's end-to-end plan, one module a lesson, named as the lesson's module is.

A plan is what a learner types and reads on that lesson; the shared end-to-end checks (the
journey, the track, the trimmed runtime, axe, the notebook, offline) run every plan in track
order, so a lesson is covered as soon as it is registered and has its plan beside it here.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Mapping
from dataclasses import dataclass

from attention_lessons.lessons import LESSONS

Typed = tuple[tuple[str, str, str], ...]  # (field's label, what is typed, how the page reads it)


@dataclass(frozen=True)
class ProjectionPlan:
    """A lesson's output projection as printed: its heads concatenated, then through two
    matrices (row 1's first entry slid to 2, then the two rows swapped)."""

    concatenated: tuple[str, str]
    doubled: tuple[str, str]
    swapped: tuple[str, str]


@dataclass(frozen=True)
class Plan:
    """One lesson as a learner works it: where it is, and right and wrong things to do on it."""

    slug: str
    right_prediction: str
    wrong_prediction: str
    heads: Mapping[str, str]  # each head's panel, by name, and how its summary ends
    right_answers: Mapping[str, str]
    wrong_answers: Mapping[str, str]  # a slip or two and an unreadable answer
    one_wrong: Mapping[str, str]  # one more wrong value, for one more evaluated run
    right_reading: str
    wrong_reading: str
    wrong_reading_says: re.Pattern[str]  # the start of the feedback the wrong reading gets
    slips: Mapping[str, str]  # what the feedback says beside each of the wrong answers
    typed: Typed  # good, bad and odd input, one new value per Check
    hint: re.Pattern[str]  # how the first hint rung starts
    compare: str  # what Compare says to the wrong prediction
    notebook: tuple[str, ...]  # lines the lesson's notebook prints, as patterns
    projection: ProjectionPlan | None = None  # for a lesson that has an output projection


def _plans() -> dict[str, Plan]:
    found: dict[str, Plan] = {}
    for module in pkgutil.iter_modules(__path__):
        plan = importlib.import_module(f"{__name__}.{module.name}").PLAN
        found[plan.slug] = plan
    return found


def plans() -> tuple[Plan, ...]:
    """Every registered lesson's plan, in track order; a lesson without one is an error."""
    found = _plans()
    missing = [slug for slug in LESSONS if slug not in found]
    if missing:
        raise LookupError(f"no end-to-end plan for {', '.join(missing)}: write one in "
                          "tests/e2e/plans/, named as the lesson's module")
    return tuple(found[slug] for slug in LESSONS)


PLANS = plans()

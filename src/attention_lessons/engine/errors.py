"""The one error family the package raises, so callers never meet a bare KeyError."""

from __future__ import annotations


class LessonError(ValueError):
    """Something the learner, a fixture or a saved record got wrong, with a message to show."""


class FixtureError(LessonError):
    """A fixture file is malformed; the message names the field and the problem."""


class ParseError(LessonError):
    """Typed text could not be read as a number; the message says why, in plain words."""


class StateError(LessonError):
    """A saved progress record is malformed or from an unknown version."""

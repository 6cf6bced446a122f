"""What a lesson calls the things its heads compare. The engine's sentences (step tables, the
largest weight, named slips, Explore's text) take these words from the lesson and never name a
lesson's nouns themselves; the plain head's are the defaults."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Words:
    """A lesson's nouns, one and several: "key 3", "keys 1 and 3"."""

    query: str = "query"
    key: str = "key"
    keys: str = "keys"
    value: str = "value"
    values: str = "values"
    key_vector: str = ""  # what the per-key table heads the key's own vector; "key value" if ""


PLAIN_WORDS: Words = Words()

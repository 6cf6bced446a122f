"""Numbers as the page prints them: four decimals, or a plain integer where the value is one."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from .words import PLAIN_WORDS, Words

DECIMALS = 4
_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def decimals(x: float) -> str:
    """Return x rounded from full precision to four decimals, never as "-0.0000"."""
    text = f"{x:.{DECIMALS}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def exact(x: float) -> str:
    """Return an integral value as an integer ("2", "-1", never "-0"), anything else as decimals."""
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    return decimals(x)


def listing(xs: Iterable[float], one: Callable[[float], str] = decimals) -> str:
    """Return the numbers joined by commas, each printed by one."""
    return ", ".join(one(x) for x in xs)


def on_top(weights: Sequence[float]) -> list[int]:
    """Number (from 1) the keys whose weight prints as the largest: one, or several that tie.

    Ties are compared at the printed precision: keys that print alike must not be ranked."""
    top = decimals(max(weights))
    return [i + 1 for i, w in enumerate(weights) if decimals(w) == top]


def largest(weights: Sequence[float], words: Words = PLAIN_WORDS) -> str:
    """Say which key takes the largest weight, or which keys share it, in the lesson's words: a
    tie is never ranked."""
    top, winners = max(weights), on_top(weights)
    if len(winners) == 1:
        return f"The largest weight is {decimals(top)} on {words.key} {winners[0]}."
    names = with_and([str(k) for k in winners])
    return f"The largest weight, {decimals(top)}, is shared by {words.keys} {names}."


def with_and(items: Sequence[str]) -> str:
    """Join words as a sentence lists them: "1", "1 and 3", "1, 2 and 3"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def vector(xs: Iterable[float]) -> str:
    """Return a vector as the page prints it: [2, -1]."""
    return f"[{listing(xs, exact)}]"


def word(n: int) -> str:
    """Return a small count as a word ("six"), a larger one in digits."""
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)

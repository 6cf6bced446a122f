"""Numbers as the page prints them: four decimals, or a plain integer where the value is one."""

from __future__ import annotations

from collections.abc import Callable, Iterable

DECIMALS = 4


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

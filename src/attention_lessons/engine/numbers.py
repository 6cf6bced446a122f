"""Reads a number a learner typed, or says in plain words why it cannot be read."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass

from .errors import ParseError

__all__ = ["MAX_LENGTH", "Reading", "finite_float", "parse_number"]

MAX_LENGTH = 64

# Spelled out with [0-9] rather than \d or float() alone, because both also accept
# other scripts' digits, underscores, "nan" and "inf", none of which a learner means.
_PLAIN = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
# A comma after one to three digits (not starting with 0) and before exactly three
# is how thousands are grouped in English, so we cannot tell which was meant.
_GROUPED = re.compile(r"([+-]?[1-9][0-9]{0,2}),([0-9]{3})((?:[eE][+-]?[0-9]+)?)")
_NAN = re.compile(r"[+-]?nan", re.IGNORECASE)
_INFINITY = re.compile(r"[+-]?(?:inf|infinity|∞)", re.IGNORECASE)
_QUOTE_LIMIT = 20
# Control, format, private, unassigned, lone surrogate and line/paragraph separators
# would garble the message or break the page that shows it.
_HIDDEN = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})


@dataclass(frozen=True)
class Reading:
    """A number read from typed text, with the echo shown back to the learner."""

    value: float
    echo: str


def parse_number(text: str) -> Reading:
    """Read text as a decimal, scientific or a/b number, raising ParseError otherwise."""
    stripped = text.strip()
    # Before any other work, so pasting a novel into the field stays cheap.
    if len(stripped) > MAX_LENGTH:
        raise ParseError(f"That is too long to be a number (at most {MAX_LENGTH} characters).")
    if not stripped:
        raise ParseError("Type a number first.")
    # Typographic minus arrives from copied lesson text and some keyboards.
    normalized = stripped.replace("\N{MINUS SIGN}", "-")
    if _NAN.fullmatch(normalized):
        raise ParseError("NaN is not a number you can check; type a real value.")
    if _INFINITY.fullmatch(normalized):
        raise ParseError("Infinity can't be an answer here; type a finite number.")
    parts = normalized.split("/")
    if len(parts) == 1:
        value = _read_plain(normalized, stripped)
    elif len(parts) == 2:
        value = _read_fraction(parts[0].rstrip(), parts[1].lstrip(), stripped)
    else:
        raise ParseError(_not_a_number(stripped))
    # Negative zero would echo as "-0", which looks like a different answer.
    if value == 0:
        value = 0.0
    return Reading(value=value, echo=f"read as {_compact(value)}")


def finite_float(value: object) -> float | None:
    """Return a number decoded from JSON as a finite float, or None for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer too large to be a float
        return None
    return number if math.isfinite(number) else None


def _read_fraction(numerator: str, denominator: str, original: str) -> float:
    """Divide two plain numbers, refusing a zero, signed or overflowing denominator."""
    if denominator[:1] == "-":
        raise ParseError("Put the minus sign in front of the fraction, as in -1/2.")
    top = _read_plain(numerator, original)
    bottom = _read_plain(denominator, original)
    if bottom == 0:
        raise ParseError("Division by zero has no value; check the denominator.")
    quotient = top / bottom
    if not math.isfinite(quotient):
        raise ParseError("That number is too large to use.")
    return quotient


def _read_plain(number: str, original: str) -> float:
    """Read one signed decimal or scientific number, accepting a single decimal comma."""
    if "," in number:
        if number.count(",") > 1:
            raise ParseError(
                f"{_quote(number)} has more than one comma; type it without thousands "
                "separators, using a point for decimals."
            )
        if "." in number:
            raise ParseError(
                f"{_quote(number)} has both a comma and a point; type it without "
                "thousands separators, using a point for decimals."
            )
        grouped = _GROUPED.fullmatch(number)
        if grouped:
            head, tail, exponent = grouped.groups()
            as_decimal = _shorten(f"{head}.{tail}{exponent}")
            as_thousands = _shorten(f"{head}{tail}{exponent}")
            raise ParseError(
                f"{_quote(number)} could mean {as_decimal} or {as_thousands}; "
                "use a point for decimals."
            )
        number = number.replace(",", ".")
    if not _PLAIN.fullmatch(number):
        raise ParseError(_not_a_number(original))
    value = float(number)
    if not math.isfinite(value):
        raise ParseError("That number is too large to use.")
    return value


def _not_a_number(original: str) -> str:
    """Say that the text is not a number, quoting a shortened copy of it."""
    return f"{_quote(original)} is not a number. Type digits, such as 0.46 or 7/8."


def _quote(text: str) -> str:
    """Wrap shortened, printable text in curly quotes for a message."""
    return f"\N{LEFT DOUBLE QUOTATION MARK}{_shorten(text)}\N{RIGHT DOUBLE QUOTATION MARK}"


def _shorten(text: str) -> str:
    """Cut text to the quote limit with an ellipsis, masking invisible characters."""
    if len(text) > _QUOTE_LIMIT:
        text = text[: _QUOTE_LIMIT - 1] + "\N{HORIZONTAL ELLIPSIS}"
    return "".join(
        "\N{REPLACEMENT CHARACTER}" if unicodedata.category(char) in _HIDDEN else char
        for char in text
    )


def _compact(value: float) -> str:
    """Format value with up to six significant digits and a bare exponent."""
    mantissa, marker, exponent = f"{value:.6g}".partition("e")
    # "1e-05" reads oddly to a learner; "1e-5" says the same thing.
    return f"{mantissa}e{int(exponent)}" if marker else mantissa

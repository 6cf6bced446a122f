"""How deep JSON text nests, found before parsing it, in time linear in its length."""

from __future__ import annotations

from itertools import accumulate, count, islice
from operator import sub

MAX_DEPTH = 20  # a record nests 3 levels, a downloaded file 4

# Every step below is one pass of a C loop over the text (bytes methods and big integers), so
# a crafted text cannot make Python loop per character, nor a regex go back over what it read.
_OTHER = bytes(sorted(set(range(256)) - set(b'[]{}"')))  # deleted: they never nest
_ONE_KIND = bytes.maketrans(b"{}", b"[]")
_QUOTES = bytes.maketrans(b'[]"', b'001')
_OPENERS = bytes.maketrans(b"[]", b"10")
_KEEP = bytes.maketrans(b"01", b"\xff\x00")


def _steps(octet: int) -> tuple[int, int]:
    """Return the highest and the final depth, from 0, of the 8 brackets one byte packs
    (bit 1 opens, 0 closes, the first bracket the highest bit)."""
    depth = highest = 0
    for bit in range(7, -1, -1):
        depth += 1 if octet >> bit & 1 else -1
        highest = max(highest, depth)
    return highest, depth


# Per byte: its rise to its highest point, then its fall (0 to -16) from there, stored + 16.
_RISE = bytes(_steps(b)[0] for b in range(256))
_FALL = bytes(_steps(b)[1] - _steps(b)[0] + 16 for b in range(256))


def _outside_strings(data: bytes) -> bytes:
    """Drop the quotes and whatever is between each pair of them: the text of strings."""
    size = len(data)
    quotes = int(data.translate(_QUOTES), 2)
    inside, shift = quotes, 1
    while shift < size:  # each bit becomes the parity of the quotes up to it: a prefix XOR
        inside ^= inside >> shift
        shift *= 2
    keep = int.from_bytes(format(inside | quotes, f"0{size}b").encode().translate(_KEEP))
    return (int.from_bytes(data) & keep).to_bytes(size).translate(None, b"\0")


def depth_over(text: str, limit: int = MAX_DEPTH) -> bool:
    """Return whether JSON text nests deeper than `limit` outside its strings.

    Exact for JSON; for any other text it never says less than a parser could reach, since a
    parser stops at the first thing that is not JSON."""
    if text.count("[") + text.count("{") <= limit:
        return False
    data = text.encode("utf-8", "surrogatepass")  # no byte of a multibyte character is ASCII
    # Escapes first, as a JSON reader takes them, left to right: "\\" and then "\"".
    data = data.replace(b"\\\\", b"").replace(b'\\"', b"").translate(_ONE_KIND, _OTHER)
    if b'"' in data:
        data = _outside_strings(data)
    if data.count(b"[") <= limit:
        return False
    data += b"]" * (-len(data) % 8)  # closing brackets at the end never deepen it
    packed = int(data.translate(_OPENERS), 2).to_bytes(len(data) // 8)
    steps = bytearray(2 * len(packed))
    steps[0::2] = packed.translate(_RISE)
    steps[1::2] = packed.translate(_FALL)
    # The depth at each byte's highest point: the sum of every step so far, less the 16 added
    # to each fall before it.
    peaks = map(sub, islice(accumulate(steps), 0, None, 2), count(0, 16))
    return int(max(peaks)) > limit


def too_deep(text: str) -> bool:
    """Return whether JSON text nests deeper than any record does, before parsing it.

    In the browser, parsing thousands of levels overflows WebAssembly's stack before
    Python's recursion limit can turn it into an error, and that stops Python."""
    return depth_over(text, MAX_DEPTH)

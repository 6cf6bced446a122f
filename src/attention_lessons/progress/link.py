"""The progress link: the course's backup, compressed, in a URL fragment that no server sees."""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Mapping
from urllib.parse import unquote, urldefrag

from ..engine import Worked
from .backup import CourseIncoming, course_document, read_course
from .record import Progress, Unreadable
from .transfer import FAR_TOO_BIG, MAX_FILE, refused

LINK_KEY = "progress="
LINK_VERSION = 1
PREFIX = f"#{LINK_KEY}{LINK_VERSION}."
MAX_LINK = 50_000  # characters; a finished course of three lessons takes about 1,100
DAMAGED = ("is damaged: part of it is missing or changed (a link is often cut short when it is "
           "copied). Copy the whole link again")


def progress_link(progress: Mapping[str, Progress]) -> str:
    """Return the fragment that carries the course's backup: `#progress=1.` and the backup's
    JSON, deflated raw, sealed with its CRC-32 and base64url-encoded without padding."""
    text = json.dumps(course_document(progress), sort_keys=True, separators=(",", ":"))
    # The same stream as the browser's CompressionStream("deflate-raw"): zlib without header.
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = packer.compress(text.encode("utf-8")) + packer.flush()
    # Raw deflate carries no check of its own; the CRC-32 of the bytes sent finds every
    # single changed character (a burst of at most 6 bits) and every cut.
    sealed = body + zlib.crc32(body).to_bytes(4, "little")
    return PREFIX + base64.urlsafe_b64encode(sealed).rstrip(b"=").decode("ascii")


def _meant(fragment: str) -> str:
    # A messenger or a mail program may escape the link's "=" as "%3D": read it as written.
    return unquote(fragment.removeprefix("#"))


def holds_progress(fragment: str) -> bool:
    """Return whether a URL's fragment is meant as a progress link, good or bad: one cut short
    inside its "progress=" is one too."""
    meant = _meant(fragment)
    return meant.startswith(LINK_KEY) or (meant != "" and LINK_KEY.startswith(meant))


def unpack_link(fragment: str) -> str:
    """Return the backup's JSON text a progress link carries, bounded before each step: the
    link's length, then what it unpacks to; raises StateError with a clear message."""
    if len(fragment) > MAX_LINK:
        raise refused("link", f"is far too long to be progress copied from this site (over "
                              f"{MAX_LINK:,} characters)")
    if not holds_progress(fragment):
        raise refused("link", "holds no progress from this site")
    meant = _meant(fragment)
    if not meant.startswith(LINK_KEY):  # cut short before its data begins
        raise refused("link", DAMAGED)
    version, dot, payload = meant.removeprefix(LINK_KEY).partition(".")
    if version != str(LINK_VERSION):
        if dot and version.isascii() and version.isdigit() and int(version[:6]) > LINK_VERSION:
            raise refused("link", "was made by a newer version of this site. Reload the page "
                                  "to get the newest version, then open the link again")
        raise refused("link", DAMAGED)
    return _inflate(_unsealed(payload))


def read_link(fragment: str, current: Mapping[str, Progress | Unreadable],
              worked: Mapping[str, Worked]) -> CourseIncoming:
    """Check a progress link before anything changes, as a backup file is checked once
    unpacked, raising StateError with a clear message."""
    return read_course(unpack_link(fragment), current, worked, "link")


def _unsealed(payload: str) -> bytes:
    try:
        sealed = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except ValueError:  # binascii.Error, or a character outside ASCII
        raise refused("link", DAMAGED) from None
    # Only the one spelling this site writes: the decoder skips characters outside base64url,
    # and reads a last character that differs only in the bits base64 leaves unused as the same.
    canonical = base64.urlsafe_b64encode(sealed).rstrip(b"=").decode("ascii") == payload
    body, seal = sealed[:-4], sealed[-4:]
    if not canonical or len(sealed) < 5 or zlib.crc32(body).to_bytes(4, "little") != seal:
        raise refused("link", DAMAGED)
    return body


def _inflate(body: bytes) -> str:
    unpacker = zlib.decompressobj(-15)
    try:  # one byte past the bound at most: the rest of a longer stream is never unpacked
        data = unpacker.decompress(body, MAX_FILE + 1)
    except zlib.error:
        raise refused("link", DAMAGED) from None
    if len(data) > MAX_FILE:
        raise refused("link", f"unpacks to what {FAR_TOO_BIG}")
    if not unpacker.eof or unpacker.unused_data:
        raise refused("link", DAMAGED)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise refused("link", DAMAGED) from None


def course_link(page_url: str, progress: Mapping[str, Progress]) -> str:
    """Return the track's address with the course's progress in its fragment."""
    return urldefrag(page_url).url + progress_link(progress)

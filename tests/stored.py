"""Storage and the texts it holds, for the tests of progress: localStorage in memory, one that
refuses every call, the first site's D8 record, what a newer build writes, and progress links
crafted as the site makes them."""

from __future__ import annotations

import base64
import json
import zlib

from attention_lessons.progress import from_json, save_takeaway, to_json
from strategies import D8

# A record exactly as the site wrote it before lessons shared one engine, under the same key.
FIRST_SITE_KEY = "attention-lessons:d8:progress"
FIRST_SITE_RECORD = (
    '{"answers": {"a_output": "1.376", "a_score_1": "3", "a_weight_1": "0.46", "b_output": '
    '"0.874", "b_score_2": "-1", "b_weight_1": "0.47"}, "attempts": {"a_output": 2, "a_score_1": '
    '3, "a_weight_1": 3, "b_output": 5, "b_score_2": 1, "b_weight_1": 3}, "gate": true, "graded": '
    '{"a_output": 1.376, "a_score_1": 3.0, "a_weight_1": 0.46, "b_output": 0.874, "b_score_2": '
    '-1.0, "b_weight_1": 0.47}, "hints_opened": 2, "prediction": "close", "projection": [[1.0, '
    '0.5], [-1.5, 1.0]], "reading": "own_scores", "runs": 5, "takeaway": "Each head has its own '
    'softmax <b>not HTML</b>.", "version": 1, "why": "heads are halves"}')
NEWER_TAKEAWAY = "Each head softmaxes its own scores."  # in the newer builds' records


class Memory:
    """localStorage in memory, with a quota in characters (None: unlimited)."""

    def __init__(self, items: dict[str, str] | None = None, quota: int | None = None) -> None:
        self.items: dict[str, str] = dict(items or {})
        self.quota = quota

    def getItem(self, key: str) -> object:
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:
        used = sum(len(v) for k, v in self.items.items() if k != key)
        if self.quota is not None and used + len(value) > self.quota:
            raise RuntimeError("QuotaExceededError")
        self.items[key] = value

    def removeItem(self, key: str) -> None:
        self.items.pop(key, None)


class Blocked:
    """Storage that refuses every call, as a browser with site data blocked does."""

    def getItem(self, key: str) -> str | None:
        raise RuntimeError("SecurityError")

    def setItem(self, key: str, value: str) -> None:
        raise RuntimeError("SecurityError")

    def removeItem(self, key: str) -> None:
        raise RuntimeError("SecurityError")


def newer_records() -> dict[str, str]:
    """What a newer build might write: each is a record this build cannot read whole."""
    record = json.loads(to_json(save_takeaway(from_json(FIRST_SITE_RECORD, D8.lesson),
                                              NEWER_TAKEAWAY)))
    explored = {**record["explore"], "moved": {"query": [float("nan"), 0.0]}}
    return {"a newer version": json.dumps({**record, "version": 3}),
            "an unknown field": json.dumps({**record, "streak": 4}),
            "a refused explored point": json.dumps({**record, "explore": explored})}


def sealed(data: bytes, level: int = 9) -> str:
    """Make a link as docs/progress.md says: raw deflate, its CRC-32 (little-endian) after it,
    base64url without padding; any level, as a browser's CompressionStream may pick another."""
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    body = packer.compress(data) + packer.flush()
    payload = base64.urlsafe_b64encode(body + zlib.crc32(body).to_bytes(4, "little"))
    return "#progress=1." + payload.rstrip(b"=").decode("ascii")


def sealed_json(value: object) -> str:
    return sealed(json.dumps(value).encode())

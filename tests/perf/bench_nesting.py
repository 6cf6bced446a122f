"""The nesting check on 5 MB of crafted text, pattern by pattern, under CPython.

A script, not a test: `.venv/bin/python tests/perf/bench_nesting.py`. It prints the CPU time
(and wall time) of `too_deep` for each pattern; the check must stay linear, at most 200 ms
for 5 MB of any of them.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from attention_lessons.progress import too_deep

SIZE = 5_000_000


def patterns() -> dict[str, str]:
    """Crafted texts of about SIZE characters: unclosed strings, escapes, deep and shallow."""
    n = SIZE
    return {
        "unclosed string of \\\" (the issue's)": "[" * 21 + '"' + '\\"' * (n // 2),
        "quotes": "[" * 21 + '"' * n,
        "backslashes": "[" * 21 + '"' + "\\" * n,
        "openers": "[" * n,
        "one deep nest": "[" * (n // 2) + "]" * (n // 2),
        "empty pairs": "[]" * (n // 2),
        "strings": "[" * 21 + '"a",' * (n // 4),
        "strings of brackets": "[" * 21 + '"[",' * (n // 4),
        "string, bracket, alternating": '"["[' * (n // 4),
        "escaped quotes in strings": '["\\"",' * (n // 6),
        "braces and brackets": "{[" * (n // 2),
        "nests 20 deep, repeated": ("[" * 20 + "]" * 20) * (n // 40),
        "nests 19 deep around \\\\": ("[" * 19 + '"\\\\"' + "]" * 19) * (n // 42),
        "\\u escapes": "[" * 21 + '"' + "\\u00e9" * (n // 6),
        "non-ASCII": "[" * 21 + '"' + "\u00e9\ud800" * (n // 2),
        "spaces": "[" * 21 + " " * n,
        "[[] repeated": "[[]" * (n // 3),
    }


def main() -> None:
    worst = 0.0
    for name, text in patterns().items():
        wall, cpu = time.perf_counter(), time.process_time()
        verdict = too_deep(text)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        worst = max(worst, cpu)
        print(f"{name:34} {len(text) / 1e6:4.1f} M chars  cpu {cpu * 1000:6.1f} ms  "
              f"wall {wall * 1000:6.1f} ms  too deep: {verdict}")
    print(f"worst: {worst * 1000:.1f} ms of CPU")


if __name__ == "__main__":
    main()

"""A lesson's notebook, read from fixtures/notebooks/ and run as a kernel would run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from course_build.paths import NOTEBOOKS

CELL_END = "\x1e"  # printed after each cell, so each cell's output can be told apart
# Runs a notebook's code cells in order in one namespace, as a kernel would.
RUNNER = f"""
import json, sys
cells = json.load(sys.stdin)
scope = {{"__name__": "__main__"}}
for source in cells:
    exec(compile(source, "<cell>", "exec"), scope)
    print({CELL_END!r}, flush=True)
"""


def load(name: str) -> dict[str, Any]:
    notebook: dict[str, Any] = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    return notebook


def code_cells(notebook: dict[str, Any]) -> list[str]:
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "code"]


def run_cells(cells: list[str], site: Path) -> list[str]:
    """Run the cells under CPython with only the built wheel importable; one output per cell."""
    done = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps(cells), text=True,
                          capture_output=True, cwd=site, env={"PYTHONPATH": str(site)},
                          check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.split(CELL_END + "\n")[:-1]

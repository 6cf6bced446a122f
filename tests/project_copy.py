"""A copy of the project as a fresh clone of it would be, for the tests that build one."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Collection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fresh_copy(to: Path, leave_out: Collection[str] = ()) -> Path:
    """Copy into `to` every file git tracks or would track in this checkout, with the tree's
    changes, and none it ignores (no .venv/, dist/, build/), less the paths in `leave_out`."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if name not in leave_out and (ROOT / name).is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, to / name)
    return to

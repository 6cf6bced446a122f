"""A copy of the project as a fresh clone of it would be, for the tests that build one (marked
`fresh_clone`: `build.py test` runs them in a phase of their own, at the lowest CPU priority)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Collection
from pathlib import Path

from course_build.notebook import KERNEL_CACHE, WHEEL_CACHE
from course_build.paths import NODE_MODULES, ROOT


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


def share_caches(copy: Path) -> None:
    """Give the copy this checkout's npm runtime, PyPI downloads and compiled kernel, which a
    second build would find there anyway: what these tests build is the rest, about 20 s
    sooner each (the kernel's bytecode takes 27 s to compile from nothing)."""
    for cache in (NODE_MODULES, WHEEL_CACHE, KERNEL_CACHE):
        if cache.is_dir():
            link = copy / cache.relative_to(ROOT)
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(cache, target_is_directory=True)

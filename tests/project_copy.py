"""A copy of the project as a fresh clone of it would be, for the tests that build one."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from course_build.notebook import KERNEL_CACHE, WHEEL_CACHE
from course_build.paths import NODE_MODULES

ROOT = Path(__file__).resolve().parents[1]
# What each test module that builds a copy of the project does with it, by module name; the
# `copies` fixture (tests/conftest.py) runs them side by side.
BUILDS: dict[str, Callable[[Path], Any]] = {}


def built_in_a_copy(work: Callable[[Path], Any]) -> Callable[[Path], Any]:
    """Register `work(folder)` as its module's build of a copy; `copies[module]` gives its
    result to that module's test."""
    BUILDS[work.__module__] = work
    return work


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

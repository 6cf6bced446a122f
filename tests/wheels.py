"""The package's wheel, built as build.py builds it for the notebook, once per run, unpacked."""

from __future__ import annotations

import atexit
import functools
import shutil
import tempfile
import zipfile
from pathlib import Path

from course_build.notebook import package_wheel


@functools.cache
def unpack_wheel() -> Path:
    """Build the package's wheel as build.py does for the notebook, once per run, and unpack it."""
    out = Path(tempfile.mkdtemp(prefix="attention-lessons-wheel-"))
    atexit.register(shutil.rmtree, out, True)
    with zipfile.ZipFile(package_wheel(out)) as wheel:
        wheel.extractall(out / "site")
    return out / "site"

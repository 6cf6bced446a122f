"""The README's build command on Debian's own Python, which refuses pip installs (PEP 668)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from project_copy import fresh_copy, share_caches

DEBIAN_PYTHON = Path("/usr/bin/python3")  # these machines have it; CI's is one of them
# What a Python has installed, from its own point of view (site and user packages alike).
LIST_INSTALLED = ("import importlib.metadata as m; "
                  "print('\\n'.join(sorted(f'{d.name}=={d.version}' for d in m.distributions())))")


def installed(python: Path) -> list[str]:
    done = subprocess.run([python, "-c", LIST_INSTALLED], capture_output=True, text=True,
                          check=True)
    return done.stdout.splitlines()


def build_with_debians_python(folder: Path) -> tuple[Path, subprocess.CompletedProcess[str],
                                                     list[str], list[str]]:
    """A fresh copy built with Debian's Python: the copy, the build, and what that Python has
    installed before and after it."""
    clone = folder / "clone"
    fresh_copy(clone)
    # The npm runtime and the build's caches are not what this test is about: .venv/ is.
    share_caches(clone)
    before = installed(DEBIAN_PYTHON)
    env = {k: v for k, v in os.environ.items() if k not in {"VIRTUAL_ENV", "PYTHONPATH"}}
    done = subprocess.run([DEBIAN_PYTHON, "build.py", "build"], cwd=clone, env=env,
                          capture_output=True, text=True, timeout=900, check=False)
    return clone, done, before, installed(DEBIAN_PYTHON)


@pytest.mark.fresh_clone
def test_build_py_builds_a_fresh_clone_with_debians_python_and_installs_nothing_there(
    tmp_path: Path,
) -> None:
    stdlib = subprocess.run(
        [DEBIAN_PYTHON, "-c", "import sysconfig; print(sysconfig.get_path('stdlib'))"],
        capture_output=True, text=True, check=True).stdout.strip()
    assert (Path(stdlib) / "EXTERNALLY-MANAGED").is_file(), (
        f"{DEBIAN_PYTHON} is not marked externally managed, so this test proves nothing")
    clone, done, before, after = build_with_debians_python(tmp_path)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said[-4000:]
    assert "build.py: making .venv/ with /usr/bin/python3" in said
    assert (clone / "dist" / "d8" / "index.html").is_file()
    assert (clone / ".venv" / "bin" / "python").exists()
    assert after == before

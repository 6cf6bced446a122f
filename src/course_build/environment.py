"""The project's own virtual environment, .venv/: made on first use with the pinned extras, so
that nothing is ever installed into the Python that runs build.py (Debian's and Ubuntu's refuse
it, PEP 668, and an install there would leak one checkout into another)."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tomllib
import venv
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from .machine import apt_install
from .paths import PYPROJECT, ROOT, run

VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
STAMP = VENV / "pins.sha256"  # sha256 of the requirements last installed there
EXTRAS = ("test", "notebook")  # everything build.py runs: Jinja2, JupyterLite, pytest, ...


def inside() -> bool:
    """Whether this Python is the project's own environment's."""
    return sys.prefix != sys.base_prefix and Path(sys.prefix).resolve() == VENV.resolve()


def requirements() -> list[str]:
    """pyproject's EXTRAS, with the project's references to its own extras expanded."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    own = re.compile(rf"{re.escape(project['name'])}\[([\w,\s-]+)\]")
    found: list[str] = []
    pending, seen = list(EXTRAS), set()
    while pending:
        if (extra := pending.pop(0)) in seen:
            continue
        seen.add(extra)
        for requirement in project["optional-dependencies"][extra]:
            if match := own.fullmatch(requirement):
                pending += [name.strip() for name in match.group(1).split(",")]
            elif requirement not in found:
                found.append(requirement)
    return found


def create() -> None:
    """Make .venv/ with pip, installing Debian's venv package first where it is missing."""
    if importlib.util.find_spec("ensurepip") is None:  # Debian without python3-venv
        version = f"python{sys.version_info.major}.{sys.version_info.minor}-venv"
        if (code := apt_install([version])) != 0:
            sys.exit(code)
    print(f"build.py: making {VENV.name}/ with {sys.executable}", flush=True)
    shutil.rmtree(VENV, ignore_errors=True)
    venv.EnvBuilder(with_pip=True, symlinks=os.name != "nt").create(VENV)


def ensure() -> None:
    """Make .venv/ if it is missing or broken, and install the pins when they have changed."""
    if not PYTHON.exists():  # never made, or the Python it was made from is gone
        create()
    wanted = requirements()
    digest = hashlib.sha256("\n".join(wanted).encode()).hexdigest()
    if STAMP.is_file() and STAMP.read_text().strip() == digest:
        return
    print(f"build.py: installing {len(wanted)} pinned tools into {VENV.name}/ "
          "(once; about a minute)", flush=True)
    run([str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "--quiet", *wanted])
    STAMP.write_text(digest + "\n")


def enter(argv: Sequence[str]) -> NoReturn:
    """Run build.py again, with the same arguments, inside .venv/."""
    ensure()
    sys.stdout.flush()
    os.execv(PYTHON, [str(PYTHON), str(ROOT / "build.py"), *argv])

"""Where things are: the checkout's folders and files, and one way to run a command."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
WEB = ROOT / "web"
RUNTIME = WEB / "runtime"  # our loader (shipped) and the precompile step (build time only)
PACKAGE = ROOT / "src" / "attention_lessons"
BROWSER = WEB / "browser"  # the DOM code main.py imports, shipped in the archive beside PACKAGE
FIXTURES = ROOT / "fixtures"
NOTEBOOKS = FIXTURES / "notebooks"  # one .ipynb per lesson, named as the lesson's folder
NODE_MODULES = ROOT / "node_modules"
PYPROJECT = ROOT / "pyproject.toml"


def run(command: Sequence[str], cwd: Path = ROOT, env: Mapping[str, str] | None = None) -> None:
    """Run a command (from the project root by default, with `env` added to the environment),
    echoing it, and stop on failure."""
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, check=True, env={**os.environ, **(env or {})})


def source_date(*inputs: Path) -> int:
    """The time a build stamps into what it makes from `inputs`, so that the same sources give
    the same bytes: SOURCE_DATE_EPOCH if set (the reproducible-builds convention), else the
    last commit that changed an input, else 1980-01-01, the earliest time a zip can hold."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        return int(os.environ["SOURCE_DATE_EPOCH"])
    last = subprocess.run(["git", "log", "-1", "--format=%ct", "--", *map(str, inputs)],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    return int(last.stdout) if last.returncode == 0 and last.stdout.strip() else 315_532_800

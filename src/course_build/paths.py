"""Where things are: the checkout's folders and files, and one way to run a command."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
WEB = ROOT / "web"
RUNTIME = WEB / "runtime"  # our loader (shipped) and the precompile step (build time only)
PACKAGE = ROOT / "src" / "attention_lessons"
FIXTURES = ROOT / "fixtures"
NOTEBOOKS = FIXTURES / "notebooks"  # one .ipynb per lesson, named as the lesson's folder
NODE_MODULES = ROOT / "node_modules"
PYPROJECT = ROOT / "pyproject.toml"


def run(command: Sequence[str], cwd: Path = ROOT) -> None:
    """Run a command (from the project root by default), echoing it, and stop on failure."""
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, check=True)

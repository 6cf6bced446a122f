"""The course site's command line: build, serve, set up, lint, test and benchmark.

Every command runs inside the project's own .venv/, which the first run makes (see
src/course_build/environment.py); the work itself lives in src/course_build/, one module a
command, each with a `command(name, args)` that returns the exit status.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))
from course_build import environment


@dataclass(frozen=True)
class Command:
    """A command: the module of src/course_build/ that runs it, what it does, and for a
    benchmark, its script in tests/perf/ (which the module is given first)."""

    module: str
    help: str
    script: str = ""


COMMANDS = {  # the default first
    "build": Command("site", "build dist/"),
    "serve": Command("server", "build, then serve dist/ on 127.0.0.1 [--port N]"),
    "setup": Command("machine", "install the browsers (apt) and the npm runtime"),
    "lint": Command("testing", "ruff and mypy over the project, as `test` runs them first"),
    "test": Command("testing", "setup, lint, build, then pytest over every test; --quick: the "
                               "unit tests and one journey per lesson; what follows goes to "
                               "pytest"),
    "bench": Command("testing", "start-up in Chromium against a bare page [--runs N] "
                                "[--json PATH]", "bench_startup.py"),
    "bench-browsers": Command("testing", "time to Python-ready in Chromium, Firefox and WebKit "
                                         "[--runs N]", "bench_browsers.py"),
    "bench-notebook": Command("testing", "D8's notebook against a bare JupyterLite, cold and "
                                         "warm, beside D8 [--runs N] [--json PATH]",
                              "bench_notebook.py"),
    "new-lesson": Command("scaffold", "write a new lesson's skeleton, registered: new-lesson "
                                      "SLUG (its folder, such as 8-4)"),
}


def main(argv: Sequence[str]) -> int:
    name, args = (argv[0], list(argv[1:])) if argv else ("build", [])
    if name not in COMMANDS:
        print(usage(), file=sys.stdout if name in ("-h", "--help") else sys.stderr)
        return 0 if name in ("-h", "--help") else 2
    if not environment.inside():
        environment.enter(argv)  # makes .venv/ if needed and runs this again there
    environment.ensure()
    command = COMMANDS[name]
    module = importlib.import_module(f"course_build.{command.module}")
    code: int = module.command(name, [command.script, *args] if command.script else args)
    return code


def usage() -> str:
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {command.help}" for name, command in COMMANDS.items()]
    return "\n".join([__doc__.splitlines()[0], "", "usage: python3 build.py [command] [arguments]",
                      "", "commands (build when none is given):", *lines])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The course site's command line: build, serve, set up, test and benchmark.

Every command runs inside the project's own .venv/, which the first run makes (see
src/course_build/environment.py); the work itself lives in src/course_build/.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "src"))
from course_build import environment


def main(argv: Sequence[str]) -> int:
    if not environment.inside():
        environment.enter(argv)  # makes .venv/ if needed and runs this again there
    environment.ensure()
    from course_build import machine, paths, scaffold, server, site, testing  # noqa: PLC0415

    if argv[:1] == ["test"]:  # everything after `test` (and --quick) goes to pytest untouched
        quick = argv[1:2] == ["--quick"]
        return testing.run_tests(argv[2:] if quick else argv[1:], quick=quick)
    if argv[:1] and argv[0] in testing.BENCHMARKS:  # and everything after a benchmark's name
        return testing.bench(argv[0], argv[1:])
    args = parser().parse_args(argv)
    if args.command == "setup":
        return machine.setup()
    if args.command == "new-lesson":
        return scaffold.new_lesson(paths.ROOT, args.slug)
    site.build()
    if args.command == "serve":
        server.serve(paths.DIST, args.port)
    return 0


def parser() -> argparse.ArgumentParser:
    """The commands, with their help; `test` and the benchmarks pass their arguments on."""
    parser = argparse.ArgumentParser(prog="build.py", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", help="build dist/ (the default)")
    serve = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    commands.add_parser("setup", help="install the browsers (apt) and the npm runtime")
    commands.add_parser("test", help="setup, build, then pytest over every test; --quick: the "
                                     "unit tests and one journey per lesson (extra arguments "
                                     "go to pytest)")
    commands.add_parser("bench", help="start-up in Chromium against a bare page [--runs N] "
                                      "[--json PATH]")
    commands.add_parser("bench-browsers", help="time to Python-ready in Chromium, Firefox and "
                                               "WebKit [--runs N]")
    commands.add_parser("bench-notebook", help="D8's notebook against a bare JupyterLite, cold "
                                               "and warm, beside D8 [--runs N] [--json PATH]")
    new = commands.add_parser("new-lesson", help="write a new lesson's skeleton, registered")
    new.add_argument("slug", help="its folder, such as 8-4")
    return parser


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

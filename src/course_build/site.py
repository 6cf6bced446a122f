"""The whole build: dist/ from scratch, step by step."""

from __future__ import annotations

import shutil
import sys
from concurrent.futures import ThreadPoolExecutor

from attention_lessons import LessonError

from . import icons, notebook, offline, pages, runtime
from .paths import BROWSER, DIST, ROOT, WEB

# Files of web/ that are never copied as they are: templates, and what the build turns into
# something else (sw.js is written with a hash; the precompile step runs at build time only;
# browser/ goes into the lessons' archive).
NOT_COPIED = ("__pycache__", "*.pyc", "index.html", "_*.html", pages.LESSON_TEMPLATE,
              "precompile.*", "sw.js", BROWSER.name)


def command(name: str, args: list[str]) -> int:
    """`build`: takes no arguments."""
    if args:
        print(f"build.py build: takes no arguments, not {' '.join(args)!r}", file=sys.stderr)
        return 2
    try:
        build()
    except LessonError as error:  # a lesson the build refuses: its message says why
        print(f"build.py build: {error}", file=sys.stderr)
        return 1
    return 0


def build() -> None:
    """Install the pinned runtime if needed and build dist/ from scratch."""
    pages.vet_lessons()  # before dist/ is touched: a refused build leaves the last one whole
    runtime.ensure_runtime()
    if DIST.exists():
        shutil.rmtree(DIST)
    shutil.copytree(WEB, DIST, ignore=shutil.ignore_patterns(*NOT_COPIED))
    runtime.copy_runtime(DIST)
    files = runtime.python_files()
    built = pages.render_pages(DIST)
    icons.write_manifest(DIST)
    # The notebook (JupyterLite's app, its kernel's bytecode) needs nothing of the lessons'
    # runtime: it is built on a second thread while Pyodide compiles the lessons' bytecode, each
    # step a process of its own (a build 6 s sooner, and a fresh clone's about 7 s).
    with ThreadPoolExecutor(max_workers=1) as beside:
        notebook_built = beside.submit(notebook.build_notebook)
        runtime.precompile(DIST, files)
        pages.add_head_links(DIST, built)
        notebook_built.result()
    (DIST / ".nojekyll").touch()
    cache = offline.write_service_worker(DIST)
    print(f"Built {DIST.relative_to(ROOT)}/ ({len(built)} pages, {len(files)} files in "
          f"{runtime.LESSONS_ZIP}, cache {cache})", flush=True)

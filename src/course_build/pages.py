"""The site's HTML: the track and a page per lesson rendered from web/'s templates, each beside
its PyScript config, with the start-up links in its <head>."""

from __future__ import annotations

import json
from pathlib import Path

import jinja2
import markupsafe

from attention_lessons import LESSONS, TOLERANCE, lesson_fixture, work
from attention_lessons.engine import (
    EDGE,
    Worked,
    explorable,
    point_ids,
    point_name,
    vet,
    word,
)
from attention_lessons.views import SIZE, opens_text, pattern

from .icons import palette
from .paths import FIXTURES, WEB
from .runtime import ARCHIVES, PLUGINS_KEPT, core_imports, plugins_off, pyscript_plugins

# JSON, not TOML: PyScript parses TOML with a chunk that it imports only once it has the config,
# one more round trip before Pyodide can start.
CONFIG_NAME = "pyscript.json"
LESSON_TEMPLATE = "lesson.html"
# Start-up files a page can name in its <head> before any script asks for them (paths from
# the top of dist/). Never pyodide.asm.wasm: a preloaded wasm makes Chromium miss its
# compiled-code cache on every later visit. Nor pyodide.asm.mjs: with it preloaded, a wasm
# that fails to load leaves Pyodide hanging instead of rejecting.
PRELOAD_MODULES = ("runtime/loader.mjs", "pyodide/pyodide.mjs")
# What web/early.js fetches as a page starts and hands to the request that asks for it: the
# standard library, the lock and the archives in the config's files, all asked for only once
# Pyodide has started. Not the config: PyScript asks for it as soon as its module runs, and
# Chromium now and then ran that module before early.js (2 cold visits in 40), which fetched
# the config twice. Not main.py: it is asked for last, and Chromium warned that a preload of
# it went unused.
EARLY_FETCHES = ("runtime/python_stdlib.zip", "pyodide/pyodide-lock.json", *ARCHIVES)


def page_config(depth: int) -> str:
    """A page's PyScript config: the self-hosted interpreter, the ARCHIVES to unpack into
    Pyodide's working directory (/home/pyodide, on sys.path), and the plugins turned off.

    PyScript resolves `interpreter` against the page's URL and [files] against the config's URL;
    both sit in the page's folder, `depth` folders below the top of dist/. Without `interpreter`,
    PyScript silently fetches Pyodide from a CDN. Ours is a loader that calls the self-hosted
    pyodide.mjs with the trimmed, precompiled standard library.
    """
    up = "../" * depth or "./"
    config = {
        "interpreter": f"{up}runtime/loader.mjs",
        "files": {f"{up}{archive}": "./*" for archive in ARCHIVES},
        "plugins": plugins_off(),
    }
    return json.dumps(config, indent=2) + "\n"


def render_pages(site: Path) -> list[Path]:
    """Render the track and one page per lesson into site/, each beside its PyScript config."""
    environment = site_templates()
    (site / "index.html").write_text(track_page(environment), encoding="utf-8")
    (site / CONFIG_NAME).write_text(page_config(0), encoding="utf-8")
    pages = [Path("index.html")]
    for slug in LESSONS:
        (site / slug).mkdir()
        (site / slug / "index.html").write_text(lesson_page(environment, slug), encoding="utf-8")
        (site / slug / CONFIG_NAME).write_text(page_config(1), encoding="utf-8")
        pages.append(Path(slug, "index.html"))
    return pages


def track_page(environment: jinja2.Environment) -> str:
    """The track's HTML: every lesson in order, with what each waits for."""
    lessons = list(LESSONS.values())
    opens = {x.slug: opens_text(x, LESSONS) for x in lessons if x.prerequisite}
    return str(environment.get_template("index.html").render(lessons=lessons, opens=opens))


def vet_lessons() -> None:
    """Refuse to build a lesson whose named slip would be graded right: SlipTooClose names the
    lesson, the question, both values and the margin (attention_lessons/engine/vetting.py)."""
    for lesson in LESSONS.values():
        vet(work(lesson, lesson_fixture(lesson, FIXTURES)))


def lesson_page(environment: jinja2.Environment, slug: str) -> str:
    """A lesson's HTML: all of its prose, and none of the numbers Python computes."""
    lesson = LESSONS[slug]
    worked = work(lesson, lesson_fixture(lesson, FIXTURES))
    # Only the heads' dimensions reach the HTML ("scale 1 / sqrt(2)"); Python prints the rest.
    dimensions = [len(head.query) for head in worked.heads]
    hints = zip(("A question", "The answer"), lesson.hint_rungs,
                ("Show the question", "Show the answer"), strict=True)
    return str(environment.get_template(LESSON_TEMPLATE).render(
        lesson=lesson, dimensions=dimensions, tolerance=TOLERANCE, hints=list(hints),
        explore=explore_marks(worked),
        before=LESSONS.get(lesson.prerequisite or ""),
        after=[x for x in LESSONS.values() if x.prerequisite == slug]))


def explore_marks(worked: Worked) -> dict[str, object] | None:
    """What Explore's markup needs: its points, each head's lines and pattern, what stays put
    (the plain head's values), the arrow if any, and the lesson's marks (by id and name, never
    where they are), and the plane's size and edge; None where the fixture's vectors are not
    two-dimensional and no plane can draw them."""
    lesson, fixture = worked.lesson, worked.fixture
    if not explorable(fixture):
        return None
    heads = [(spec, *pattern(h)) for h, spec in enumerate(lesson.heads)]
    figure = lesson.figure(worked)
    marks = [(m.id, m.label, m.name) for m in lesson.plane_marks(worked)]
    movable = [put for put in fixture.declared if put.point is not None]
    movers = " or ".join(f"a {put.point}" if put.is_matrix else f"the {put.point}"
                         for put in movable)  # "the query or a key"
    singles = {put.point for put in movable if not put.is_matrix}  # a point that is a vector
    return {"points": [(p, point_name(p)) for p in point_ids(fixture)], "size": SIZE,
            "movers": movers, "singles": singles,
            "edge": f"{EDGE:g}", "key_numbers": range(1, len(figure.ends) + 1), "heads": heads,
            "squares": [square.id for square in figure.squares], "arrow": figure.arrow,
            "lines": figure.lines, "marks": marks,
            "spaces": [(space.id, space.title, [m.id for m in space.marks])
                       for space in figure.spaces]}


def site_templates() -> jinja2.Environment:
    """A Jinja2 environment over web/, escaping everything."""
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(WEB), autoescape=True,
                                     undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    environment.filters["word"] = word
    environment.globals["config_name"] = CONFIG_NAME
    environment.globals["theme_colour"] = palette()["accent"]
    environment.globals["early_fetches"] = EARLY_FETCHES
    # Plugin names are words and hyphens (PLUGIN_IMPORT), so the JSON needs no escaping.
    environment.globals["mpy_config"] = markupsafe.Markup(json.dumps({"plugins": plugins_off()}))
    return environment


def head_links(up: str) -> str:
    """Module preloads and the service-worker registration for a built page's <head>: the
    runtime's modules, and core.js's static chunks and kept plugins."""
    static = [*core_imports(), *(pyscript_plugins()[name] for name in PLUGINS_KEPT)]
    modules = [f"{up}{p}" for p in PRELOAD_MODULES] + [f"{up}pyscript/{n}" for n in static]
    lines = [f'<link rel="modulepreload" href="{url}">' for url in modules]
    lines.append(f'<script src="{up}sw-register.js" defer></script>')
    return "".join(f"  {line}\n" for line in lines)


def add_head_links(site: Path, pages: list[Path]) -> None:
    """Start each page's runtime downloads as soon as its <head> is read."""
    for page in pages:
        up = "../" * (len(page.parts) - 1)
        html = (site / page).read_text(encoding="utf-8")
        html = html.replace("</head>", head_links(up) + "</head>", 1)
        (site / page).write_text(html, encoding="utf-8")

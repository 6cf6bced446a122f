"""Build, serve, set up, test and benchmark the static lesson site (stdlib only)."""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from collections.abc import Sequence
from functools import cache, partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "src"))  # the build package, src/course_build/
from course_build import notebook_app  # noqa: E402
from course_build.kernel import STDLIB_URL, precompile_kernel  # noqa: E402

DIST = ROOT / "dist"
WEB = ROOT / "web"
PACKAGE = ROOT / "src" / "attention_lessons"
FIXTURES = ROOT / "fixtures"
NODE_MODULES = ROOT / "node_modules"
LOCK = ROOT / "package-lock.json"
NPM_STAMP = NODE_MODULES / ".npm-ci-stamp"  # sha256 of the lock that node_modules was made from
PYSCRIPT_DIST = NODE_MODULES / "@pyscript" / "core" / "dist"
PYODIDE_DIST = NODE_MODULES / "pyodide"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# JSON, not TOML: PyScript parses TOML with a chunk that it imports only once it has the config,
# one more round trip before Pyodide can start.
CONFIG_NAME = "pyscript.json"
LESSON_TEMPLATE = "lesson.html"
RUNTIME = WEB / "runtime"  # our loader (shipped) and the precompile step (build time only)
BUILD_ONLY = ("precompile.*", "sw.js")  # never copied as they are; sw.js is written with a hash
PYSCRIPT_PACKAGE = NODE_MODULES / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js"
# Start-up files a page can name in its <head> before any script asks for them (paths from
# the top of dist/). Never pyodide.asm.wasm: a preloaded wasm makes Chromium miss its
# compiled-code cache on every later visit. Nor pyodide.asm.mjs: with it preloaded, a wasm
# that fails to load leaves Pyodide hanging instead of rejecting.
PRELOAD_MODULES = ("runtime/loader.mjs", "pyodide/pyodide.mjs")
# What each page unpacks into Pyodide's working directory: our package (sources and bytecode)
# with its fixtures, in one archive (one request, where a file each took 23), and the bytecode
# of PyScript's own package, whose sources PyScript writes there itself.
LESSONS_ZIP = "py/attention_lessons.zip"
PYSCRIPT_PYC = "runtime/pycache.zip"
ARCHIVES = (LESSONS_ZIP, PYSCRIPT_PYC)
# What web/early.js fetches as a page starts and hands to the request that asks for it: the
# standard library, the lock and the archives in the config's files, all asked for only once
# Pyodide has started. Not the config: PyScript asks for it as soon as its module runs, and
# Chromium now and then ran that module before early.js (2 cold visits in 40), which fetched
# the config twice. Not main.py: it is asked for last, and Chromium warned that a preload of
# it went unused.
EARLY_FETCHES = ("runtime/python_stdlib.zip", "pyodide/pyodide-lock.json", *ARCHIVES)
SW_PREFIX = "attention-lessons-"  # the service worker deletes only caches named like this
# The full standard library stays in dist/pyodide/ for other users of Pyodide (a notebook);
# no page loads it, so the service worker does not precache it. Nor the notebook app, 24 MB
# that a lesson page never asks for (JupyterLite brings its own service worker).
NOT_PRECACHED = ("pyodide/python_stdlib.zip", "sw.js", ".nojekyll", "notebook/")
# Static and dynamic imports of sibling chunks in PyScript's bundled files.
CHUNK_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["']\./([\w.-]+\.js)["']""")
# PyScript's plugins, as its bundle names them: `donkey:()=>import("./donkey-4Hrqd7WZ.js")`.
# It imports every plugin that the config does not turn off before it starts Pyodide.
PLUGIN_IMPORT = re.compile(r"""["']?([\w-]+)["']?:\(\)=>import\(["']\./([\w.-]+\.js)["']\)""")
# The one plugin the pages keep: it shows a Python error on the page. PyScript imports it even
# when turned off. The others serve features no page uses (editors, terminals, games, worker
# helpers, a warning about pyscript.net URLs).
PLUGINS_KEPT = ("error",)

# Start-up must not depend on IndexedDB. PyScript 0.7.31 keeps two maps there on the main
# thread: one for pyscript.fs mounts (idb-map's IDBMap), opened as core.js loads, and
# Pyodide's package cache (IDBMapSync), awaited before the interpreter loads and closed
# after it. Where site data is blocked, or indexedDB.open throws or its request fails, the
# failed request's handler re-dispatches its own event (which throws), the first map's
# rejection goes unhandled, and the second stops Python. These pages load no packages, so
# the cache becomes a map in memory, and the mounts' map, unused here, keeps its failure
# to itself (its operations still reject). Patching the copied chunk at build time is the
# smallest fix: PyScript has no option to skip either map, and boot.js cannot reach them.
# Each text must occur exactly once in the copied chunks, or the build stops, so an
# upgrade that changes this code is looked at again.
IDB_PATCHES = (
    ('onerror(e){n(e),this.dispatchEvent(e)}})', "onerror(e){n(e)}})"),
    ("return e})}dispatchEvent(e){", "return e}),this.#e.catch(()=>{})}dispatchEvent(e){"),
    ("l=new h(`${c}@${t}`),", "l=Object.assign(new Map,{sync:async()=>{},close:async()=>{}}),"),
)

CHROMIUM = "/usr/bin/chromium"
# The other engines the end-to-end tests drive: Firefox over WebDriver BiDi (puppeteer-core
# from npm), WebKitGTK through WebKitWebDriver and MiniBrowser (Selenium) on a virtual display.
FIREFOX = "/usr/bin/firefox-esr"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
XVFB_RUN = "/usr/bin/xvfb-run"
# What setup() installs with apt, by the file each package brings.
APT_PACKAGES = {
    CHROMIUM: "chromium",
    FIREFOX: "firefox-esr",
    WEBKIT_DRIVER: "webkit2gtk-driver",
    XVFB_RUN: "xvfb",
    "/usr/bin/xauth": "xauth",  # xvfb-run needs it; xvfb only recommends it
}
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
# What `pip install -e '.[test]'` brings, by import name.
TEST_IMPORTS = (
    "pytest",
    "playwright",
    "pytest_playwright",
    "pytest_rerunfailures",
    "axe_playwright_python",
    "hypothesis",
    "numpy",
    "selenium",
    "yaml",
)
# The notebook tools of pyproject's `notebook` extra, by import name.
NOTEBOOK_IMPORTS = ("jupyterlite_core", "jupyterlite_pyodide_kernel", "jupyter_server")
NOTEBOOKS = FIXTURES / "notebooks"  # one .ipynb per lesson, named as the lesson's folder
NOTEBOOK_DIST = DIST / "notebook"
WHEEL_CACHE = ROOT / "build" / "notebook-wheels"  # PyPI downloads, kept between builds
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
# What the kernel imports at start, by their names in Pyodide's own lock, which gives their
# versions and dependencies. The npm pyodide package ships no wheels, and Pyodide's rebuilt
# wheels hash differently from PyPI's, so these come from PyPI under a lock of our own.
KERNEL_FROM_PYODIDE = (
    "micropip", "packaging", "asttokens", "decorator", "executing",
    "matplotlib-inline", "prompt-toolkit", "pure-eval", "pygments", "six", "stack-data",
    "traitlets", "wcwidth", "jedi", "parso",
)
# pyodide-kernel needs comm, which Pyodide's lock lacks. IPython 9.17 imports lazily (406
# modules at kernel start against 786 for the lock's 9.12) and needs its lexers.
KERNEL_FROM_PYPI = {"comm": "0.2.3", "ipython": "9.17.1", "ipython-pygments-lexers": "1.1.1"}
# The kernel extension's own wheels (its static/pypi/), with the package's wheel beside them.
KERNEL_FROM_EXTENSION = ("piplite", "pyodide-kernel", "ipykernel")
# The worker skips its piplite installs for these names when they are preloaded, so every
# wheel loads from the lock; listing the whole lock preloads the package too.
KERNEL_PACKAGES = (*KERNEL_FROM_PYODIDE, *KERNEL_FROM_PYPI, *KERNEL_FROM_EXTENSION,
                   "attention-lessons")
BENCHMARKS = {  # by command: the script in tests/perf/ that runs it
    "bench": "bench_startup.py",
    "bench-browsers": "bench_browsers.py",
    "bench-notebook": "bench_notebook.py",
}
BUILT_ENV = "ATTENTION_LESSONS_DIST_BUILT"  # set by `build.py test`: the e2e tests skip their build


def run(command: Sequence[str], cwd: Path = ROOT) -> None:
    """Run a command (from the project root by default), echoing it, and stop on failure."""
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=cwd, check=True)


def lock_digest() -> str:
    return hashlib.sha256(LOCK.read_bytes()).hexdigest()


def ensure_runtime() -> None:
    """Run `npm ci` when node_modules is missing or was made from another package-lock.json."""
    if NPM_STAMP.is_file() and NPM_STAMP.read_text().strip() == lock_digest():
        return
    if shutil.which("npm") is None:
        sys.exit("npm is missing: install Node.js 20 or later (apt-get install -y nodejs npm)")
    run(["npm", "ci", "--no-audit", "--no-fund"])
    NPM_STAMP.write_text(lock_digest() + "\n")


def pyscript_chunks() -> list[str]:
    """core.js and every chunk it can import, statically or lazily (so: no storage.js,
    no service-worker.js, no .map files)."""
    needed: list[str] = []
    pending = ["core.js"]
    while pending:
        name = pending.pop()
        if name not in needed:
            needed.append(name)
            pending += CHUNK_IMPORT.findall((PYSCRIPT_DIST / name).read_text(encoding="utf-8"))
    return sorted(needed)


@cache
def core_imports() -> list[str]:
    """The chunks that core.js imports statically: what a page loads before any plugin."""
    return CHUNK_IMPORT.findall((PYSCRIPT_DIST / "core.js").read_text(encoding="utf-8"))


@cache
def pyscript_plugins() -> dict[str, str]:
    """Each plugin that PyScript's core chunk imports, by name, with the chunk it imports."""
    plugins = dict(PLUGIN_IMPORT.findall("".join(
        (PYSCRIPT_DIST / name).read_text(encoding="utf-8") for name in core_imports())))
    if not set(PLUGINS_KEPT) <= plugins.keys():
        sys.exit(f"build.py: PyScript's plugins are {sorted(plugins)}; expected {PLUGINS_KEPT} "
                 "among them: check PLUGIN_IMPORT against this PyScript version")
    return plugins


def patch_indexeddb(chunks: Path) -> None:
    """Apply IDB_PATCHES to the copied PyScript chunks, stopping the build if any text is not
    found exactly once."""
    texts = {path: path.read_text(encoding="utf-8") for path in sorted(chunks.glob("*.js"))}
    for old, new in IDB_PATCHES:
        found = [path for path, text in texts.items() if old in text]
        count = sum(text.count(old) for text in texts.values())
        if count != 1:
            sys.exit(f"build.py: expected {old!r} once in PyScript's chunks, found it {count} "
                     "times; check IDB_PATCHES against this PyScript version")
        texts[found[0]] = texts[found[0]].replace(old, new)
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")


def python_files() -> dict[str, Path]:
    """Every file that Python in the browser needs: its path in Pyodide's working directory
    (/home/pyodide, on sys.path), and the file here."""
    modules = sorted(p for p in PACKAGE.rglob("*") if p.suffix == ".py" or p.name == "py.typed")
    files = {Path(PACKAGE.name, p.relative_to(PACKAGE)).as_posix(): p for p in modules}
    return files | {f"fixtures/{p.name}": p for p in sorted(FIXTURES.glob("*.json"))}


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


def plugins_off() -> list[str]:
    """A config's `plugins` entry: every PyScript plugin but PLUGINS_KEPT turned off."""
    return [f"!{name}" for name in pyscript_plugins() if name not in PLUGINS_KEPT]


def render_pages() -> list[Path]:
    """Render the track and one page per lesson into dist/, each beside its PyScript config."""
    environment = site_templates()
    from attention_lessons import LESSONS  # noqa: PLC0415  (site_templates puts src/ on the path)

    (DIST / "index.html").write_text(track_page(environment), encoding="utf-8")
    (DIST / CONFIG_NAME).write_text(page_config(0), encoding="utf-8")
    pages = [Path("index.html")]
    for slug in LESSONS:
        (DIST / slug).mkdir()
        (DIST / slug / "index.html").write_text(lesson_page(environment, slug), encoding="utf-8")
        (DIST / slug / CONFIG_NAME).write_text(page_config(1), encoding="utf-8")
        pages.append(Path(slug, "index.html"))
    return pages


def track_page(environment: Any) -> str:
    """The track's HTML: every lesson in order, with what each waits for."""
    from attention_lessons import LESSONS  # noqa: PLC0415
    from attention_lessons._course import opens_text  # noqa: PLC0415

    lessons = list(LESSONS.values())
    opens = {x.slug: opens_text(x, LESSONS) for x in lessons if x.prerequisite}
    return str(environment.get_template("index.html").render(lessons=lessons, opens=opens))


def lesson_page(environment: Any, slug: str) -> str:
    """A lesson's HTML: all of its prose, and none of the numbers Python computes."""
    from attention_lessons import LESSONS, TOLERANCE, parse_fixture, work  # noqa: PLC0415

    lesson = LESSONS[slug]
    fixture = parse_fixture((FIXTURES / lesson.fixture).read_text(encoding="utf-8"))
    # Only the heads' dimensions reach the HTML ("scale 1 / sqrt(2)"); Python prints the rest.
    dimensions = [len(head.query) for head in work(lesson, fixture).heads]
    hints = zip(("A question", "The answer"), lesson.hint_rungs,
                ("Show the question", "Show the answer"), strict=True)
    return str(environment.get_template(LESSON_TEMPLATE).render(
        lesson=lesson, dimensions=dimensions, tolerance=TOLERANCE, hints=list(hints),
        before=LESSONS.get(lesson.prerequisite or ""),
        after=[x for x in LESSONS.values() if x.prerequisite == slug]))


def site_templates() -> Any:
    """A Jinja2 environment over web/, escaping everything, installing Jinja2 if it is missing.

    The pages are rendered from the package's own lesson data, so src/ goes on sys.path too."""
    if importlib.util.find_spec("jinja2") is None:
        run([sys.executable, "-m", "pip", "install", "-e", ".[site]"])
    import jinja2  # noqa: PLC0415  (installed on demand: a fresh machine may not have it)
    import markupsafe  # noqa: PLC0415  (comes with Jinja2)

    if str(PACKAGE.parent) not in sys.path:
        sys.path.insert(0, str(PACKAGE.parent))
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(WEB), autoescape=True,
                                     undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    from attention_lessons._format import word  # noqa: PLC0415

    environment.filters["word"] = word
    environment.globals["config_name"] = CONFIG_NAME
    environment.globals["early_fetches"] = EARLY_FETCHES
    # Plugin names are words and hyphens (PLUGIN_IMPORT), so the JSON needs no escaping.
    environment.globals["mpy_config"] = markupsafe.Markup(json.dumps({"plugins": plugins_off()}))
    return environment


def precompile(site: Path, files: dict[str, Path]) -> None:
    """Run Pyodide under Node to write the trimmed, precompiled standard library into
    site/runtime/, and the ARCHIVES: `files` with their bytecode, and PyScript's bytecode."""
    spec = {
        "pyodide": f"{PYODIDE_DIST}/",
        "pyscript": str(PYSCRIPT_PACKAGE),
        "package": PACKAGE.name,
        "files": {name: str(path) for name, path in files.items()},
        "scripts": [str(p) for p in sorted(WEB.rglob("*.py")) if RUNTIME not in p.parents],
        "out": str(site / "runtime"),
        "lessons": str(site / LESSONS_ZIP),
        "pyscript_pyc": str(site / PYSCRIPT_PYC),
    }
    with tempfile.TemporaryDirectory() as folder:
        spec_file = Path(folder, "spec.json")
        spec_file.write_text(json.dumps(spec), encoding="utf-8")
        run(["node", str(RUNTIME / "precompile.mjs"), str(spec_file)])


def head_links(up: str) -> str:
    """Module preloads and the service-worker registration for a built page's <head>: the
    runtime's modules, and core.js's static chunks and kept plugins."""
    static = [*core_imports(), *(pyscript_plugins()[name] for name in PLUGINS_KEPT)]
    modules = [f"{up}{p}" for p in PRELOAD_MODULES] + [f"{up}pyscript/{n}" for n in static]
    lines = [f'<link rel="modulepreload" href="{url}">' for url in modules]
    lines.append(f'<script src="{up}sw-register.js" defer></script>')
    return "".join(f"  {line}\n" for line in lines)


def write_service_worker(site: Path) -> str:
    """Write site/sw.js with every file to precache and a cache name hashed from their bytes
    and the worker's own code."""
    files = sorted(
        p.relative_to(site).as_posix()
        for p in site.rglob("*")
        if p.is_file() and not p.relative_to(site).as_posix().startswith(NOT_PRECACHED)
    )
    template = (WEB / "sw.js").read_text(encoding="utf-8")
    digest = hashlib.sha256(template.encode())
    for name in files + notebook_app.app_files(site):  # a new notebook app is a new deploy
        digest.update(b"\0" + name.encode() + b"\0" + (site / name).read_bytes())
    # A page is asked for by its folder's URL ("d8/"), which the server answers with index.html.
    urls = [f.removesuffix("index.html") or "./" for f in files]
    build_info = {"cache": SW_PREFIX + digest.hexdigest()[:16], "prefix": SW_PREFIX, "urls": urls}
    header = f"// Generated by build.py.\nconst BUILD = {json.dumps(build_info)};\n\n"
    (site / "sw.js").write_text(header + template, encoding="utf-8")
    notebook_app.write_worker(site, build_info, template)
    return str(build_info["cache"])


def build() -> Path:
    """Install the pinned runtime if needed and build dist/ from scratch."""
    ensure_runtime()
    if DIST.exists():
        shutil.rmtree(DIST)
    shutil.copytree(WEB, DIST, ignore=shutil.ignore_patterns(
        "__pycache__", "*.pyc", "index.html", "_*.html", LESSON_TEMPLATE, *BUILD_ONLY))
    (DIST / "pyscript").mkdir()
    for name in [*pyscript_chunks(), "core.css"]:
        shutil.copy2(PYSCRIPT_DIST / name, DIST / "pyscript" / name)
    patch_indexeddb(DIST / "pyscript")
    (DIST / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE_DIST / name, DIST / "pyodide" / name)
    files = python_files()
    pages = render_pages()
    precompile(DIST, files)
    for page in pages:  # start each page's runtime downloads as soon as its <head> is read
        up = "../" * (len(page.parts) - 1)
        html = (DIST / page).read_text(encoding="utf-8")
        html = html.replace("</head>", head_links(up) + "</head>", 1)
        (DIST / page).write_text(html, encoding="utf-8")
    build_notebook()
    (DIST / ".nojekyll").touch()
    cache = write_service_worker(DIST)
    print(f"Built {DIST.relative_to(ROOT)}/ ({len(pages)} pages, {len(files)} files in "
          f"{LESSONS_ZIP}, cache {cache})", flush=True)
    return DIST


def ensure_notebook_tools() -> None:
    """pip install the exact pins of pyproject's `notebook` extra when any is missing."""
    if all(importlib.util.find_spec(name) is not None for name in NOTEBOOK_IMPORTS):
        return
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    run([sys.executable, "-m", "pip", "install", *project["project"]["optional-dependencies"]
         ["notebook"]])


def package_wheel(out: Path) -> Path:
    """Build the package's wheel, fixtures inside, into out and return its path."""
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), "."])
    return next(out.glob("attention_lessons-*.whl"))


def pypi_wheels(pins: dict[str, str]) -> list[Path]:
    """The pure-Python wheels name==version for Pyodide's Python, downloaded from PyPI once."""
    stems = {name: f"{re.sub(r'[-_.]+', '_', name)}-{version}-" for name, version in pins.items()}
    missing = [f"{n}=={pins[n]}" for n, s in stems.items() if not any(WHEEL_CACHE.glob(f"{s}*"))]
    if missing:
        run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "--python-version", "3.14", "--platform", "any",
             "--implementation", "py", "-d", str(WHEEL_CACHE), *missing])
    return [next(WHEEL_CACHE.glob(f"{stem}*.whl")) for stem in stems.values()]


def wheel_entry(wheel: Path) -> dict[str, Any]:
    """A lock entry read from the wheel itself: its top-level imports and unconditional needs."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
        lines = archive.read(metadata).decode("utf-8").splitlines()
    field = {k: v for k, _, v in (line.partition(": ") for line in lines if ": " in line)}
    needs = [line.removeprefix("Requires-Dist: ") for line in lines
             if line.startswith("Requires-Dist: ") and ";" not in line]
    tops = {n.split("/")[0].removesuffix(".py") for n in names if n.endswith(".py")}
    return {"name": canonical(field["Name"]), "version": field["Version"],
            "depends": [re.split(r"[\s<>=!~\[(]", need)[0] for need in needs],
            "imports": sorted(tops)}


def canonical(name: str) -> str:
    """A distribution's name as Pyodide's lock keys it: lower case, runs of -_. as one dash."""
    return re.sub(r"[-_.]+", "-", name).lower()


def kernel_lock(wheels: Path) -> dict[str, Any]:
    """A Pyodide lock listing exactly the wheels in `wheels`, with their real sha256."""
    stock = json.loads((PYODIDE_DIST / "pyodide-lock.json").read_text(encoding="utf-8"))
    packages: dict[str, Any] = {}
    for wheel in sorted(wheels.glob("*.whl")):
        entry = wheel_entry(wheel)
        known = stock["packages"].get(entry["name"], {})
        known = known if known.get("version") == entry["version"] else {}  # another pin
        entry.update({k: known[k] for k in ("depends", "imports") if k in known})
        packages[entry["name"]] = {
            **entry, "depends": sorted(canonical(need) for need in entry["depends"]),
            "file_name": wheel.name,  # Pyodide resolves it against the lock's own folder
            "install_dir": "site", "package_type": "package", "unvendored_tests": False,
            "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        }
    return {"info": stock["info"], "packages": packages}


def lite_config() -> dict[str, Any]:
    """jupyter-lite.json: the kernel on the site's own Pyodide, every wheel from our lock."""
    kernel = {
        # Only values starting "./" are taken relative to jupyter-lite.json, in notebook/.
        "pyodideUrl": "./../pyodide/pyodide.mjs",
        "disablePyPIFallback": True,
        "loadPyodideOptions": {"lockFileURL": "./wheels/pyodide-lock.json",
                               "stdLibURL": STDLIB_URL,
                               "packages": list(KERNEL_PACKAGES)},
    }
    return {"jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"litePluginSettings": {KERNEL_PLUGIN: kernel}}}


def build_notebook() -> None:
    """JupyterLite's notebook app into dist/notebook/, the lessons' notebooks, wheels and lock."""
    ensure_notebook_tools()
    stock = json.loads((PYODIDE_DIST / "pyodide-lock.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as temp:
        lite = Path(temp)
        (lite / "jupyter-lite.json").write_text(json.dumps(lite_config(), indent=2))
        run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite),
             "--contents", str(NOTEBOOKS), "--output-dir", str(NOTEBOOK_DIST),
             "--apps", "notebooks", "--no-sourcemaps", "--no-unused-shared-packages"],
            cwd=lite)  # it keeps its task database in the working directory
        wheels = NOTEBOOK_DIST / "wheels"
        wheels.mkdir()
        package_wheel(wheels)
    shipped = NOTEBOOK_DIST / "extensions" / "@jupyterlite" / "pyodide-kernel-extension"
    for name in KERNEL_FROM_EXTENSION:
        stem = re.sub(r"[-_.]+", "_", name)
        shutil.copy2(next((shipped / "static" / "pypi").glob(f"{stem}-*.whl")), wheels)
    pins = {name: stock["packages"][name]["version"] for name in KERNEL_FROM_PYODIDE}
    for wheel in pypi_wheels({**pins, **KERNEL_FROM_PYPI}):
        shutil.copy2(wheel, wheels)
    precompile_kernel(PYODIDE_DIST, RUNTIME, wheels, NOTEBOOK_DIST / STDLIB_URL,
                      ROOT / "build" / "kernel")
    lock = kernel_lock(wheels)
    (wheels / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")
    notebook_app.finish_app(NOTEBOOK_DIST)


class QuietHandler(SimpleHTTPRequestHandler):
    """Static files with explicit types for modules and WebAssembly, and no request log."""

    extensions_map = {  # noqa: RUF012  (the base class declares it a plain dict)
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
        ".toml": "text/plain",
        ".py": "text/plain",
    }

    def log_message(self, format: str, *args: Any) -> None:
        pass


class QuietServer(ThreadingHTTPServer):
    """A threading server that does not print a traceback when a browser drops a connection."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def make_server(directory: Path, port: int = 0) -> QuietServer:
    """An HTTP server for `directory` on 127.0.0.1 (port 0: any free port)."""
    return QuietServer(("127.0.0.1", port), partial(QuietHandler, directory=str(directory)))


def serve(port: int) -> None:
    build()
    with make_server(DIST, port) as server:
        print(f"Serving the course at http://127.0.0.1:{server.server_port}/", flush=True)
        print("Press Ctrl+C to stop.", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print()


def setup() -> int:
    """Install what a fresh machine lacks: the browsers, the pip test extras, the npm runtime."""
    missing = [package for path, package in APT_PACKAGES.items() if not Path(path).exists()]
    if missing:
        install = "DEBIAN_FRONTEND=noninteractive apt-get install -y"
        command = f"apt-get update && {install} {' '.join(missing)}"
        if os.geteuid() != 0:
            print(f"{', '.join(missing)} missing. Install as root:\n  sudo sh -c '{command}'")
            return 1
        run(["sh", "-c", command])
    if any(importlib.util.find_spec(name) is None for name in (*TEST_IMPORTS, *NOTEBOOK_IMPORTS)):
        run([sys.executable, "-m", "pip", "install", "-e", ".[test,notebook]"])
    ensure_runtime()
    return 0


def test(pytest_args: Sequence[str]) -> int:
    if (code := setup()) != 0:
        return code
    build()
    env = {**os.environ, BUILT_ENV: "1"}
    pytest = [sys.executable, "-m", "pytest", *pytest_args]
    code = subprocess.run(pytest, check=False, cwd=ROOT, env=env).returncode
    if code == 5:
        print("build.py test: pytest ran no tests, which counts as a failure.", flush=True)
        return 1
    return code


def bench(name: str, bench_args: Sequence[str]) -> int:
    """Set up, build, then run one of tests/perf/'s benchmarks with the arguments given."""
    if (code := setup()) != 0:
        return code
    build()
    command = [sys.executable, str(ROOT / "tests" / "perf" / BENCHMARKS[name]), *bench_args]
    return subprocess.run(command, check=False, cwd=ROOT).returncode


def main(argv: Sequence[str]) -> int:
    if argv[:1] == ["test"]:  # everything after `test` goes to pytest untouched
        return test(argv[1:])
    if argv[:1] and argv[0] in BENCHMARKS:  # and everything after a benchmark's name to it
        return bench(argv[0], argv[1:])
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", help="build dist/ (the default)")
    serve_parser = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000)
    commands.add_parser(
        "setup", help="install the browsers, the pip test and notebook extras, the npm runtime")
    commands.add_parser("test", help="setup, build, then pytest (extra arguments go to pytest)")
    commands.add_parser("bench", help="start-up in Chromium against a bare page [--runs N] "
                                      "[--json PATH]")
    commands.add_parser("bench-browsers", help="time to Python-ready in Chromium, Firefox and "
                                               "WebKit [--runs N]")
    commands.add_parser("bench-notebook", help="D8's notebook against a bare JupyterLite, cold "
                                               "and warm, beside D8 [--runs N] [--json PATH]")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.port)
    elif args.command == "setup":
        return setup()
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

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
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
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
CONFIG_NAME = "pyscript.toml"
# Static and dynamic imports of sibling chunks in PyScript's bundled files.
CHUNK_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["']\./([\w.-]+\.js)["']""")

CHROMIUM = "/usr/bin/chromium"
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
    "axe_playwright_python",
    "hypothesis",
    "numpy",
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
    "micropip", "packaging", "ipython", "asttokens", "decorator", "executing",
    "matplotlib-inline", "prompt-toolkit", "pure-eval", "pygments", "six", "stack-data",
    "traitlets", "wcwidth", "jedi", "parso",
)
KERNEL_FROM_PYPI = {"comm": "0.2.3"}  # pyodide-kernel needs comm; Pyodide's lock has none
# The kernel extension's own wheels (its static/pypi/), with the package's wheel beside them.
KERNEL_FROM_EXTENSION = ("piplite", "pyodide-kernel", "ipykernel")
# The worker skips its piplite installs for these names when they are preloaded, so every
# wheel loads from the lock; listing the whole lock preloads the package too.
KERNEL_PACKAGES = (*KERNEL_FROM_PYODIDE, *KERNEL_FROM_PYPI, *KERNEL_FROM_EXTENSION,
                   "attention-lessons")
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


def python_files() -> list[Path]:
    """Every file that Python in the browser needs, relative to dist/py/."""
    modules = [p for p in sorted(PACKAGE.iterdir()) if p.suffix == ".py" or p.name == "py.typed"]
    package = [Path(PACKAGE.name, p.name) for p in modules]
    return package + [Path("fixtures", p.name) for p in sorted(FIXTURES.glob("*.json"))]


def render_config(template: Path, files: list[Path]) -> str:
    """The template plus a [files] table fetching each file from dist/py/ into Pyodide's
    working directory (/home/pyodide, on sys.path): the package and fixtures/ land there."""
    text = template.read_text(encoding="utf-8")
    config: dict[str, Any] = tomllib.loads(text)
    # `interpreter` resolves against the page's URL (the page sits beside its config).
    interpreter = str(config.get("interpreter", ""))
    page_dir = DIST / template.parent.relative_to(WEB)
    if (
        not interpreter.startswith(".")
        or (page_dir / interpreter).resolve() != (DIST / "pyodide" / "pyodide.mjs").resolve()
    ):
        sys.exit(f"{template}: set interpreter to the self-hosted pyodide.mjs by a relative URL")
    if "files" in config:
        sys.exit(f"{template}: leave out [files]; build.py generates it")
    # [files] URLs resolve against the config file's URL, so climb to the top of dist/.
    up = "../" * (len(template.relative_to(WEB).parts) - 1)
    lines = [text.rstrip(), "", "# Generated by build.py.", "[files]"]
    lines += [f'{json.dumps(f"{up}py/{f.as_posix()}")} = "./{f.as_posix()}"' for f in files]
    return "\n".join(lines) + "\n"


def build() -> Path:
    """Install the pinned runtime if needed and build dist/ from scratch."""
    ensure_runtime()
    if DIST.exists():
        shutil.rmtree(DIST)
    shutil.copytree(WEB, DIST, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    (DIST / "pyscript").mkdir()
    for name in [*pyscript_chunks(), "core.css"]:
        shutil.copy2(PYSCRIPT_DIST / name, DIST / "pyscript" / name)
    (DIST / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE_DIST / name, DIST / "pyodide" / name)
    files = python_files()
    for relative in files:
        target = DIST / "py" / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        source = PACKAGE if relative.parts[0] == PACKAGE.name else FIXTURES
        shutil.copy2(source / relative.name, target)
    for template in WEB.rglob(CONFIG_NAME):
        rendered = render_config(template, files)
        (DIST / template.relative_to(WEB)).write_text(rendered, encoding="utf-8")
    build_notebook()
    (DIST / ".nojekyll").touch()
    print(f"Built {DIST.relative_to(ROOT)}/ ({len(files)} Python files)", flush=True)
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
    lock = kernel_lock(wheels)
    (wheels / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")


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
        print(f"Serving D8 at http://127.0.0.1:{server.server_port}/d8/", flush=True)
        print("Press Ctrl+C to stop.", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print()


def setup() -> int:
    """Install what a fresh machine lacks: Chromium, the pip extras, the npm runtime."""
    if not Path(CHROMIUM).exists():
        command = "apt-get update && apt-get install -y chromium"
        if os.geteuid() != 0:
            print(f"Chromium is missing. Install it as root:\n  sudo sh -c '{command}'")
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


def bench(runs: int, notebook: bool) -> int:
    build()
    script = ROOT / "tests" / "perf" / ("bench_notebook.py" if notebook else "bench_startup.py")
    command = [sys.executable, str(script), "--runs", str(runs)]
    return subprocess.run(command, check=False, cwd=ROOT).returncode


def main(argv: Sequence[str]) -> int:
    if argv[:1] == ["test"]:  # everything after `test` goes to pytest untouched
        return test(argv[1:])
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("build", help="build dist/ (the default)")
    serve_parser = commands.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve_parser.add_argument("--port", type=int, default=8000)
    commands.add_parser(
        "setup", help="install Chromium, the pip test and notebook extras and the npm runtime")
    commands.add_parser("test", help="setup, build, then pytest (extra arguments go to pytest)")
    bench_parser = commands.add_parser("bench", help="the start-up benchmark in Chromium")
    bench_parser.add_argument("--runs", type=int, default=5)
    bench_parser.add_argument("--notebook", action="store_true",
                              help="D8's notebook to a ready kernel, beside D8, cold")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(args.port)
    elif args.command == "setup":
        return setup()
    elif args.command == "bench":
        return bench(args.runs, args.notebook)
    else:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The lessons' notebooks in JupyterLite, on the site's own Pyodide, with a lock of our own over
the wheels its kernel loads."""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import shutil
import sys
import tempfile
import zipfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import notebook_app
from .kernel import STDLIB_URL, importable, precompile_kernel, trim_jedi
from .paths import DIST, FIXTURES, NOTEBOOKS, PACKAGE, PYPROJECT, ROOT, RUNTIME, run, source_date
from .runtime import PYODIDE_DIST

NOTEBOOK_DIST = DIST / "notebook"
WHEEL_CACHE = ROOT / "build" / "notebook-wheels"  # PyPI downloads, kept between builds
KERNEL_CACHE = ROOT / "build" / "kernel"  # the kernel's bytecode, by what made it
WHEEL_LOCK = ROOT / "build" / "wheel.lock"  # held while the package's wheel is built
WHEEL_INPUTS = (PACKAGE, FIXTURES, PYPROJECT)  # what the package's wheel is made of
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"
# Every cell in the page from the start. JupyterLab's default attaches the cells below the
# first screen later, one idle callback at a time, and a stalled callback once left the
# rest of a notebook missing after Run All; find-in-page and screen readers miss them too.
NOTEBOOK_PLUGIN = "@jupyterlab/notebook-extension:tracker"
ALL_CELLS = {"windowingMode": "none"}
# Plugins of the notebook app that nothing here uses, left out of its start (each activates,
# and checks its settings, before the notebook is drawn): renderers of outputs no lesson
# makes, authoring tools, and parts of apps this build has no page for. Each plugin that
# needs one of them is named too, or it fails to activate with an error. Kept: MathJax (a
# learner may write a formula), the log console, the high-contrast theme, Help.
UNUSED_PLUGINS = (
    "@jupyterlab/mermaid-extension", "@jupyterlab/vega5-extension",
    "@jupyterlab/audio-extension", "@jupyterlab/video-extension",
    "@jupyterlab/javascript-extension", "@jupyterlab/json-extension",
    "@jupyterlab/metadataform-extension", "@jupyterlab/notebook-extension:update-raw-mimetype",
    "@jupyterlab/celltags-extension", "@jupyterlab/cell-toolbar-extension",
    "@jupyterlab/console-extension", "@jupyter-notebook/console-extension",
    "@jupyterlab/tooltip-extension:consoles",
    "@jupyterlab/fileeditor-extension", "@jupyterlab/tooltip-extension:files",
    "@jupyterlab/lsp-extension", "@jupyterlite/application-extension:lsp-connection-manager",
    "@jupyterlab/notebook-extension:language-server",
    "@jupyterlab/toc-extension", "@jupyterlab/notebook-extension:toc",
)
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


def package_wheel(out: Path) -> Path:
    """Build the package's wheel, fixtures inside, into out and return its path. Its files are
    dated by its inputs' last commit, so the same sources give the same wheel, lock and cache."""
    # setuptools builds in this checkout's build/ and writes its egg-info into src/: two builds
    # at once (two test workers, say) write over each other's files and one fails, so they
    # take turns.
    WHEEL_LOCK.parent.mkdir(exist_ok=True)
    with WHEEL_LOCK.open("a") as turn:
        fcntl.flock(turn, fcntl.LOCK_EX)
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), "."],
            env={"SOURCE_DATE_EPOCH": str(source_date(*WHEEL_INPUTS))})
    return next(out.glob("attention_lessons-*.whl"))


def date_contents(listing: Path, epoch: int) -> None:
    """Date every notebook in JupyterLite's contents listing `epoch` (the notebooks' last
    commit), in name order, instead of the build's clock and the checkout's file times, which
    differ from build to build and clone to clone."""
    contents = json.loads(listing.read_text(encoding="utf-8"))
    stamp = datetime.fromtimestamp(epoch, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    for entry in (contents, *contents["content"]):  # the folder, then each notebook in it
        entry["created"] = entry["last_modified"] = stamp
    contents["content"].sort(key=lambda entry: entry["path"])
    listing.write_text(json.dumps(contents, indent=2, sort_keys=True), encoding="utf-8")


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
            "jupyter-config-data": {"litePluginSettings": {KERNEL_PLUGIN: kernel},
                                    "settingsOverrides": {NOTEBOOK_PLUGIN: ALL_CELLS},
                                    "disabledExtensions": list(UNUSED_PLUGINS)}}


def build_notebook() -> None:
    """JupyterLite's notebook app into dist/notebook/, the lessons' notebooks, wheels and lock."""
    stock = json.loads((PYODIDE_DIST / "pyodide-lock.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as temp:
        lite = Path(temp)
        (lite / "jupyter-lite.json").write_text(json.dumps(lite_config(), indent=2))
        run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite),
             "--contents", str(NOTEBOOKS), "--output-dir", str(NOTEBOOK_DIST),
             "--apps", "notebooks", "--no-sourcemaps", "--no-unused-shared-packages"],
            cwd=lite)  # it keeps its task database in the working directory
        date_contents(NOTEBOOK_DIST / "api" / "contents" / "all.json", source_date(NOTEBOOKS))
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
    trim_jedi(next(wheels.glob("jedi-*.whl")), importable(wheels))
    precompile_kernel(PYODIDE_DIST, RUNTIME, wheels, NOTEBOOK_DIST / STDLIB_URL,
                      KERNEL_CACHE)
    lock = kernel_lock(wheels)
    (wheels / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")
    notebook_app.finish_app(NOTEBOOK_DIST)

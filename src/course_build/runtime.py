"""The pinned browser runtime: npm's PyScript and Pyodide, copied and patched into the site, and
Python precompiled for it by Pyodide itself under Node."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
import tempfile
from functools import cache
from pathlib import Path

from .paths import BROWSER, FIXTURES, NODE_MODULES, PACKAGE, ROOT, RUNTIME, WEB, run

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
PYSCRIPT_PACKAGE = NODE_MODULES / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js"
# What each page unpacks into Pyodide's working directory: our package (sources and bytecode)
# with its fixtures, in one archive (one request, where a file each took 23), and the bytecode
# of PyScript's own package, whose sources PyScript writes there itself.
LESSONS_ZIP = "py/attention_lessons.zip"
PYSCRIPT_PYC = "runtime/pycache.zip"
ARCHIVES = (LESSONS_ZIP, PYSCRIPT_PYC)
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


def plugins_off() -> list[str]:
    """A config's `plugins` entry: every PyScript plugin but PLUGINS_KEPT turned off."""
    return [f"!{name}" for name in pyscript_plugins() if name not in PLUGINS_KEPT]


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


def copy_runtime(site: Path) -> None:
    """PyScript's core.js with its chunks (patched) and core.css into site/pyscript/, and
    Pyodide's PYODIDE_FILES into site/pyodide/."""
    (site / "pyscript").mkdir()
    for name in [*pyscript_chunks(), "core.css"]:
        shutil.copy2(PYSCRIPT_DIST / name, site / "pyscript" / name)
    patch_indexeddb(site / "pyscript")
    (site / "pyodide").mkdir()
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE_DIST / name, site / "pyodide" / name)


def python_files() -> dict[str, Path]:
    """Every file that Python in the browser needs: its path in Pyodide's working directory
    (/home/pyodide, on sys.path), and the file here."""
    files: dict[str, Path] = {}
    for package in (PACKAGE, BROWSER):
        modules = sorted(p for p in package.rglob("*")
                         if p.suffix == ".py" or p.name == "py.typed")
        files |= {Path(package.name, p.relative_to(package)).as_posix(): p for p in modules}
    return files | {f"fixtures/{p.name}": p for p in sorted(FIXTURES.glob("*.json"))}


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

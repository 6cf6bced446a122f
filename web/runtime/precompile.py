"""Trim Pyodide's standard library to what the pages import; compile it and our code to .pyc."""

# Runs inside Pyodide under Node (see precompile.mjs), which sets `spec_json` and mounts the
# host's file system at /host. The result is the value of the last expression: a report.
from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import json
import sys
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]
from pathlib import Path

HOST = Path("/host")
STDLIB = Path("/stdlib-sources")  # in Pyodide's in-memory file system
HOME = "/home/pyodide"  # where PyScript's [files] and its own package land in the browser
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # same bytes from the same sources: a stable content hash

spec = json.loads(spec_json)  # type: ignore[name-defined]  # noqa: F821
zip_path = next(p for p in sys.path if p.endswith(".zip"))
with zipfile.ZipFile(zip_path) as full:
    full.extractall(STDLIB)


def host(path: str) -> Path:
    return HOST / path.lstrip("/")


def module_names(package: Path) -> list[str]:
    """The dotted name of every module in a package folder."""
    names = []
    for file in sorted(package.rglob("*.py")):
        parts = file.relative_to(package.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def pyc(source_file: Path, shown_as: str) -> bytes:
    """Unchecked-hash bytecode: never compared with a source, so rebuilt on every build."""
    source = source_file.read_bytes()
    code = compile(source, shown_as, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def write_zip(target: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(target, "w") as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, members[name], compresslevel=9)


# Our package and fixtures, by their path under HOME; PyScript's package, whose sources
# PyScript writes under HOME itself at every start.
files = {name: host(path) for name, path in spec["files"].items()}
sources = {name: file for name, file in files.items() if name.endswith(".py")}
pyscript = Path("/pyscript-src/pyscript")
pyscript_sources = {str(f.relative_to(pyscript.parent)): f for f in sorted(pyscript.rglob("*.py"))}
scripts = [host(p) for p in spec["scripts"]]


def imported_names(file: Path) -> set[str]:
    """Every absolute module name a file imports, at the top or inside any function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(file.read_bytes(), str(file))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # `from x import y` may name a submodule y: try both, keep what exists.
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


# Import for real, in this interpreter, every standard-library module that our code,
# the pages and PyScript's package import anywhere: sys.modules then holds their true
# import-time closure plus what Pyodide itself loaded to start. Ours and PyScript's own
# modules are not imported here (PyScript's need the browser); only what they name.
local = {spec["package"], pyscript.name}
wanted = set().union(*map(imported_names, [*sources.values(), *pyscript_sources.values()]))
wanted |= set().union(*map(imported_names, scripts))
for name in sorted(wanted):
    if name.partition(".")[0] not in local:
        # ImportError: a JS module (js, polyscript), or an attribute rather than a module.
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
# The codec registry imports `encodings.*` by name when a codec is first asked for.
for name in module_names(STDLIB / "encodings"):
    with contextlib.suppress(ImportError):  # a codec of another platform (mbcs, oem)
        importlib.import_module(name)

prefix = f"{zip_path}/"
kept = sorted(
    Path(file.removeprefix(prefix))
    for module in list(sys.modules.values())
    if (file := getattr(module, "__file__", None) or "").startswith(prefix)
)
out = host(spec["out"])
out.mkdir(parents=True, exist_ok=True)
write_zip(
    out / "python_stdlib.zip",
    {str(r.with_suffix(".pyc")): pyc(STDLIB / r, f"{zip_path}/{r}") for r in kept},
)


def compiled(modules: dict[str, Path]) -> dict[str, bytes]:
    """Each module's bytecode, at the __pycache__ path that CPython looks for under HOME."""
    return {importlib.util.cache_from_source(name): pyc(file, f"{HOME}/{name}")
            for name, file in modules.items()}


write_zip(host(spec["pyscript_pyc"]), compiled(pyscript_sources))
lessons = host(spec["lessons"])
lessons.parent.mkdir(parents=True, exist_ok=True)
write_zip(lessons, {name: file.read_bytes() for name, file in files.items()} | compiled(sources))
every = sum(1 for _ in STDLIB.rglob("*.py"))
(f"kept {len(kept)} of {every} standard-library modules; compiled {len(sources)} of ours "
 f"and {len(pyscript_sources)} of PyScript's")

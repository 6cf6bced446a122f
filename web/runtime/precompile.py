"""Trim Pyodide's standard library to what the pages import; compile it and our code to .pyc."""

# Runs inside Pyodide under Node (see precompile.mjs), which sets `spec_json` and mounts the
# host's file system at /host. The result is the value of the last expression: a report.
# Two tasks share the one compile step, `pyc`: the lesson pages' runtime (the default), and,
# with "task": "kernel", the notebook kernel's full standard library and wheels.
from __future__ import annotations

import ast
import base64
import contextlib
import hashlib
import importlib
import importlib.util
import json
import sys
import sysconfig
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
    return pyc_of(source_file.read_bytes(), shown_as)


def pyc_of(source: bytes, shown_as: str) -> bytes:
    """`pyc` of a source held in memory. Wheels are unpacked without their files' times, so
    only bytecode that never checks its source is ever used."""
    code = compile(source, shown_as, "exec", dont_inherit=True)
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def write_zip(target: Path, members: dict[str, bytes]) -> None:
    with zipfile.ZipFile(target, "w") as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, members[name], compresslevel=9)


def with_id(archive: Path, members: dict[str, bytes]) -> dict[str, bytes]:
    """`members` and a file named for the archive ("attention_lessons.zip.id") holding a digest
    of them. It lands beside them in the page's working directory, where main.py compares it with
    the id that the build wrote into main.py: a page never runs an archive of another deploy."""
    digest = hashlib.sha256()
    for name in sorted(members):
        digest.update(name.encode() + b"\0" + hashlib.sha256(members[name]).digest())
    return members | {f"{archive.name}.id": digest.hexdigest()[:16].encode()}


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


def compiled(modules: dict[str, Path]) -> dict[str, bytes]:
    """Each module's bytecode, at the __pycache__ path that CPython looks for under HOME."""
    return {importlib.util.cache_from_source(name): pyc(file, f"{HOME}/{name}")
            for name, file in modules.items()}


def lesson_runtime() -> str:
    """The lesson pages' trimmed standard library, our package's archive and PyScript's
    bytecode; a report of what was kept."""
    # Our package and fixtures, by their path under HOME; PyScript's package, whose sources
    # PyScript writes under HOME itself at every start.
    files = {name: host(path) for name, path in spec["files"].items()}
    sources = {name: file for name, file in files.items() if name.endswith(".py")}
    pyscript = Path("/pyscript-src/pyscript")
    pyscript_sources = {str(f.relative_to(pyscript.parent)): f
                        for f in sorted(pyscript.rglob("*.py"))}
    scripts = [host(p) for p in spec["scripts"]]

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
    pyscript_pyc = host(spec["pyscript_pyc"])
    write_zip(pyscript_pyc, with_id(pyscript_pyc, compiled(pyscript_sources)))
    lessons = host(spec["lessons"])
    lessons.parent.mkdir(parents=True, exist_ok=True)
    write_zip(lessons, with_id(lessons, {name: file.read_bytes() for name, file in files.items()}
                                        | compiled(sources)))
    every = sum(1 for _ in STDLIB.rglob("*.py"))
    return (f"kept {len(kept)} of {every} standard-library modules; compiled {len(sources)} "
            f"of ours and {len(pyscript_sources)} of PyScript's")


def kernel() -> str:
    """The notebook kernel's files: the FULL standard library (IPython imports pydoc, pdb,
    unittest and more) with bytecode beside every source, and each wheel rewritten with
    bytecode beside its sources, listed in its RECORD. The sources stay, so tracebacks show
    their lines. Wheels are written to spec["wheels"][source]."""
    with zipfile.ZipFile(zip_path) as full:
        stdlib = {name: full.read(name) for name in full.namelist() if not name.endswith("/")}
    if spec.get("stdlib"):  # None when the build has it already
        write_zip(host(spec["stdlib"]), stdlib | {
            name.removesuffix(".py") + ".pyc": pyc_of(source, f"{zip_path}/{name}")
            for name, source in stdlib.items() if name.endswith(".py")})
    site_packages = sysconfig.get_path("purelib")  # where loadPackage unpacks a wheel
    for source, target in spec["wheels"].items():
        with zipfile.ZipFile(host(source)) as wheel:
            members = {n: wheel.read(n) for n in wheel.namelist() if not n.endswith("/")}
        compiled = {importlib.util.cache_from_source(name): pyc_of(code, f"{site_packages}/{name}")
                    for name, code in members.items()
                    if name.endswith(".py") and not name.split("/")[0].endswith(".data")}
        record = next(n for n in members if n.endswith(".dist-info/RECORD"))
        lines = members[record].decode().splitlines()
        lines += [f"{name},sha256={digest(data)},{len(data)}"
                  for name, data in sorted(compiled.items())]
        members[record] = ("\n".join(lines) + "\n").encode()
        write_zip(host(target), members | compiled)
    modules = sum(n.endswith(".py") for n in stdlib) if spec.get("stdlib") else 0
    return (f"compiled {modules} standard-library modules and {len(spec['wheels'])} wheels "
            "for the notebook kernel")


def digest(data: bytes) -> str:
    """A RECORD's hash: urlsafe base64 of the sha256, without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


kernel() if spec.get("task") == "kernel" else lesson_runtime()

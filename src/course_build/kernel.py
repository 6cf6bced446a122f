"""The notebook kernel's fast start: its full standard library and every wheel precompiled."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import tempfile
import zipfile
from pathlib import Path

STDLIB = "python_stdlib.zip"
# Beside the kernel's wheels in the built notebook app, named in jupyter-lite.json's
# loadPyodideOptions (a key ending in URL, resolved against the app's base URL).
STDLIB_URL = "./kernel/python_stdlib.zip"


# jedi's stubs that no kernel here can read: django's (no django in the kernel), typeshed's for
# Python 2, and typeshed's for third-party packages, but those of a package the kernel ships.
# They are 1,280 of jedi's 1,880 files, and unpacking files is most of a wheel's load.
JEDI_UNREAD = re.compile(r"jedi/third_party/(django-stubs/|typeshed/(stdlib|third_party)/2/)")
JEDI_THIRD_PARTY = re.compile(r"jedi/third_party/typeshed/third_party/(?:2and3|3)/([^/.]+)")


def trim_jedi(wheel: Path, shipped: set[str]) -> int:
    """Rewrite jedi's wheel without the stubs it cannot read here (its RECORD to match),
    keeping the third-party stubs of the importable names in `shipped`. Returns how many
    files went. jedi lists typeshed's third_party folder, so one stub must stay in it."""
    with zipfile.ZipFile(wheel) as whole:
        members = {info.filename: whole.read(info) for info in whole.infolist()}

    def unread(name: str) -> bool:
        third_party = JEDI_THIRD_PARTY.match(name)
        return bool(JEDI_UNREAD.match(name) or (third_party and third_party[1] not in shipped))

    gone = {name for name in members if unread(name)}
    if not any(JEDI_THIRD_PARTY.match(name) for name in members.keys() - gone):
        raise SystemExit("build.py: jedi would keep no third-party stub, and it lists their "
                         "folder: keep one of a package the kernel ships")
    record = next(name for name in members if name.endswith(".dist-info/RECORD"))
    lines = members[record].decode().splitlines()
    members[record] = "".join(f"{line}\n" for line in lines
                              if line.split(",")[0] not in gone).encode()
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as trimmed:
        for name in sorted(members.keys() - gone):
            trimmed.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), members[name],
                             zipfile.ZIP_DEFLATED)
    return len(gone)


def importable(wheels: Path) -> set[str]:
    """The top-level names that the wheels in `wheels` put on the path."""
    names: set[str] = set()
    for wheel in wheels.glob("*.whl"):
        with zipfile.ZipFile(wheel) as each:
            names.update(name.split("/")[0].removesuffix(".py") for name in each.namelist())
    return names


def precompile_kernel(pyodide: Path, runtime: Path, wheels: Path, stdlib: Path,
                      cache: Path) -> None:
    """Rewrite each wheel in `wheels` with unchecked-hash .pyc beside its sources (RECORD
    updated), and write Pyodide's full standard library with .pyc beside its sources to
    `stdlib`.

    The compiling is the lesson runtime's own step, web/runtime/precompile.mjs in `runtime`,
    run on the npm Pyodide in `pyodide`, so the bytecode comes from the interpreter that
    runs it. Results are kept in `cache` under a hash of what made them (the source file,
    both precompile files and Pyodide's lock), so a rebuild compiles only what changed.
    """
    step = hashlib.sha256()
    for made_by in (runtime / "precompile.mjs", runtime / "precompile.py",
                    pyodide / "pyodide-lock.json"):
        step.update(made_by.read_bytes())

    def kept(source: Path) -> Path:
        digest = step.copy()
        digest.update(source.read_bytes())
        return cache / digest.hexdigest()[:24] / source.name

    outputs = {source: kept(source) for source in [pyodide / STDLIB, *sorted(wheels.glob("*.whl"))]}
    missing = {source: out for source, out in outputs.items() if not out.is_file()}
    if missing:
        with tempfile.TemporaryDirectory() as folder:
            temp = {source: Path(folder, f"{n}-{source.name}") for n, source in enumerate(missing)}
            spec = {
                "task": "kernel",
                "pyodide": f"{pyodide}/",
                "stdlib": str(temp[pyodide / STDLIB]) if pyodide / STDLIB in temp else None,
                "wheels": {str(s): str(t) for s, t in temp.items() if s.suffix == ".whl"},
            }
            spec_file = Path(folder, "spec.json")
            spec_file.write_text(json.dumps(spec), encoding="utf-8")
            command = ["node", str(runtime / "precompile.mjs"), str(spec_file)]
            print("+", " ".join(command), flush=True)
            subprocess.run(command, check=True)
            for source, out in missing.items():  # moved only once whole: no half-written cache
                out.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(temp[source], out)
    stdlib.parent.mkdir(parents=True, exist_ok=True)
    for source, out in outputs.items():
        shutil.copyfile(out, stdlib if source.suffix == ".zip" else source)

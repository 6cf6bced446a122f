"""The notebook kernel's fast start: its full standard library and every wheel precompiled."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import tempfile
from pathlib import Path

STDLIB = "python_stdlib.zip"
# Beside the kernel's wheels in the built notebook app, named in jupyter-lite.json's
# loadPyodideOptions (a key ending in URL, resolved against the app's base URL).
STDLIB_URL = "./kernel/python_stdlib.zip"


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

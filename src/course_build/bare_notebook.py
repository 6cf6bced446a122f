"""A bare JupyterLite for the notebook benchmark: the same pins, nothing of the fast kernel."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from . import notebook, paths, runtime

# What a maintainer gets by following JupyterLite's documentation offline, on the same pins
# (jupyterlite-core, the Pyodide kernel, npm Pyodide): the kernel on the site's Pyodide with
# its stock standard library (no stdLibURL), the stock PyPI wheels as they are (no bytecode),
# IPython at the version Pyodide's lock names, and no files trimmed. It keeps what any
# offline build needs to run at all: a lock of the shipped wheels, every one preloaded (the
# npm Pyodide has no wheels, and piplite would look on PyPI).


def build_bare(site: Path, built: Path) -> Path:
    """Build the bare app into site/notebook/, beside a link to the built site's pyodide/
    (`built` is dist/); give its notebook's URL path from the top of `site`."""

    if site.exists():
        shutil.rmtree(site)
    site.mkdir(parents=True)
    (site / "pyodide").symlink_to((built / "pyodide").resolve(), target_is_directory=True)
    out = site / "notebook"
    stock = json.loads((runtime.PYODIDE_DIST / "pyodide-lock.json").read_text(encoding="utf-8"))
    pins = {name: stock["packages"][name]["version"]
            for name in (*notebook.KERNEL_FROM_PYODIDE, "ipython")}
    pins["comm"] = notebook.KERNEL_FROM_PYPI["comm"]  # not in Pyodide's lock, so from PyPI
    packages = [*pins, *notebook.KERNEL_FROM_EXTENSION, "attention-lessons"]
    with tempfile.TemporaryDirectory() as temp:
        lite = Path(temp)
        (lite / "jupyter-lite.json").write_text(json.dumps(lite_config(packages), indent=2))
        paths.run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite),
                   "--contents", str(paths.NOTEBOOKS), "--output-dir", str(out),
                   "--apps", "notebooks", "--no-sourcemaps", "--no-unused-shared-packages"],
                  cwd=lite)
    wheels = out / "wheels"
    wheels.mkdir()
    notebook.package_wheel(wheels)
    shipped = out / "extensions" / "@jupyterlite" / "pyodide-kernel-extension" / "static"
    for name in notebook.KERNEL_FROM_EXTENSION:
        stem = notebook.canonical(name).replace("-", "_")
        shutil.copy2(next((shipped / "pypi").glob(f"{stem}-*.whl")), wheels)
    for wheel in notebook.pypi_wheels(pins):
        shutil.copy2(wheel, wheels)
    lock = notebook.kernel_lock(wheels)
    (wheels / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")
    return out


def lite_config(packages: list[str]) -> dict[str, Any]:
    """jupyter-lite.json for the bare app: Pyodide's own start, every wheel from its lock."""
    kernel = {
        "pyodideUrl": "./../pyodide/pyodide.mjs",
        "disablePyPIFallback": True,
        "loadPyodideOptions": {"lockFileURL": "./wheels/pyodide-lock.json",
                               "packages": packages},
    }
    plugin = "@jupyterlite/pyodide-kernel-extension:kernel"
    return {"jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"litePluginSettings": {plugin: kernel}}}

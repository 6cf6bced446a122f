"""A build's service worker holds the digest of every file it precaches
(src/course_build/offline.py)."""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from course_build.offline import write_service_worker
from course_build.paths import WEB
from course_build.runtime import ARCHIVES

PAGES = ("index.html", "d8/index.html")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A small built site: two pages, main.py, the archives and a notebook."""
    site = tmp_path / "site"
    for page in PAGES:
        (site / page).parent.mkdir(parents=True, exist_ok=True)
        (site / page).write_text('<!doctype html>\n<html lang="en">\n<head></head>\n</html>\n',
                                 encoding="utf-8")
    shutil.copy(WEB / "main.py", site / "main.py")
    for archive in ARCHIVES:
        (site / archive).parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(site / archive, "w") as held:
            held.writestr("module.py", "")
    (site / "notebook").mkdir()
    (site / "notebook" / "service-worker.js").write_text("// JupyterLite's\n", encoding="utf-8")
    return site


def worker_build(site: Path) -> dict[str, object]:
    header = (site / "sw.js").read_text(encoding="utf-8").splitlines()[1]
    found: dict[str, object] = json.loads(header.removeprefix("const BUILD = ").removesuffix(";"))
    return found


def test_the_service_worker_holds_the_digest_of_each_file_it_precaches(site: Path) -> None:
    write_service_worker(site)
    # A page by its folder's URL, as it is asked for.
    files = {"./": "index.html", "d8/": "d8/index.html", "main.py": "main.py",
             **{archive: archive for archive in ARCHIVES}}
    assert worker_build(site)["files"] == {
        url: hashlib.sha256((site / name).read_bytes()).hexdigest() for url, name in files.items()}


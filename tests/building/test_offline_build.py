"""A build is one deploy: its id in every page and in main.py, each archive's id in main.py, and
every precached file's digest in the service worker (src/course_build/offline.py)."""

from __future__ import annotations

import hashlib
import json
import re
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
    """A small built site: two pages, main.py, the archives with their ids, and a notebook."""
    site = tmp_path / "site"
    for page in PAGES:
        (site / page).parent.mkdir(parents=True, exist_ok=True)
        (site / page).write_text('<!doctype html>\n<html lang="en">\n<head></head>\n</html>\n',
                                 encoding="utf-8")
    shutil.copy(WEB / "main.py", site / "main.py")
    for number, archive in enumerate(ARCHIVES):
        (site / archive).parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(site / archive, "w") as held:
            held.writestr(f"{Path(archive).name}.id", f"{number:016x}")
    (site / "notebook").mkdir()
    (site / "notebook" / "service-worker.js").write_text("// JupyterLite's\n", encoding="utf-8")
    return site


def ids(site: Path) -> set[str]:
    """Every build id written in the site's pages and main.py."""
    page = re.compile(r'<html data-build="(\w*)" lang="en">')
    found = {page.search((site / p).read_text()) for p in PAGES}
    found.add(re.search(r'^BUILD = "(\w*)"$', (site / "main.py").read_text(), re.MULTILINE))
    assert None not in found
    return {match.group(1) for match in found if match}


def worker_build(site: Path) -> dict[str, object]:
    header = (site / "sw.js").read_text(encoding="utf-8").splitlines()[1]
    found: dict[str, object] = json.loads(header.removeprefix("const BUILD = ").removesuffix(";"))
    return found


def test_every_page_and_main_py_carry_the_id_that_names_the_cache(site: Path) -> None:
    cache = write_service_worker(site)
    assert ids(site) == {cache.removeprefix("attention-lessons-")}
    archives = re.search(r"^ARCHIVES: dict\[str, str\] = (.*)$", (site / "main.py").read_text(),
                         re.MULTILINE)
    assert archives is not None
    assert json.loads(archives.group(1)) == {"attention_lessons.zip.id": "0" * 16,
                                             "pycache.zip.id": "0" * 15 + "1"}


def test_a_site_stamped_again_is_the_same_deploy(site: Path) -> None:
    cache = write_service_worker(site)
    files = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert write_service_worker(site) == cache
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == files


@pytest.mark.parametrize("changed", ["d8/index.html", "main.py", ARCHIVES[0]])
def test_a_change_to_any_file_is_a_new_id_in_every_page_and_main_py(
    site: Path, changed: str
) -> None:
    before = write_service_worker(site)
    with (site / changed).open("ab") as file:
        file.write(b"\n")
    after = write_service_worker(site)
    assert after != before
    assert ids(site) == {after.removeprefix("attention-lessons-")}


def test_the_service_worker_holds_the_digest_of_each_file_it_precaches(site: Path) -> None:
    write_service_worker(site)
    # A page by its folder's URL, as it is asked for.
    files = {"./": "index.html", "d8/": "d8/index.html", "main.py": "main.py",
             **{archive: archive for archive in ARCHIVES}}
    assert worker_build(site)["files"] == {
        url: hashlib.sha256((site / name).read_bytes()).hexdigest() for url, name in files.items()}


@pytest.mark.parametrize(("name", "text"), [("d8/index.html", "<!doctype html>\n<body>\n"),
                                            ("main.py", "import time\n")])
def test_a_page_or_main_py_with_no_place_for_the_id_stops_the_build(
    site: Path, name: str, text: str
) -> None:
    (site / name).write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit, match="no one place for the build's id"):
        write_service_worker(site)

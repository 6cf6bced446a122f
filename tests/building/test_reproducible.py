"""The notebook's build gives the same bytes from the same sources: the package's wheel and
JupyterLite's contents listing carry the inputs' commit time, not the build's clock. Otherwise
every build would name a new service-worker cache, and learners would fetch the site again."""

from __future__ import annotations

import json
import subprocess
import time
import zipfile
from pathlib import Path

import pytest

from course_build import paths
from course_build.notebook import WHEEL_INPUTS, date_contents, package_wheel


def test_every_file_in_the_packages_wheel_is_dated_by_its_inputs_last_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    with zipfile.ZipFile(package_wheel(tmp_path)) as wheel:
        dates = {info.filename: info.date_time for info in wheel.infolist()}
    assert any(name.endswith(".dist-info/RECORD") for name in dates)
    *minutes, seconds = time.gmtime(paths.source_date(*WHEEL_INPUTS))[:6]
    assert set(dates.values()) == {(*minutes, seconds - seconds % 2)}  # a zip keeps even seconds


def test_source_date_is_source_date_epoch_when_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert paths.source_date(*WHEEL_INPUTS) == 1_700_000_000


def test_source_date_is_the_inputs_last_commit_in_a_checkout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    checkout = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=paths.ROOT,
                              capture_output=True, check=False).returncode == 0
    if not checkout:  # a copy of the project, as the scaffold's test makes
        pytest.skip("this copy of the project is not a git checkout")
    assert 1_700_000_000 < paths.source_date(*WHEEL_INPUTS) <= time.time()


def test_source_date_outside_git_is_the_earliest_a_zip_can_hold(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setattr(paths, "ROOT", tmp_path)  # no git repository there
    assert time.gmtime(paths.source_date(tmp_path))[:3] == (1980, 1, 1)


def test_the_contents_listing_is_dated_by_the_commit_and_in_name_order(tmp_path: Path) -> None:
    def entry(name: str, created: str) -> dict[str, object]:
        return {"name": name, "path": name, "created": created, "last_modified": created,
                "type": "notebook"}

    listing = tmp_path / "all.json"
    listing.write_text(json.dumps({
        "name": "", "path": "", "type": "directory", "created": "2026-12-01T13:06:05.370014Z",
        "last_modified": "2026-12-01T13:06:05.370014Z",
        "content": [entry("d8.ipynb", "2026-12-01T12:43:15.3Z"),
                    entry("8-2.ipynb", "2026-11-30T08:33:53.1Z")]}), encoding="utf-8")
    date_contents(listing, 1_700_000_000)
    dated = json.loads(listing.read_text(encoding="utf-8"))
    stamps = {(e["created"], e["last_modified"]) for e in (dated, *dated["content"])}
    assert stamps == {("2023-11-14T22:13:20Z", "2023-11-14T22:13:20Z")}
    assert [e["path"] for e in dated["content"]] == ["8-2.ipynb", "d8.ipynb"]

"""The build's own .venv/: what goes into it, and what happens where Python cannot make one."""

from __future__ import annotations

import importlib.util
import os
import sys
import tomllib
import venv
from pathlib import Path

import pytest

from course_build import environment, machine
from course_build.paths import PYPROJECT

VENV_PACKAGE = f"python{sys.version_info.major}.{sys.version_info.minor}-venv"


def test_the_environment_gets_every_pin_of_the_extras_and_no_reference_to_the_project() -> None:
    extras = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"][
        "optional-dependencies"]
    wanted = environment.requirements()
    own = [r for r in wanted if r.startswith("attention-lessons")]
    assert own == []
    for extra in ("site", "test", "notebook"):  # test names site as attention-lessons[site]
        assert {r for r in extras[extra] if not r.startswith("attention-lessons")} <= set(wanted)
    assert len(wanted) == len(set(wanted))


@pytest.fixture
def no_ensurepip(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """A Python without ensurepip (Debian without python3-venv); returns what would be run."""
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "ensurepip" else real_find_spec(name, *a))
    monkeypatch.setattr(environment, "VENV", tmp_path / ".venv")
    ran: list[str] = []
    monkeypatch.setattr(machine, "run", lambda command: ran.append(" ".join(command)))
    monkeypatch.setattr(venv.EnvBuilder, "create",
                        lambda self, folder: ran.append(f"venv {folder}"))
    return ran


def test_without_ensurepip_and_root_it_says_what_to_install_and_makes_nothing(
    no_ensurepip: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(SystemExit) as stopped:
        environment.create()
    assert stopped.value.code == 1
    said = capsys.readouterr().out
    assert said.startswith(f"{VENV_PACKAGE} missing. Install as root:\n")
    assert f"apt-get install -y {VENV_PACKAGE}" in said
    assert no_ensurepip == []


def test_without_ensurepip_as_root_it_installs_debians_venv_package_first(
    no_ensurepip: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    environment.create()
    assert len(no_ensurepip) == 2
    assert no_ensurepip[0].endswith(f"apt-get install -y {VENV_PACKAGE}")
    assert no_ensurepip[1] == f"venv {tmp_path / '.venv'}"

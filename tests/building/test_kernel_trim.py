"""The kernel's jedi without the stubs no kernel here can read, its RECORD to match."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from course_build.kernel import importable, trim_jedi

TYPESHED = "jedi/third_party/typeshed"
KEPT = (
    "jedi/__init__.py",
    f"{TYPESHED}/LICENSE",
    f"{TYPESHED}/stdlib/2and3/builtins.pyi",
    f"{TYPESHED}/stdlib/3/os/__init__.pyi",
    f"{TYPESHED}/stdlib/3.7/contextvars.pyi",
    f"{TYPESHED}/third_party/2and3/decorator.pyi",  # shipped: the kernel can import it
    f"{TYPESHED}/third_party/3/six/__init__.pyi",
)
GONE = (
    "jedi/third_party/django-stubs/django-stubs/__init__.pyi",
    f"{TYPESHED}/stdlib/2/os/__init__.pyi",
    f"{TYPESHED}/third_party/2/six/__init__.pyi",
    f"{TYPESHED}/third_party/2and3/requests/__init__.pyi",
    f"{TYPESHED}/third_party/3/jwt/__init__.pyi",
)
RECORD = "jedi-0.19.2.dist-info/RECORD"


def wheel(path: Path, names: tuple[str, ...]) -> Path:
    with zipfile.ZipFile(path, "w") as made:
        for name in names:
            made.writestr(name, f"# {name}\n")
        made.writestr(RECORD, "".join(f"{name},sha256=x,1\n" for name in (*names, RECORD)))
    return path


def test_jedi_keeps_its_code_the_stdlib_stubs_for_python_3_and_the_stubs_of_what_ships(
        tmp_path: Path) -> None:
    jedi = wheel(tmp_path / "jedi-0.19.2-py2.py3-none-any.whl", KEPT + GONE)
    assert trim_jedi(jedi, {"jedi", "decorator", "six"}) == len(GONE)
    with zipfile.ZipFile(jedi) as trimmed:
        assert sorted(trimmed.namelist()) == sorted((*KEPT, RECORD))
        listed = [line.split(",")[0] for line in trimmed.read(RECORD).decode().splitlines()]
        assert sorted(listed) == sorted((*KEPT, RECORD))
        assert trimmed.read(KEPT[0]) == b"# jedi/__init__.py\n"


def test_jedi_must_keep_a_third_party_stub_for_it_lists_that_folder(tmp_path: Path) -> None:
    jedi = wheel(tmp_path / "jedi.whl", KEPT + GONE)
    with pytest.raises(SystemExit, match="no third-party stub"):
        trim_jedi(jedi, {"jedi"})  # neither decorator nor six ships: the folder would go


def test_the_importable_names_are_each_wheels_top_level(tmp_path: Path) -> None:
    wheel(tmp_path / "jedi.whl", KEPT)
    with zipfile.ZipFile(tmp_path / "six.whl", "w") as six:
        six.writestr("six.py", "")
        six.writestr("six-1.17.0.dist-info/RECORD", "")
    assert {"jedi", "six"} <= importable(tmp_path)

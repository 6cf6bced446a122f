"""The web app manifest installs under any sub-path, and its icons are rendered from the one SVG
at the sizes it names."""

from __future__ import annotations

import struct
from pathlib import Path

from course_build.icons import MANIFEST, SIZES, manifest, write_manifest


def test_every_url_in_the_manifest_is_relative_to_it() -> None:
    values = manifest()
    assert (values["id"], values["start_url"], values["scope"]) == ("./", "./", "./")
    icons = values["icons"]
    assert isinstance(icons, list)
    assert [icon["src"] for icon in icons] == [f"icons/icon-{size}.png" for size in SIZES]
    assert values["display"] == "standalone"


def test_each_icon_is_a_png_of_the_size_it_is_named_for(tmp_path: Path) -> None:
    write_manifest(tmp_path)
    assert (tmp_path / MANIFEST).is_file()
    for size in SIZES:
        png = (tmp_path / "icons" / f"icon-{size}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert struct.unpack(">II", png[16:24]) == (size, size)  # the IHDR's width and height

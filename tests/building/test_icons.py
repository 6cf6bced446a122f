"""The web app manifest installs under any sub-path, and its icons are rendered from the one SVG
at the sizes it names, in the colours style.css declares once."""

from __future__ import annotations

import re
import struct
from pathlib import Path

from course_build import icons
from course_build.icons import ICON, MANIFEST, SIZES, icon, manifest, palette, write_manifest
from course_build.pages import site_templates, track_page
from course_build.paths import WEB


def test_every_url_in_the_manifest_is_relative_to_it() -> None:
    values = manifest()
    assert (values["id"], values["start_url"], values["scope"]) == ("./", "./", "./")
    named = values["icons"]
    assert isinstance(named, list)
    assert [one["src"] for one in named] == [f"icons/icon-{size}.png" for size in SIZES]
    assert values["display"] == "standalone"


def test_each_icon_is_a_png_of_the_size_it_is_named_for(tmp_path: Path) -> None:
    write_manifest(tmp_path)
    assert (tmp_path / MANIFEST).is_file()
    for size in SIZES:
        png = (tmp_path / "icons" / f"icon-{size}.png").read_bytes()
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        assert struct.unpack(">II", png[16:24]) == (size, size)  # the IHDR's width and height


def test_the_accent_is_written_once_in_style_css_and_every_copy_is_made_from_it() -> None:
    accent = palette()["accent"]
    assert re.fullmatch(r"#[0-9a-f]{6}", accent)
    assert manifest()["theme_color"] == accent
    assert f'<meta name="theme-color" content="{accent}">' in track_page(site_templates())
    assert f'<rect width="512" height="512" fill="{accent}"/>' in icon()
    for source in (ICON, WEB / "_head.html", Path(icons.__file__)):  # none writes it again
        assert not re.search(r"#[0-9A-Fa-f]{6}\b", source.read_text(encoding="utf-8")), source

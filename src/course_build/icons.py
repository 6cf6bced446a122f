"""The installable site: the web app manifest, with its icons rendered from one SVG."""

from __future__ import annotations

import json
from pathlib import Path

import resvg_py

from .paths import WEB

ICON = WEB / "icons" / "icon.svg"
SIZES = (192, 512)  # what Chromium's install check and Android's launchers ask for
MANIFEST = "manifest.webmanifest"
THEME = "#1f5fa8"  # style.css's --accent, the icon's ground
BACKGROUND = "#fbfaf7"  # style.css's --bg, behind the splash screen


def manifest() -> dict[str, object]:
    """The manifest as JSON values. Every URL is relative to the manifest, at the top of the
    site, so it installs the same at the root and under a sub-path (a project's Pages site)."""
    icons = [{"src": f"icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "any"} for size in SIZES]
    return {"name": "Learn machine learning", "short_name": "Learn ML",
            "description": "Lessons that teach by letting you predict, compute and check, "
                           "computed in your browser.",
            "id": "./", "start_url": "./", "scope": "./", "display": "standalone",
            "theme_color": THEME, "background_color": BACKGROUND, "icons": icons}


def write_manifest(site: Path) -> None:
    """Write site/manifest.webmanifest and the PNGs it names, rendered from web/icons/icon.svg."""
    svg = ICON.read_text(encoding="utf-8")
    (site / "icons").mkdir(exist_ok=True)  # web/icons/, copied, holds the SVG already
    for size in SIZES:
        png = resvg_py.svg_to_bytes(svg_string=svg, width=size, height=size)
        (site / "icons" / f"icon-{size}.png").write_bytes(bytes(png))
    text = json.dumps(manifest(), indent=2) + "\n"
    (site / MANIFEST).write_text(text, encoding="utf-8")

"""The installable site: the web app manifest, with its icons rendered from one SVG."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import resvg_py

from .paths import WEB

ICON = WEB / "icons" / "icon.svg"
STYLE = WEB / "style.css"
SIZES = (192, 512)  # what Chromium's install check and Android's launchers ask for
MANIFEST = "manifest.webmanifest"
COLOUR = re.compile(r"--([\w-]+):\s*(#[0-9A-Fa-f]{3,8})\s*;")


@cache
def palette() -> dict[str, str]:
    """The colours style.css declares for the light scheme (its first :root block), by name:
    each is written there once, and the manifest, each page's theme colour and the icon take
    theirs from it."""
    light = STYLE.read_text(encoding="utf-8").split("}", 1)[0]
    return dict(COLOUR.findall(light))


def icon() -> str:
    """The icon's SVG, each `var(--name)` in it given style.css's colour of that name."""
    return re.sub(r"var\(--([\w-]+)\)", lambda m: palette()[m.group(1)],
                  ICON.read_text(encoding="utf-8"))


def manifest() -> dict[str, object]:
    """The manifest as JSON values. Every URL is relative to the manifest, at the top of the
    site, so it installs the same at the root and under a sub-path (a project's Pages site)."""
    icons = [{"src": f"icons/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
              "purpose": "any"} for size in SIZES]
    return {"name": "Learn machine learning", "short_name": "Learn ML",
            "description": "Lessons that teach by letting you predict, compute and check, "
                           "computed in your browser.",
            "id": "./", "start_url": "./", "scope": "./", "display": "standalone",
            "theme_color": palette()["accent"], "background_color": palette()["bg"],
            "icons": icons}


def write_manifest(site: Path) -> None:
    """Write site/manifest.webmanifest and the PNGs it names, rendered from web/icons/icon.svg."""
    svg = icon()
    (site / "icons").mkdir(exist_ok=True)
    (site / "icons" / ICON.name).write_text(svg, encoding="utf-8")  # in the site's colours
    for size in SIZES:
        png = resvg_py.svg_to_bytes(svg_string=svg, width=size, height=size)
        (site / "icons" / f"icon-{size}.png").write_bytes(bytes(png))
    text = json.dumps(manifest(), indent=2) + "\n"
    (site / MANIFEST).write_text(text, encoding="utf-8")

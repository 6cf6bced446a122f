"""The <head> every page shares: its one inline script is the one its policy allows by hash."""

from __future__ import annotations

import base64
import hashlib
import re

from course_build.paths import WEB

HEAD = WEB / "_head.html"


def test_the_inline_script_is_allowed_by_its_hash_and_nothing_else_inline_is() -> None:
    html = HEAD.read_text(encoding="utf-8")
    inline = re.findall(r"<script>(.*?)</script>", html, flags=re.S)
    assert len(inline) == 1
    digest = base64.b64encode(hashlib.sha256(inline[0].encode()).digest()).decode()
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html)
    assert policy is not None
    script_src = next(d for d in policy.group(1).split("; ") if d.startswith("script-src "))
    assert script_src == f"script-src 'self' 'wasm-unsafe-eval' 'sha256-{digest}'"
    assert "unsafe-inline" not in policy.group(1)


def test_early_js_runs_before_any_script_that_can_start_python() -> None:
    """Deferred scripts run in the page's order, but a module that boot.js imports runs as
    soon as it has loaded: early.js must have patched fetch by then, or Pyodide asks for the
    files itself and early.js fetches them a second time."""
    html = HEAD.read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="\{\{ up \}\}([\w.-]+)"', html)
    assert scripts[0] == "early.js"
    assert scripts.index("early.js") < scripts.index("boot.js")

"""End-to-end fixtures: Debian's Chromium, the built site served locally, request and console logs.

Every test under tests/e2e/ gets the `e2e` marker. Drive pages with `expect` and locators;
do not use `page.wait_for_function` or string `page.evaluate` predicates that poll: the
page's CSP has no 'unsafe-eval', so Playwright's polling eval is refused (and logged as a
CSP violation, which `console_errors` reports).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (build.py sits at the top of the repository)
from sites import Site, serving  # noqa: E402

BOOT_TIMEOUT_MS = 60_000  # a cold Pyodide start takes about 3 s here; CI machines are slower
READY_TEXT = "Python is ready."
FAILED_PREFIX = "Python could not start"

# Injected through the DevTools protocol, so the page's CSP does not apply to it.
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "(inline)"}`
    + ` at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`);
});
"""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every browser test `e2e`. None runs again when it fails: a renderer that crashes
    under a test fails it, as a learner would see a crashed tab."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium (Playwright cannot download its own here) with the DESIGN flags,
    and with the back-forward cache that Playwright turns off and learners' browsers have."""
    args = [*browser_type_launch_args.get("args", []), *build.CHROMIUM_ARGS]
    return {**browser_type_launch_args, "executable_path": build.CHROMIUM, "args": args,
            "ignore_default_args": ["--disable-back-forward-cache"]}


@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    """Base URL (ending in "/") of dist/, served from a background thread on a free port.

    dist/ is built once per session, unless `build.py test` has just built it."""
    already_built = os.environ.get(build.BUILT_ENV) == "1"
    if not (already_built and (build.DIST / "d8" / "index.html").is_file()):
        build.build()
    with serving(build.make_server(build.DIST)) as port:
        yield f"http://127.0.0.1:{port}/"


@pytest.fixture
def own_site(site_url: str, tmp_path: Path) -> Iterator[Site]:
    """A copy of dist/ under /course/ on a server this test controls (see sites.py)."""
    site = Site(tmp_path / "site")
    try:
        yield site
    finally:
        site.go_away()


@pytest.fixture(scope="session")
def d8_url(site_url: str) -> str:
    return f"{site_url}d8/"


@pytest.fixture
def request_log(page: Page) -> list[str]:
    """Every URL the page requests from now on, in order (a live list)."""
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


def origin(url: str) -> str:
    parts = urlsplit(url.removeprefix("blob:"))
    return f"{parts.scheme}://{parts.netloc}"


def check_same_origin(urls: Iterable[str], page_url: str) -> None:
    """Fail unless every URL is on page_url's origin (data: URLs never leave the page)."""
    expected = origin(page_url)
    foreign = [u for u in urls if not u.startswith("data:") and origin(u) != expected]
    assert not foreign, f"requests left {expected}: {foreign}"


@pytest.fixture
def assert_same_origin() -> Callable[[Iterable[str], str], None]:
    """`assert_same_origin(request_log, page.url)`."""
    return check_same_origin


@pytest.fixture
def console_errors(page: Page) -> list[str]:
    """Console errors, uncaught page errors and CSP violations of the page (a live list)."""
    return watch_errors(page)


def watch_errors(page: Page) -> list[str]:
    """Collect the page's console errors, uncaught errors and CSP violations from now on."""
    errors: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "error":
            errors.append(f"console: {message.text} ({message.location.get('url', '')})")

    page.add_init_script(REPORT_CSP_VIOLATIONS)
    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    return errors


def python_ready(page: Page) -> None:
    """Wait until the page says Python is ready; fail at once if it says Python could not start."""
    status = page.locator("#boot-status")
    settled = re.compile(rf"^({re.escape(READY_TEXT)}|{FAILED_PREFIX}.*)$")
    expect(status).to_have_text(settled, timeout=BOOT_TIMEOUT_MS)
    said = status.inner_text()
    assert said == READY_TEXT, f"the page says: {said}"


@pytest.fixture
def wait_for_python() -> Callable[[Page], None]:
    """`wait_for_python(page)`: waits (up to 60 s) for #boot-status to read "Python is ready."."""
    return python_ready

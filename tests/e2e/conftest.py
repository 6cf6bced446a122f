"""End-to-end fixtures: Debian's Chromium, the built site served locally, request and console logs.

Every test under tests/e2e/ gets the `e2e` marker. Drive pages with `expect` and locators;
do not use `page.wait_for_function` or string `page.evaluate` predicates that poll: the
page's CSP has no 'unsafe-eval', so Playwright's polling eval is refused (and logged as a
CSP violation, which `console_errors` reports).
"""

from __future__ import annotations

import fcntl
import os
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import (
    BrowserContext,
    BrowserType,
    ConsoleMessage,
    Page,
    Request,
    expect,
)

from course_build.machine import CHROMIUM, CHROMIUM_ARGS
from course_build.paths import DIST
from course_build.server import make_server
from course_build.site import build
from course_build.testing import BUILT_ENV

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
from sites import Site, serving  # noqa: E402

# With two pytest workers on two cores, V8's background TurboFan compiles of Pyodide's hot
# functions (several core-seconds a start) take the core the other worker needs: Liftoff alone
# compiles each function once. A tier changes how fast wasm runs, not what it does, and the
# tests that measure time run in a phase of their own, on one worker (course_build/phases.py).
LIFTOFF_ONLY = ("--js-flags=--liftoff-only",)
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


# How Playwright reports a browser's renderer that died under a test ("Page crashed" in an
# expect's call log, "Target crashed" from a protocol call).
BROWSER_CRASHED = r"(?i)\b(page|target) crashed\b"
# The engines driven through a driver process of their own (cross_browser.py). Their tests run
# `alone` on two workers: beside another test, Firefox's driver once never answered a look
# after a click that left the page (1 run in 3), and WebKit's tests took twice as long, so that
# running them beside another saved no time. Alone, they run as in every one-worker run.
DRIVEN = ("firefox", "webkit")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every browser test `e2e`, and run it once more if, and only if, Chromium's renderer
    crashed under it: a backstop, now that the crashes seen, Chromium's heap profiler walking
    Pyodide's JSPI stack, are turned off in the launch flags (NO_HEAP_PROFILER in
    src/course_build/machine.py). Any other failure fails at once, and pytest's summary counts
    each rerun. Firefox's and WebKit's tests run `alone` (see DRIVEN)."""
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=[BROWSER_CRASHED]))
            callspec = getattr(item, "callspec", None)  # a parametrized test's
            if callspec is not None and callspec.params.get("engine") in DRIVEN:
                item.add_marker(pytest.mark.alone)


@pytest.fixture(scope="session")
def browser_type_launch_args(pytestconfig: pytest.Config,
                             browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Launch Debian's Chromium (Playwright cannot download its own here) with the DESIGN flags,
    and with the back-forward cache that Playwright turns off and learners' browsers have.
    Beside another worker, wasm is compiled by Liftoff alone (see LIFTOFF_ONLY)."""
    args = [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS,
            *(LIFTOFF_ONLY if workers(pytestconfig) > 1 else ())]
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": args,
            "ignore_default_args": ["--disable-back-forward-cache"]}


@pytest.fixture(scope="session")
def warm_profile(
    browser_type: BrowserType, browser_type_launch_args: dict[str, Any],
    browser_context_args: dict[str, Any], tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[BrowserContext]:
    """One Chromium profile on disk that the tests share, so that its HTTP cache and its cache
    of compiled wasm carry from test to test: a boot takes about 40% less time than in a new
    context, which keeps neither. Site data never carries over (see `context`)."""
    profile = browser_type.launch_persistent_context(
        tmp_path_factory.mktemp("profile"), **browser_type_launch_args, **browser_context_args)
    for page in profile.pages:  # the blank page it opens with: no page stays open
        page.close()
    yield profile
    profile.close()


@pytest.fixture(scope="session")
def uncleared() -> set[str]:
    """The origins whose site data a test left in the warm profile and no clear has removed
    yet: empty after each test whose teardown went through, so the next test's setup has
    nothing to clear."""
    return set()


# Playwright's clock, once installed, stays in its context for good: in every page opened later,
# timers and animation frames wait for the test that installed it to move the clock.
CLOCK_INSTALLED = "() => '__pwClock' in globalThis"


def forget_site_data(profile: BrowserContext, origins: Iterable[str]) -> None:
    """Close every page, stop every service worker, and clear all that a site keeps in the
    browser for each origin (storage, IndexedDB, caches, service workers, cookies), but not
    the HTTP cache. A worker still running when its registration is cleared keeps its renderer
    process alive for good (100-260 MB a test); stopped first, it goes with its registration.
    No page stays open between tests, so each test's pages get renderer processes of their own."""
    for page in profile.pages:
        page.close()
    helper = profile.new_page()
    assert not helper.evaluate(CLOCK_INSTALLED), (
        "a test installed Playwright's clock in the shared warm profile, where it would stop "
        "the timers of every later test's pages: mark that test `cold`")
    session = profile.new_cdp_session(helper)
    session.send("ServiceWorker.enable")
    session.send("ServiceWorker.stopAllWorkers")
    for each in origins:
        session.send("Storage.clearDataForOrigin", {"origin": each, "storageTypes": "all"})
    session.detach()
    helper.close()


@pytest.fixture
def context(request: pytest.FixtureRequest, site_url: str) -> Iterator[BrowserContext]:
    """The browser context of `page`: the shared warm profile, with no site data of an earlier
    test, or a new one for a test marked `cold` or served by a server of its own, whose files
    must come from that server and not from a cache (a server's port may come round again)."""
    if request.node.get_closest_marker("cold") or "own_site" in request.fixturenames:
        yield request.getfixturevalue("new_context")()
        return
    profile: BrowserContext = request.getfixturevalue("warm_profile")
    left: set[str] = request.getfixturevalue("uncleared")
    if left:  # an earlier test's teardown did not get to clear them
        forget_site_data(profile, left)
        left.clear()
    left.add(origin(site_url))

    def note(request: Request) -> None:
        if request.url.startswith("http"):
            left.add(origin(request.url))

    profile.on("request", note)
    yield profile
    profile.remove_listener("request", note)
    forget_site_data(profile, left)
    left.clear()


def workers(config: pytest.Config) -> int:
    """How many xdist workers run this session: 1 without `-n`. (Asked of the config, not the
    environment, which a pytest started by a test inherits.)"""
    worker: dict[str, int] = getattr(config, "workerinput", {})
    return worker.get("workercount", 1)


@pytest.fixture(scope="session")
def site_url(testrun_uid: str) -> Iterator[str]:
    """Base URL (ending in "/") of dist/, served from a background thread on a free port.

    `build.py test` builds dist/ before pytest starts; a pytest run without it builds dist/ once,
    in whichever worker asks first (the other waits on the lock, then finds it built)."""
    if os.environ.get(BUILT_ENV) != "1":
        stamp = DIST.parent / "build" / "site.run"  # the run it was built for
        stamp.parent.mkdir(exist_ok=True)
        with stamp.with_suffix(".lock").open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not stamp.is_file() or stamp.read_text(encoding="utf-8") != testrun_uid:
                build()
                stamp.write_text(testrun_uid, encoding="utf-8")
    with serving(make_server(DIST)) as port:
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

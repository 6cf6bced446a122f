"""Smoke tests: the track and D8 boot Python from their own origin, cleanly, and say so when
they cannot."""

from __future__ import annotations

import datetime
import re
import urllib.request
from collections.abc import Callable, Iterable

import pytest
from playwright.sync_api import Page, Route, expect

from course_build.runtime import PLUGINS_KEPT, pyscript_plugins

# Numbers the learner computes; the page must compute them in the browser, never ship them.
COMPUTED = ("0.4643", "1.3760", "0.8744", "1.1740", "0.7643", "0.2019", "0.1101")


def fetch_no_plugin_turned_off(requests: list[str]) -> None:
    """PyScript imports each plugin that a config leaves on, for Pyodide and MicroPython alike,
    whether or not the page runs MicroPython: both configs turn off all but the kept ones."""
    plugins = pyscript_plugins()
    kept = [f"/pyscript/{plugins[name]}" for name in PLUGINS_KEPT]
    off = [f"/pyscript/{chunk}" for name, chunk in plugins.items()
           if name not in PLUGINS_KEPT]
    assert [url for url in requests if url.endswith(tuple(off))] == []
    assert [url for url in requests if url.endswith(tuple(kept))]


def test_the_track_and_d8_by_its_link_boot_python_from_their_own_origin_without_errors(
    *,
    page: Page,
    site_url: str,
    request_log: list[str],
    console_errors: list[str],
    assert_same_origin: Callable[[Iterable[str], str], None],
    wait_for_python: Callable[[Page], None],
) -> None:
    """One visit of the track, then D8 by the track's relative link: each page boots Python
    from the site's own origin, fetches no plugin its config turns off, and logs no error."""
    page.goto(site_url)
    wait_for_python(page)
    fetch_no_plugin_turned_off(request_log)
    link = page.get_by_role("link", name=re.compile("D8"))
    expect(link).to_have_attribute("href", "d8/")
    on_the_track = len(request_log)
    link.click()
    expect(page).to_have_url(f"{site_url}d8/")
    wait_for_python(page)
    on_d8 = request_log[on_the_track:]
    fetch_no_plugin_turned_off(on_d8)
    expect(page.locator("html")).to_have_attribute("data-python", "ready")
    assert any(url.endswith("/pyodide/pyodide.asm.wasm") for url in on_d8)
    assert_same_origin(request_log, page.url)
    # Python ran on the page's own stack: Chromium has JSPI, and boot.js hid it from Pyodide.
    assert page.evaluate("() => ['Suspending', 'promising'].filter((n) => n in WebAssembly)") == []
    assert console_errors == []


@pytest.mark.parametrize("path", ["d8/", "d8/index.html", "main.py", "d8/pyscript.json"])
def test_served_d8_source_holds_no_computed_number(site_url: str, path: str) -> None:
    with urllib.request.urlopen(site_url + path) as response:
        text = response.read().decode("utf-8")
    assert text
    assert [n for n in COMPUTED if n in text] == []


def test_a_broken_runtime_is_reported_in_plain_words(page: Page, d8_url: str) -> None:
    page.route("**/pyodide.asm.wasm", lambda route: route.abort())
    page.goto(d8_url)
    status = page.locator("#boot-status")
    expect(status).to_have_text(
        re.compile(r"^Python could not start: .+\. Reload the page to try again\.$"),
        timeout=60_000,
    )
    expect(status).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-python", "failed")


def test_a_runtime_that_breaks_off_while_it_compiles_is_reported(page: Page, d8_url: str) -> None:
    """A download that fails once Pyodide is compiling it (a phone losing its signal): Pyodide
    itself only warns and waits forever; the page must say so at once."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/pyodide.asm.wasm", hold)
    page.goto(d8_url)
    page.wait_for_function("() => performance.getEntriesByName('wasm-compile').length > 0")
    held[0].abort()
    expect(page.locator("#boot-status")).to_have_text(
        "Python could not start: part of the Python runtime did not load. "
        "Reload the page to try again.")
    expect(page.locator("html")).to_have_attribute("data-python", "failed")


def test_the_status_counts_seconds_while_python_starts(page: Page, d8_url: str) -> None:
    release: list[Route] = []

    def hold(route: Route) -> None:  # keep the runtime back until the test releases it
        release.append(route)

    page.route("**/pyodide.asm.wasm", hold)
    with page.expect_request(lambda request: request.url.endswith("/pyodide.asm.wasm")):
        page.goto(d8_url)
    status = page.locator("#boot-status")
    expect(status).to_have_text(re.compile(r"^Python is starting… [1-9]\d* s$"), timeout=10_000)
    expect(status).to_have_attribute("aria-busy", "true")
    assert release, "the runtime request was not held"
    for route in release:
        route.continue_()
    expect(status).to_have_text("Python is ready.", timeout=60_000)
    expect(status).not_to_have_attribute("aria-busy", "true")


def test_a_failing_main_py_is_reported_in_plain_words(page: Page, d8_url: str) -> None:
    def broken_main(route: Route) -> None:
        route.fulfill(body="raise RuntimeError('broken on purpose')", content_type="text/plain")

    page.route("**/main.py", broken_main)
    page.goto(d8_url)
    expect(page.locator("#boot-status")).to_have_text(
        "Python could not start: the lesson's Python code stopped with an error. "
        "Reload the page to try again.",
        timeout=60_000,
    )


@pytest.mark.cold  # Playwright's clock stays in its context for good (conftest's CLOCK_INSTALLED)
def test_a_runtime_that_never_arrives_is_reported_after_90_seconds(page: Page, d8_url: str) -> None:
    held: list[Route] = []

    def hold(route: Route) -> None:  # the runtime never arrives
        held.append(route)

    # The page's clock stands still until the test moves it. A clock left to run would count
    # the page's own load, which under load took more than a second: 89 s read as 90.
    start = datetime.datetime(2026, 1, 5, 9, 0, 0)
    page.clock.install(time=start)
    page.clock.pause_at(start + datetime.timedelta(seconds=1))
    page.route("**/pyodide.asm.wasm", hold)
    with page.expect_request(lambda request: request.url.endswith("/pyodide.asm.wasm")):
        page.goto(d8_url)
    status = page.locator("#boot-status")
    expect(status).to_have_text("Python is starting… 0 s")
    page.clock.run_for("01:29")
    expect(status).to_have_text("Python is starting… 89 s")
    page.clock.run_for("00:02")
    expect(status).to_have_text(
        "Python could not start: it was still loading after 90 seconds. "
        "Reload the page to try again."
    )

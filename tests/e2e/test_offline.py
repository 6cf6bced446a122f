"""Offline after one visit: a service worker precaches the site, and a new deploy replaces it."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import build
import pytest
from learner import (
    PROJECTION_LABELS,
    lock_prediction,
    open_d8,
    reload_d8,
    row_cells,
    set_projection,
)
from playwright.sync_api import BrowserContext, Page, expect

VECTORS = "The concatenated head outputs before and after the output projection"
TITLE = "Two heads of dimension one"
REVISED = "Two heads of dimension one, revised"

# Run through the DevTools protocol (the page's CSP does not apply). They await promises
# the browser settles itself, so they poll nothing; a deadline turns a worker that never
# comes into a failure instead of a hang.
CACHES_WHEN_CONTROLLED = """async () => {
  const deadline = new Promise((_, fail) => setTimeout(
    () => fail(new Error("no service worker controls the page after 60 s")), 60000));
  await Promise.race([navigator.serviceWorker.ready, deadline]);
  if (!navigator.serviceWorker.controller) {
    await Promise.race([deadline, new Promise((done) =>
      navigator.serviceWorker.addEventListener("controllerchange", done, { once: true }))]);
  }
  return await caches.keys();
}"""
# The browser's own check for a new sw.js, then the new worker's activation run to its end
# (the old caches are deleted by then).
CACHES_AFTER_UPDATE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  await registration.update();
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (worker.state !== "activated") {
    await new Promise((done) => worker.addEventListener("statechange", () => {
      if (worker.state === "activated") done();
    }));
  }
  return await caches.keys();
}"""


@pytest.fixture
def sub_path_site(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A copy of dist/ served under /course/ on its own port: (its folder, its URL)."""
    site = tmp_path / "root" / "course"
    shutil.copytree(build.DIST, site)
    server = build.make_server(tmp_path / "root")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site, f"http://127.0.0.1:{server.server_port}/course/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def computes_offline(page: Page) -> None:
    """The locked prediction's numbers are there, and a new projection is computed."""
    expect(row_cells(page, VECTORS, "heads, concatenated")).to_have_text(["1.3760", "0.8744"])
    set_projection(page, (("0", "1"), ("1", "0")))
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text(["0.8744", "1.3760"])
    expect(page.get_by_label(PROJECTION_LABELS[0][1], exact=True)).to_have_value("1")


def test_an_offline_reload_after_one_visit_boots_python_and_computes(
    page: Page, context: BrowserContext, d8_url: str, console_errors: list[str]
) -> None:
    open_d8(page, d8_url)
    lock_prediction(page)
    assert len(page.evaluate(CACHES_WHEN_CONTROLLED)) == 1
    context.set_offline(True)
    try:
        reload_d8(page)
        computes_offline(page)
        # Never opened online, so only the worker's precache can have it.
        page.get_by_role("link", name="All lessons").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Learn machine learning")
    finally:
        context.set_offline(False)
    assert console_errors == []


def test_a_rebuilt_site_replaces_the_old_cache_whole_under_a_sub_path(
    page: Page, context: BrowserContext, sub_path_site: tuple[Path, str]
) -> None:
    site, url = sub_path_site
    first = build.write_service_worker(site)
    open_d8(page, url + "d8/")
    expect(page.get_by_role("heading", level=1)).to_have_text(TITLE)
    assert page.evaluate(CACHES_WHEN_CONTROLLED) == [first]

    page_file = site / "d8" / "index.html"
    revised = page_file.read_text(encoding="utf-8").replace(f"<h1>{TITLE}<", f"<h1>{REVISED}<")
    page_file.write_text(revised, encoding="utf-8")
    second = build.write_service_worker(site)
    assert second != first
    assert page.evaluate(CACHES_AFTER_UPDATE) == [second]

    context.set_offline(True)
    try:
        reload_d8(page)
        expect(page.get_by_role("heading", level=1)).to_have_text(REVISED)
        lock_prediction(page)
        computes_offline(page)
    finally:
        context.set_offline(False)

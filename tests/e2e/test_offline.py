"""Offline after one visit, as Chromium reports it (navigator.onLine false): the service worker
serves the precached site, and a new deploy replaces the cache. test_every_engine.py covers a
server that is unreachable while the browser says it is online, in every engine."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from learner import (
    PROJECTION_LABELS,
    lock_prediction,
    open_d8,
    reload_d8,
    row_cells,
    set_projection,
)
from sites import CACHES_AFTER_UPDATE, CACHES_WHEN_CONTROLLED, REVISED, TITLE, Site

# Offline, a page must come from the service worker, never from a warm HTTP cache.
pytestmark = pytest.mark.cold

VECTORS = "The concatenated head outputs before and after the output projection"


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
    page: Page, context: BrowserContext, own_site: Site
) -> None:
    open_d8(page, f"{own_site.url}d8/")
    expect(page.get_by_role("heading", level=1)).to_have_text(TITLE)
    first = page.evaluate(CACHES_WHEN_CONTROLLED)
    assert len(first) == 1
    second = own_site.rebuild("d8/index.html", f"<h1>{TITLE}<", f"<h1>{REVISED}<")
    assert [second] != first
    assert page.evaluate(CACHES_AFTER_UPDATE) == [second]

    context.set_offline(True)
    try:
        reload_d8(page)
        expect(page.get_by_role("heading", level=1)).to_have_text(REVISED)
        lock_prediction(page)
        computes_offline(page)
    finally:
        context.set_offline(False)


def test_two_builds_under_two_paths_of_one_origin_both_work_offline(
    page: Page, context: BrowserContext, own_site: Site, console_errors: list[str]
) -> None:
    """GitHub Pages serves every project site of an owner from one origin: two courses there,
    or a course and its preview, must not delete each other's offline copy."""
    first = f"{own_site.url}d8/"
    second = own_site.beside("preview", "d8/index.html", f"<h1>{TITLE}<", f"<h1>{REVISED}<")
    open_d8(page, first)
    assert len(page.evaluate(CACHES_WHEN_CONTROLLED)) == 1
    open_d8(page, f"{second}d8/")
    assert len(page.evaluate(CACHES_WHEN_CONTROLLED)) == 2

    context.set_offline(True)
    try:
        open_d8(page, first)
        expect(page.get_by_role("heading", level=1)).to_have_text(TITLE)
        lock_prediction(page)
        computes_offline(page)
        # The origin's storage is one: the prediction locked under the first path is there.
        open_d8(page, f"{second}d8/")
        expect(page.get_by_role("heading", level=1)).to_have_text(REVISED)
        computes_offline(page)
    finally:
        context.set_offline(False)
    assert console_errors == []


# Caches as the worker named them before it named them for their path: one holding this
# path's track page, one another path's.
LEGACY_CACHES = """async ([own, other]) => {
  for (const [name, page] of [["attention-lessons-0123456789abcdef", own],
                              ["attention-lessons-fedcba9876543210", other]]) {
    await (await caches.open(name)).put(page, new Response("an older deploy"));
  }
}"""


def test_a_cache_from_before_caches_were_named_for_their_path_goes_only_if_it_is_ours(
    page: Page, own_site: Site
) -> None:
    page.goto(f"{own_site.origin}robots.txt")  # any page of the origin, before the worker
    page.evaluate(LEGACY_CACHES, [own_site.url, f"{own_site.origin}elsewhere/"])
    open_d8(page, f"{own_site.url}d8/")
    kept = page.evaluate(CACHES_WHEN_CONTROLLED)
    ours = [name for name in kept if name.endswith(" /course/")]
    assert len(ours) == 1
    assert set(kept) == {"attention-lessons-fedcba9876543210", *ours}

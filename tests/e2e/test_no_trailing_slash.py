"""A lesson's URL without its folder's slash, on a host that does not redirect it: the page
goes to its folder and starts, on a first visit and, through the worker, with the server gone."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from conftest import python_ready
from learner import lock_prediction
from sites import CACHES_WHEN_CONTROLLED, Site


def test_a_page_opened_without_its_slash_goes_to_its_folder_and_starts(
    page: Page, tmp_path: Path, console_errors: list[str]
) -> None:
    site = Site(tmp_path / "site", redirects=False)
    try:
        page.goto(f"{site.url}d8")
        expect(page).to_have_url(f"{site.url}d8/")
        python_ready(page)
        lock_prediction(page)
        assert len(page.evaluate(CACHES_WHEN_CONTROLLED)) == 1
        site.go_away()
        page.goto(f"{site.url}8-2")
        expect(page).to_have_url(f"{site.url}8-2/")
        python_ready(page)
        expect(page.get_by_role("heading", level=1)).to_have_text("Attention by hand")
    finally:
        site.go_away()
    assert console_errors == []

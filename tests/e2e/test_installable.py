"""The site installs as a web app, at the root and under a sub-path: Chromium finds nothing
wrong with its manifest, its icons or its service worker."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from conftest import python_ready
from test_subpath import subpath_url

__all__ = ["subpath_url"]  # a fixture, used by name


@pytest.mark.parametrize("where", ["root", "sub-path"])
def test_chromium_reports_no_installability_error(
    page: Page, request: pytest.FixtureRequest, where: str, console_errors: list[str]
) -> None:
    url = request.getfixturevalue("site_url" if where == "root" else "subpath_url")
    page.goto(url)
    python_ready(page)
    expect(page.locator('link[rel="manifest"]')).to_have_attribute("href", "./manifest.webmanifest")
    session = page.context.new_cdp_session(page)
    manifest = session.send("Page.getAppManifest")
    assert manifest["url"] == f"{url}manifest.webmanifest"
    assert manifest.get("errors") == []
    assert session.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    session.detach()
    assert console_errors == []

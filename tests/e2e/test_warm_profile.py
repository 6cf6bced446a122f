"""The Chromium profile the tests share keeps nothing running from one test into the next."""

from __future__ import annotations

from typing import Any

from conftest import forget_site_data, origin, python_ready
from playwright.sync_api import BrowserContext, Page


def running_workers(context: BrowserContext) -> list[str]:
    helper = context.new_page()
    session = context.new_cdp_session(helper)
    targets: list[dict[str, Any]] = session.send("Target.getTargets")["targetInfos"]
    session.detach()
    helper.close()
    return [target["url"] for target in targets if target["type"] == "service_worker"]


def test_after_a_test_no_service_worker_of_it_runs_on(
    context: BrowserContext, page: Page, d8_url: str,
) -> None:
    page.goto(d8_url)
    python_ready(page)
    assert running_workers(context) == [f"{d8_url.removesuffix('d8/')}sw.js"]
    forget_site_data(context, {origin(d8_url)})
    assert running_workers(context) == []

"""A page and its Python are one deploy. The server sends Last-Modified and no Cache-Control,
as `python3 -m http.server` and many hosts do, so a day-old deploy's files are fresh in the
HTTP cache for hours: a new deploy's page must still run the new deploy's Python, never a
cached copy of the old one."""

from __future__ import annotations

import pytest
from learner import open_d8, reload_d8
from playwright.sync_api import Page, expect
from sites import CACHES_AFTER_UPDATE, CACHES_WHEN_CONTROLLED, Site

pytestmark = pytest.mark.cold  # the first deploy must be in this context's HTTP cache only

READY = 'root.setAttribute("data-python", "ready")'
# What the page's Python fetches at start-up besides the runtime: each must be asked for again.
PYTHON_FILES = ("/course/main.py", "/course/d8/pyscript.json", "/course/py/attention_lessons.zip",
                "/course/runtime/pycache.zip")


def test_after_a_deploy_a_reloaded_page_runs_the_new_deploys_python(
    page: Page, own_site: Site
) -> None:
    open_d8(page, f"{own_site.url}d8/")
    first = page.evaluate(CACHES_WHEN_CONTROLLED)
    second = own_site.rebuild("main.py", READY,
                              f'root.setAttribute("data-deploy", "second")\n{READY}')
    assert [second] != first
    assert page.evaluate(CACHES_AFTER_UPDATE) == [second]

    del own_site.asked[:]
    reload_d8(page)
    expect(page.locator("html")).to_have_attribute("data-deploy", "second")
    assert set(PYTHON_FILES) <= set(own_site.asked), "a Python file came from the HTTP cache"


def test_the_first_visit_after_a_deploy_runs_the_new_deploys_python(
    page: Page, own_site: Site
) -> None:
    """Site data blocked, or the worker not yet there: the HTTP cache alone must not hold the
    page to the old deploy either."""
    page.context.add_init_script("delete Object.getPrototypeOf(navigator).serviceWorker")
    open_d8(page, f"{own_site.url}d8/")
    own_site.rebuild("main.py", READY, f'root.setAttribute("data-deploy", "second")\n{READY}')
    reload_d8(page)
    expect(page.locator("html")).to_have_attribute("data-deploy", "second")

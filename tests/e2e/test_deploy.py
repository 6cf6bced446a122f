"""A page and its Python are one deploy. The server sends Last-Modified and no Cache-Control,
as `python3 -m http.server` and many hosts do, so a day-old deploy's files are fresh in the
HTTP cache for hours: a new deploy's page must still run the new deploy's Python, never a
cached copy of the old one. Nor, where a deploy is made while a page loads or while a service
worker installs, a mix of two deploys, online or offline."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from conftest import BOOT_TIMEOUT_MS, python_ready
from course_build.runtime import LESSONS_ZIP
from learner import L82, lock_prediction, open_d8, reload_d8
from sites import CACHES_AFTER_UPDATE, CACHES_WHEN_CONTROLLED, Site
from test_offline import computes_offline

pytestmark = pytest.mark.cold  # the first deploy must be in this context's HTTP cache only

# What the page's Python fetches at start-up besides the runtime: each must be asked for again.
PYTHON_FILES = ("/course/main.py", "/course/d8/pyscript.json", "/course/py/attention_lessons.zip",
                "/course/runtime/pycache.zip")


def test_after_a_deploy_a_reloaded_page_runs_the_new_deploys_python(
    page: Page, own_site: Site
) -> None:
    open_d8(page, f"{own_site.url}d8/")
    first = page.evaluate(CACHES_WHEN_CONTROLLED)
    second = own_site.redeploy("second")
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
    own_site.redeploy("second")
    reload_d8(page)
    expect(page.locator("html")).to_have_attribute("data-deploy", "second")


# ---- A deploy made while a page loads, or while a service worker installs ----
# Each deploy is named (`Site.redeploy`): its pages carry the name, and its main.py writes it
# on the page once Python is ready, so a page that runs another deploy's Python is seen.
# The browser's check for a new sw.js, not waited for: the new worker's install may be held.
UPDATE = """() => {
  navigator.serviceWorker.getRegistration().then((r) => r.update()).catch(() => {});
}"""
# The worker that installs (or activates) now has done: activated, or thrown away.
SETTLED = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  await new Promise((done) => {
    const settled = () => ["activated", "redundant"].includes(worker.state) && done();
    worker.addEventListener("statechange", settled);
    settled();
  });
}"""
# What each of the origin's caches holds for D8's page and for main.py.
CACHED = """async (urls) => {
  const held = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    held[name] = await Promise.all(urls.map(async (url) => (await cache.match(url))?.text()));
  }
  return held;
}"""
DEPLOY_META = re.compile(r'<meta name="deploy" content="([^"]*)">')
DEPLOY_MARK = re.compile(r'root\.setAttribute\("data-deploy", "([^"]*)"\)')
BLOCK_SESSION_STORAGE = """Object.defineProperty(window, "sessionStorage", {
  get() { throw new DOMException("The operation is insecure.", "SecurityError"); },
});"""
MIXED = ("Python could not start: the site was updated while this page loaded. "
         "Reload the page to try again.")


def deploy_shown(page: Page) -> str:
    """Wait until Python is ready; the deploy that the page and its Python both come from."""
    python_ready(page)
    shown = page.locator('meta[name="deploy"]').get_attribute("content")
    assert page.locator("html").get_attribute("data-deploy") == shown, "two deploys on one page"
    assert shown is not None
    return shown


def pages_asked(site: Site) -> int:
    """How many times D8's page was asked for before the service worker (whose precache asks
    for it again) was registered."""
    path = urlsplit(site.url).path
    asked = site.asked
    before = asked[:asked.index(f"{path}sw.js")] if f"{path}sw.js" in asked else asked
    return before.count(f"{path}d8/")


def cached_deploys(page: Page, site: Site) -> dict[str, tuple[str, ...]]:
    """For each cache, the deploys its D8 page and its main.py are from."""
    held = page.evaluate(CACHED, [f"{site.url}d8/", f"{site.url}main.py"])
    return {name: (*DEPLOY_META.findall(d8 or ""), *DEPLOY_MARK.findall(main or ""))
            for name, (d8, main) in held.items()}


def test_a_worker_installing_across_a_deploy_caches_nothing_of_either(
    page: Page, context: BrowserContext, own_site: Site
) -> None:
    """The first deploy's worker is active; the second's installs, and main.py comes to it from
    a third. The second's worker is thrown away and its cache with it, and offline the first
    deploy still starts whole. (The browser looks for a new worker again at a later visit.)"""
    first = own_site.redeploy("first")
    page.goto(f"{own_site.url}d8/")
    assert deploy_shown(page) == "first"
    assert page.evaluate(CACHES_WHEN_CONTROLLED) == [first]
    own_site.redeploy("second")
    own_site.hold("/main.py")
    page.evaluate(UPDATE)
    own_site.wait_until_held()
    own_site.redeploy("third")
    own_site.release()
    page.evaluate(SETTLED)
    assert cached_deploys(page, own_site) == {first: ("first", "first")}

    context.set_offline(True)
    try:
        page.reload()
        assert deploy_shown(page) == "first"
        lock_prediction(page)
        computes_offline(page)
    finally:
        context.set_offline(False)


def test_a_page_loaded_across_a_deploy_reloads_once_onto_the_new_deploy(
    page: Page, own_site: Site
) -> None:
    d8 = f"{own_site.url}d8/"
    own_site.redeploy("first")
    own_site.hold("/main.py")
    page.goto(d8, wait_until="commit")
    own_site.wait_until_held()
    own_site.redeploy("second")
    own_site.release()
    assert deploy_shown(page) == "second"
    assert pages_asked(own_site) == 2
    lock_prediction(page)


@pytest.mark.parametrize(("left", "blocked"), [("d8/index.html", False), ("d8/index.html", True),
                                               (LESSONS_ZIP, False)],
                         ids=["its page, reloaded once", "its page, storage blocked",
                              "its lessons' archive, reloaded once"])
def test_a_page_whose_python_is_another_deploys_says_so_where_a_reload_cannot_help(
    page: Page, own_site: Site, left: str, blocked: bool
) -> None:
    """A host that serves a deploy half-made: the second's files, but one left of the first.
    The page reloads once, and then says so; where it cannot note that it reloaded, at once."""
    own_site.redeploy("first")
    of_first = (own_site.folder / left).read_bytes()
    own_site.redeploy("second")
    (own_site.folder / left).write_bytes(of_first)
    if blocked:
        page.add_init_script(BLOCK_SESSION_STORAGE)
    page.goto(f"{own_site.url}d8/")
    expect(page.locator("#boot-status")).to_have_text(MIXED, timeout=BOOT_TIMEOUT_MS)
    expect(page.locator("html")).to_have_attribute("data-python", "failed")
    assert pages_asked(own_site) == (1 if blocked else 2)


@pytest.mark.parametrize("new_opens", ["while the old loads", "once the old has started"])
@pytest.mark.parametrize("closed", ["old", "new"])
def test_two_deploys_at_one_path_a_tab_of_each_every_page_starts_on_one_deploy(
    page: Page, context: BrowserContext, own_site: Site, new_opens: str, closed: str
) -> None:
    """A tab opens D8 as the first deploy is replaced by a second, and a tab opens the track of
    the second. Each starts on the second deploy's files, and, with either tab closed, so does
    every page offline: the open tab reloaded, and each page opened anew."""
    d8 = f"{own_site.url}d8/"
    own_site.redeploy("first")
    old = page
    own_site.hold("/main.py")
    old.goto(d8, wait_until="commit")
    own_site.wait_until_held()
    second = own_site.redeploy("second")
    new = context.new_page()
    if new_opens == "while the old loads":
        new.goto(own_site.url, wait_until="commit")
        own_site.release()
    else:
        own_site.release()
        assert deploy_shown(old) == "second"
        new.goto(own_site.url)
    for tab in (old, new):
        assert deploy_shown(tab) == "second"
    assert new.evaluate(CACHES_WHEN_CONTROLLED) == [second]
    tabs = {"old": old, "new": new}
    tabs.pop(closed).close()
    (left,) = tabs.values()

    context.set_offline(True)
    try:
        left.reload()
        assert deploy_shown(left) == "second"
        opened = context.new_page()
        for url in (d8, own_site.url, f"{own_site.url}{L82.slug}/"):
            opened.goto(url)
            assert deploy_shown(opened) == "second"
    finally:
        context.set_offline(False)

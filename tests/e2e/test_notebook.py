"""Open each lesson's notebook from its lesson and run it in JupyterLite, on the site's own
Pyodide and the precompiled kernel: its numbers, readable tracebacks, completion, the app's
CSP, and the notebook offline once opened, replaced whole by a rebuilt site."""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import json
import re
import sys
import tarfile
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Locator, Page, Response, expect

from attention_lessons.engine import attention
from attention_lessons.lessons import LESSONS
from course_build.notebook import KERNEL_PLUGIN, NOTEBOOK_DIST
from course_build.notebook_app import KERNEL_IDLE, START_KERNEL_NAME
from course_build.offline import SW_PREFIX
from course_build.paths import DIST, NOTEBOOKS
from learner import PLANS, open_page
from sites import CACHES_AFTER_UPDATE, Site

# A cold kernel takes 3-6 s here on an idle machine (Pyodide, then IPython and the package
# from our lock, all precompiled); a busy 2-core CI machine is much slower.
KERNEL_TIMEOUT_MS = 180_000
APP_TIMEOUT_MS = 90_000
# Lines each notebook prints, with the page's own numbers (the files hold no outputs), and
# each notebook's title: its lesson's, as the track and the page give it.
LINES = {plan.slug: plan.notebook for plan in PLANS}
TITLES = {slug: f"{lesson.code} · {lesson.title}" for slug, lesson in LESSONS.items()}
# Asks every active worker of the origin to answer once the files it has fetched so far are
# in the cache (web/sw.js, the notebook's section): the files are written as they are used.
NOTEBOOK_CACHED = """async () => {
  const registrations = await navigator.serviceWorker.getRegistrations();
  await Promise.all(registrations.filter((r) => r.active).map((r) => new Promise((done) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = done;
    r.active.postMessage("notebook-cached?", [channel.port2]);
  })));
  return (await navigator.serviceWorker.getRegistrations()).map((r) => r.scope);
}"""
# Whether the site's worker (the registration for `scope`, the site's top) is registered and
# active within 60 s; asked again every 50 ms until it has a worker, then awaited. A
# registration is there as soon as `register()` makes it, before its script is fetched and its
# worker installs: in between, it has no worker at all.
SITE_WORKER_ACTIVE = """async (scope) => {
  const deadline = Date.now() + 60000;
  let registration, worker;
  for (;;) {
    registration = await navigator.serviceWorker.getRegistration(scope);
    worker = registration?.installing ?? registration?.waiting ?? registration?.active;
    if (worker) break;
    if (Date.now() >= deadline) return false;
    await new Promise((next) => setTimeout(next, 50));
  }
  while (worker.state !== "activated") {
    if (worker.state === "redundant") return false;
    await new Promise((next) => worker.addEventListener("statechange", next, { once: true }));
  }
  return registration.scope === scope;
}"""


# JupyterLite's kernel indicator (no role, no name) marks an idle kernel with this class, as
# keep-site-worker.js knows it too. Every engine's notebook test waits for it before Run All
# (see `run_all_cells`).
IDLE_KERNEL = f".{KERNEL_IDLE}"
# JupyterLite pings its service worker at this root path; the worker answers once it controls
# the page, and a ping sent before that reaches the server and 404s (JupyterLite then stops).
HEARTBEAT = "/api/service-worker-heartbeat"
# The worker installs these through piplite, from PyPI if need be, unless they are preloaded.
KERNEL_NEEDS = {"micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython"}


def kernel_settings() -> dict[str, Any]:
    config = json.loads((NOTEBOOK_DIST / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings: dict[str, Any] = config["jupyter-config-data"]["litePluginSettings"]
    kernel: dict[str, Any] = settings[KERNEL_PLUGIN]
    return kernel


def test_the_kernel_preloads_only_wheels_the_site_ships(site_url: str) -> None:
    settings = kernel_settings()
    assert settings["disablePyPIFallback"] is True
    pyodide = (NOTEBOOK_DIST / settings["pyodideUrl"]).resolve()
    assert pyodide == (DIST / "pyodide" / "pyodide.mjs").resolve()
    options = settings["loadPyodideOptions"]
    lock_path = NOTEBOOK_DIST / options["lockFileURL"]
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    runtime = json.loads((DIST / "pyodide" / "pyodide-lock.json").read_text("utf-8"))
    assert lock["info"] == runtime["info"]
    packages = lock["packages"]
    wanted = set(options["packages"])
    assert KERNEL_NEEDS | {"attention-lessons"} <= wanted
    closure, pending = set(), list(wanted)
    while pending:
        name = pending.pop()
        assert name in packages, f"the kernel would fetch {name!r}, which the site does not ship"
        if name not in closure:
            closure.add(name)
            pending += packages[name]["depends"]
    shipped = {p.name for p in lock_path.parent.glob("*.whl")}
    assert {entry["file_name"] for entry in packages.values()} == shipped
    for entry in packages.values():
        wheel = lock_path.parent / entry["file_name"]
        assert hashlib.sha256(wheel.read_bytes()).hexdigest() == entry["sha256"], wheel.name
    assert closure == set(packages), "the lock lists wheels the kernel never loads"


def test_the_kernel_loads_bytecode_beside_every_source(site_url: str) -> None:
    """The full standard library and every wheel: an unchecked-hash .pyc (flags 0b01) beside each
    .py, so nothing is compiled in the browser and tracebacks still have their source lines."""
    options = kernel_settings()["loadPyodideOptions"]
    stdlib = NOTEBOOK_DIST / options["stdLibURL"]
    with zipfile.ZipFile(stdlib) as archive:
        names = set(archive.namelist())
        sources = {n for n in names if n.endswith(".py")}
        assert len(sources) > 500, "not the full standard library"
        assert {n.removesuffix(".py") + ".pyc" for n in sources} <= names
        assert archive.read("json/__init__.pyc")[4:8] == (1).to_bytes(4, "little")
    for wheel in sorted((NOTEBOOK_DIST / "wheels").glob("*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            names = set(archive.namelist())
            record = archive.read(next(n for n in names if n.endswith(".dist-info/RECORD")))
            listed = {line.split(",")[0] for line in record.decode().splitlines()}
            for source in (n for n in names if n.endswith(".py")):
                compiled = importlib.util.cache_from_source(source).replace(
                    sys.implementation.cache_tag, "cpython-314")
                assert compiled in names, f"{wheel.name}: no {compiled}"
                assert compiled in listed, f"{wheel.name}: {compiled} is not in its RECORD"


def run_all_cells(page: Page) -> None:
    """Run every cell from the notebook's Run menu once the kernel is idle, as a learner would
    who waits for JupyterLite's kernel indicator to settle. JupyterLab runs no cell asked to
    run while the notebook has no kernel yet: it clears the cell's prompt and goes on (its
    `runCell`, on `hasNoKernel`), so a Run All sent that early leaves every cell unrun."""
    idle = page.get_by_role("toolbar", name="main area toolbar").locator(IDLE_KERNEL)
    expect(idle, "the notebook's kernel never became idle").to_be_visible(
        timeout=KERNEL_TIMEOUT_MS)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def see_lines(page: Page, notebook: str) -> None:
    assert LINES[notebook], f"{notebook}'s plan names no line its notebook prints"
    for line in LINES[notebook]:
        expect(page.get_by_text(re.compile(line)).first).to_be_visible(timeout=KERNEL_TIMEOUT_MS)


def open_notebook(page: Page, url: str, notebook: str) -> None:
    """Open the lesson at url, follow its notebook link, wait for the notebook, Run All."""
    open_page(page, url)
    follow_the_notebook_link(page, notebook)


def follow_the_notebook_link(page: Page, notebook: str) -> None:
    """On its open lesson, follow the notebook's link, wait for the notebook, Run All."""
    page.get_by_role("link", name="Open the notebook").click()
    path = re.escape(f"/notebook/notebooks/index.html?path={notebook}.ipynb")
    expect(page).to_have_url(re.compile(f"{path}$"))
    shown(page, notebook)
    run_all_cells(page)


def shown(page: Page, notebook: str) -> None:
    """The notebook's heading is shown, and with it every one of its code cells, counted once:
    none is left to be attached later (`ALL_CELLS`), below the first screen or not."""
    heading = page.get_by_role("heading", name=TITLES[notebook])
    expect(heading).to_be_visible(timeout=APP_TIMEOUT_MS)
    cells = json.loads((NOTEBOOKS / f"{notebook}.ipynb").read_text(encoding="utf-8"))["cells"]
    editors = page.get_by_role("feed", name="Cells").get_by_role("textbox")
    assert editors.count() == sum(cell["cell_type"] == "code" for cell in cells)


def csp_violations(errors: list[str]) -> list[str]:
    return [error for error in errors if "CSP violation" in error]


@dataclass
class Seen:
    """What a page's context asked for, what it failed to get, and what the page logged."""

    requests: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    logged: list[str] = field(default_factory=list)


def watch(page: Page) -> Seen:
    seen = Seen()
    page.on("console", lambda message: seen.logged.append(message.text))

    def on_response(response: Response) -> None:
        if response.status >= 400 and urlsplit(response.url).path != HEARTBEAT:
            seen.failed.append(f"{response.status} {response.url}")

    # The context sees the kernel's web worker and the service workers too.
    page.context.on("request", lambda request: seen.requests.append(request.url))
    page.context.on("response", on_response)
    return seen


def prints_its_numbers_under_its_csp(
    page: Page, notebook: str, seen: Seen, console_errors: list[str],
    assert_same_origin: Callable[[Iterable[str], str], None],
) -> None:
    """Once the notebook opened from its lesson has run: its numbers, one kernel, nothing
    fetched from elsewhere or missing, and its policy kept."""
    see_lines(page, notebook)
    # The kernel was started as the app started (web/notebook/start-kernel.js), and the
    # notebook joined it: one kernel, in one worker.
    assert f"{START_KERNEL_NAME}: started the kernel of {notebook}.ipynb" in seen.logged
    kernels = [worker.url for worker in page.workers if "/comlink.worker." in worker.url]
    assert len(kernels) == 1, kernels
    assert_same_origin(seen.requests, page.url)
    assert not seen.failed, f"the notebook asked for files the site does not ship: {seen.failed}"
    assert any(url.endswith("/wheels/attention_lessons-0.1.0-py3-none-any.whl")
               for url in seen.requests)
    # The notebook's page carries its policy, and nothing it did while it ran broke it.
    policy = page.locator('meta[http-equiv="Content-Security-Policy"]')
    expect(policy).to_have_attribute("content", re.compile(r"^default-src 'self'; script-src"))
    assert csp_violations(console_errors) == []
    # Every plugin the app still has activates (notebook.UNUSED_PLUGINS names their dependents).
    assert [error for error in console_errors if "failed to activate" in error] == []


@pytest.mark.parametrize("notebook", [slug for slug in LINES if slug != "d8"])
def test_each_notebook_opens_from_its_lesson_and_prints_its_numbers_under_its_csp(
    page: Page, site_url: str, notebook: str, console_errors: list[str],
    assert_same_origin: Callable[[Iterable[str], str], None],
) -> None:
    """D8's: test_d8s_notebook_downloads_opens_and_prints_then_a_mistake_and_tab_completion,
    which checks more on the same start."""
    seen = watch(page)
    open_notebook(page, f"{site_url}{notebook}/", notebook)
    prints_its_numbers_under_its_csp(page, notebook, seen, console_errors, assert_same_origin)


def new_cell(page: Page, source: str) -> None:
    """Add a cell below the last one and type source into it, as a learner would."""
    page.locator(".jp-Cell").last.get_by_role("textbox").click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")  # command mode: a new cell below
    page.keyboard.press("Enter")  # edit it
    page.keyboard.insert_text(source)


def output_with(page: Page, text: str) -> Locator:
    return page.locator(".jp-OutputArea-output").filter(has_text=text).last


# The kernel's own completion, the one Tab asks for: IPython's completer, with jedi.
COMPLETIONS = """from IPython.core.completer import provisionalcompleter
with provisionalcompleter():
    print("completions:", [c.text for c in get_ipython().Completer.completions("att", 3)])"""


def a_mistake_shows_its_source_lines_and_tab_completes_att(page: Page) -> None:
    """On D8's notebook once it has run."""
    see_lines(page, "d8")
    # One key fewer than the query has: the package's own frame raises.
    new_cell(page, "attend([1, 2], [[1, 0, 0]], [[1]])")
    page.keyboard.press("Shift+Enter")
    source = inspect.getsource(attention.dot).splitlines()
    raising = next(line for line in source if "zip(" in line).strip()
    line = inspect.getsourcelines(attention.dot)[1] + next(
        n for n, text in enumerate(source) if "zip(" in text)
    # Each cell below runs in the kernel: its output waits on Pyodide, and IPython's first
    # completion imports and runs jedi, seconds of work that a loaded machine stretches past
    # expect's 5 s (it did once in CI, and here beside other jobs).
    error = output_with(page, "ValueError")
    expect(error).to_contain_text("attend([1, 2], [[1, 0, 0]], [[1]])",  # the cell's line
                                  timeout=KERNEL_TIMEOUT_MS)
    expect(error).to_contain_text(f"attention_lessons/engine/attention.py:{line}")
    expect(error).to_contain_text(raising)  # the package's own line, from its source
    new_cell(page, COMPLETIONS)
    page.keyboard.press("Shift+Enter")
    expect(output_with(page, "completions:")).to_have_text(
        re.compile(r"completions: \[.*'attend'"), timeout=KERNEL_TIMEOUT_MS)
    # As a learner would: Tab after "att" lists `attend`, a function (the kernel's answer, not
    # a word seen in the notebook), and Enter takes it.
    new_cell(page, "att")
    page.keyboard.press("Tab")
    offered = page.locator(".jp-Completer-item").filter(
        has=page.locator(".jp-Completer-match", has_text=re.compile(r"^attend$"))).filter(
        has=page.locator(".jp-Completer-typeExtended", has_text="function"))
    expect(offered).to_be_visible(timeout=KERNEL_TIMEOUT_MS)
    page.keyboard.press("Enter")
    expect(page.locator(".jp-Cell").last.get_by_role("textbox")).to_have_text("attend")


def the_notebook_downloads_as_a_file(page: Page) -> None:
    """On D8, once Python is ready (the page has settled, as a learner would wait for: Python's
    start can stall the layout)."""
    with page.expect_download() as download:
        page.get_by_role("link", name="download d8.ipynb").click()
    assert download.value.suggested_filename == "d8.ipynb"
    path = download.value.path()
    assert '"nbformat": 4' in path.read_text(encoding="utf-8")


def test_d8s_notebook_downloads_opens_and_prints_then_a_mistake_and_tab_completion(
    page: Page, site_url: str, console_errors: list[str],
    assert_same_origin: Callable[[Iterable[str], str], None],
) -> None:
    """One start of D8 and one of its notebook, shared by three checks that each began with
    the same visit: the notebook downloads as a file; it opens from its lesson and prints its
    numbers under its CSP (each notebook's check, D8's); then a mistake shows its source lines
    and Tab completes `att`."""
    seen = watch(page)
    open_page(page, f"{site_url}d8/")
    the_notebook_downloads_as_a_file(page)
    follow_the_notebook_link(page, "d8")
    prints_its_numbers_under_its_csp(page, "d8", seen, console_errors, assert_same_origin)
    a_mistake_shows_its_source_lines_and_tab_completes_att(page)


# A cached file's text, asked again until the cache holds it or `ms` milliseconds have passed
# (0: asked once); null if it never did.
CACHED_TEXT = """async ([cache, url, ms = 0]) => {
  const deadline = Date.now() + ms;
  for (;;) {
    const copy = await (await caches.open(cache)).match(url);
    if (copy) return await copy.text();
    if (Date.now() >= deadline) return null;
    await new Promise((next) => setTimeout(next, 50));
  }
}"""


def test_a_rebuilt_site_replaces_the_notebooks_cached_files_which_then_run_with_the_server_gone(
    page: Page, own_site: Site,
) -> None:
    """One cold context for both: the rebuilt deploy's notebook, once opened, runs offline."""
    open_notebook(page, f"{own_site.url}d8/", "d8")
    see_lines(page, "d8")
    page.evaluate(NOTEBOOK_CACHED)
    first = [n for n in page.evaluate("() => caches.keys()") if n.startswith(SW_PREFIX)]
    app = "notebook/notebooks/index.html"
    old, new = "<title>Jupyter Notebook - Notebooks</title>", "<title>D8's notebook</title>"
    assert old in page.evaluate(CACHED_TEXT, [first[0], f"{own_site.url}{app}"])
    second = own_site.rebuild(app, old, new)
    assert [second] != first

    open_notebook(page, f"{own_site.url}d8/", "d8")  # the app sets the page's title itself
    see_lines(page, "d8")
    # The new deploy's notebook worker takes over the page and is handed what the page loaded
    # (keep-site-worker.js), which it caches; a kernel that starts fast prints before that.
    assert new in page.evaluate(CACHED_TEXT, [second, f"{own_site.url}{app}", 30_000])
    page.evaluate(NOTEBOOK_CACHED)
    page.goto(f"{own_site.url}d8/")
    assert [n for n in page.evaluate(CACHES_AFTER_UPDATE) if n.startswith(SW_PREFIX)] == [
        second]
    assert new in page.evaluate(CACHED_TEXT, [second, f"{own_site.url}{app}"])

    open_notebook(page, f"{own_site.url}d8/", "d8")
    see_lines(page, "d8")
    # The site's worker is registered again once the kernel has started, and precaches the
    # lessons as it installs: a learner who goes offline before it is active has no lessons.
    assert page.evaluate(SITE_WORKER_ACTIVE, own_site.url), "the site's worker never came back"
    scopes = page.evaluate(NOTEBOOK_CACHED)
    # JupyterLite's worker beside the site's: the site's is registered again (keep-site-worker.js).
    assert sorted(scopes) == [own_site.url, f"{own_site.url}notebook/"]
    own_site.go_away()

    page.reload()
    shown(page, "d8")
    run_all_cells(page)
    see_lines(page, "d8")
    page.goto(f"{own_site.url}8-2/")  # the lessons too: JupyterLite left the site's worker
    expect(page.locator("#boot-status")).to_have_text("Python is ready.", timeout=APP_TIMEOUT_MS)


# What the build removes from the built app (src/course_build/notebook_app.py, TRIMMED): each
# file is in what jupyter lite build copies (its app archive, or an extension's folder).
REMOVED = (
    "rspack.config.js", "rspack.config.analyze.js", "rspack.config.watch.js",
    "package.json", "notebooks/package.json", "jupyterlite.schema.v0.json",
    "extensions/jupyterlab_pygments/package.json", "extensions/jupyterlab_pygments/install.json",
    "extensions/@jupyterlite/pyodide-kernel-extension/package.json",
    "extensions/@jupyterlite/pyodide-kernel-extension/install.json",
)


def test_the_app_is_trimmed_and_its_pages_carry_a_policy(site_url: str) -> None:
    """The other tests here run notebooks on this trimmed app and fail on any 404."""
    core = importlib.util.find_spec("jupyterlite_core")
    assert core is not None
    assert core.origin is not None
    stock = Path(core.origin).parent / "jupyterlite-app-0.8.6.tgz"
    with tarfile.open(stock) as archive:
        copied = {m.name.removeprefix("package/") for m in archive.getmembers() if m.isfile()}
    extensions = Path(sys.prefix, "share", "jupyter", "labextensions")
    copied |= {f"extensions/{p.relative_to(extensions).as_posix()}"
               for p in extensions.rglob("*.json")}
    app = NOTEBOOK_DIST
    for name in REMOVED:
        assert name in copied, f"{name} is not something jupyter lite build copies"
        assert not (app / name).exists(), f"{name} was not trimmed"
    pages = sorted(app.rglob("*.html"))
    assert {p.relative_to(app).as_posix() for p in pages} == {
        "index.html", "notebooks/index.html", "doc/tree/index.html", "doc/workspaces/index.html"}
    for html in pages:
        assert html.read_text(encoding="utf-8").count('http-equiv="Content-Security-Policy"') == 1

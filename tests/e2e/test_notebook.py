"""Open the notebook from D8 and run it in JupyterLite, on the site's own Pyodide, offline."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import pytest
from learner import open_d8
from playwright.sync_api import Page, Response, expect

from course_build.notebook import KERNEL_PLUGIN, NOTEBOOK_DIST
from course_build.paths import DIST

pytestmark = pytest.mark.cold  # it listens to the context's every request

# A cold kernel takes 15–23 s here (Pyodide, then IPython and the package from our lock);
# a busy 2-core CI machine is slower.
KERNEL_TIMEOUT_MS = 180_000
APP_TIMEOUT_MS = 60_000
# Lines D8's notebook prints, with the page's own numbers (the notebook file holds no outputs).
D8_LINES = (
    r"output, weights against values\s+1\.3760",
    r"output, weights against values\s+0\.8744",
    r"concatenated heads\s+1\.3760, 0\.8744",
    r"single head\s+1\.1740, 0\.7643",
    r"difference\s+0\.2019, 0\.1101",
)


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


def run_all_cells(page: Page) -> None:
    """Run every cell from the notebook's Run menu once the kernel is idle, as a learner would
    who waits for JupyterLite's kernel indicator to settle. JupyterLab runs no cell asked to
    run while the notebook has no kernel yet: it clears the cell's prompt and goes on (its
    `runCell`, on `hasNoKernel`), so a Run All sent that early leaves every cell unrun. The
    indicator (no role, no name) marks an idle kernel with this class."""
    idle = page.get_by_role("toolbar", name="main area toolbar").locator(".jp-KernelStatus-success")
    expect(idle, "the notebook's kernel never became idle").to_be_visible(
        timeout=KERNEL_TIMEOUT_MS)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()


def test_the_d8_notebook_opens_from_the_lesson_and_prints_its_numbers(
    page: Page, d8_url: str, assert_same_origin: Callable[[Iterable[str], str], None],
) -> None:
    requests: list[str] = []
    failed: list[str] = []

    def on_response(response: Response) -> None:
        if response.status >= 400 and urlsplit(response.url).path != HEARTBEAT:
            failed.append(f"{response.status} {response.url}")

    # The context sees the kernel's web worker and JupyterLite's service worker too.
    page.context.on("request", lambda request: requests.append(request.url))
    page.context.on("response", on_response)
    open_d8(page, d8_url)
    page.get_by_role("link", name="Open the notebook").click()
    expect(page).to_have_url(re.compile(r"/notebook/notebooks/index\.html\?path=d8\.ipynb$"))
    heading = page.get_by_role("heading", name="D8 · Two heads of dimension one")
    expect(heading).to_be_visible(timeout=APP_TIMEOUT_MS)
    run_all_cells(page)
    for line in D8_LINES:
        expect(page.get_by_text(re.compile(line)).first).to_be_visible(timeout=KERNEL_TIMEOUT_MS)
    assert_same_origin(requests, page.url)
    assert not failed, f"the notebook asked for files the site does not ship: {failed}"
    assert any(url.endswith("/wheels/attention_lessons-0.1.0-py3-none-any.whl") for url in requests)


def test_the_notebook_downloads_as_a_file(page: Page, d8_url: str) -> None:
    # Wait for the page to settle, as a learner would: Python's start can stall the layout.
    open_d8(page, d8_url)
    with page.expect_download() as download:
        page.get_by_role("link", name="download d8.ipynb").click()
    assert download.value.suggested_filename == "d8.ipynb"
    path = download.value.path()
    assert '"nbformat": 4' in path.read_text(encoding="utf-8")

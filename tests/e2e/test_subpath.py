"""The site served under a sub-path, /learn-ml/, as GitHub Pages serves a project site."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Response, expect

from conftest import python_ready
from course_build.paths import DIST
from course_build.server import QuietHandler, QuietServer
from learner import D8, L82, lock_prediction
from sites import serving
from test_notebook import HEARTBEAT

pytestmark = pytest.mark.cold  # it listens to the context's every request

PREFIX = "/learn-ml/"
# Each lesson the track links to, with its notebook and a number its page computes once
# the learner has committed a prediction. Adding a lesson here is one line.
LESSONS = {
    "8.2 · Attention by hand": (L82, "8-2.ipynb", "The output is 1.1740, 0.7643."),
    "D8 · Two heads of dimension one": (D8, "d8.ipynb", "The output is 1.3760."),
}


class SubPathHandler(QuietHandler):
    """dist/ under PREFIX; anything outside it is a 404, as on a project site."""

    def translate_path(self, path: str) -> str:
        if not path.startswith(PREFIX):
            return str(DIST / "not-under-the-sub-path")
        return super().translate_path("/" + path.removeprefix(PREFIX))


@pytest.fixture(scope="module")
def subpath_url(site_url: str) -> Iterator[str]:
    """The track page's URL under PREFIX (site_url has built dist/ already)."""
    handler = partial(SubPathHandler, directory=str(DIST))
    with serving(QuietServer(("127.0.0.1", 0), handler)) as port:
        yield f"http://127.0.0.1:{port}{PREFIX}"


def test_outside_the_sub_path_there_is_nothing(page: Page, subpath_url: str) -> None:
    response = page.goto(subpath_url.removesuffix(PREFIX) + "/d8/")
    assert response is not None
    assert response.status == 404


@pytest.mark.parametrize("lesson", LESSONS)
def test_a_lesson_runs_under_the_sub_path_and_opens_its_notebook(
    page: Page, subpath_url: str, lesson: str,
) -> None:
    plan, notebook, number = LESSONS[lesson]
    requests: list[str] = []
    failed: list[str] = []
    page.context.on("request", lambda request: requests.append(request.url))

    def on_response(response: Response) -> None:
        if response.status >= 400 and urlsplit(response.url).path != HEARTBEAT:
            failed.append(f"{response.status} {response.url}")

    page.context.on("response", on_response)
    page.goto(subpath_url)
    expect(page.get_by_role("heading", name="Learn machine learning", level=1)).to_be_visible()
    page.get_by_role("link", name=lesson).click()
    python_ready(page)
    lock_prediction(page, plan.right_prediction)
    expect(page.get_by_text(number).first).to_be_visible()
    lesson_requests = list(requests)
    page.get_by_role("link", name="Open the notebook").click()
    expect(page).to_have_url(re.compile(
        rf"^{re.escape(subpath_url)}notebook/notebooks/index\.html\?path={re.escape(notebook)}$"))
    # The notebook's first heading is the lesson's name, rendered by JupyterLite.
    expect(page.get_by_role("heading", name=lesson)).to_be_visible(timeout=60_000)
    paths = [urlsplit(url).path for url in requests if not url.startswith("data:")]
    paths = [path for path in paths if path != HEARTBEAT]
    assert all(path.startswith(PREFIX) for path in paths), paths
    # The lesson page itself loads nothing of JupyterLite's, so it starts as fast as before.
    assert not [url for url in lesson_requests if f"{PREFIX}notebook/" in url]
    assert not failed, failed

"""The whole course's progress carried to another browser, in Chromium, Firefox and WebKit:
downloaded from the track in one fresh profile and imported in another, and the same through
the progress link; in both, a receiving side whose 8.2 gate is met keeps it and gains D8's
work."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from urllib.parse import unquote

import pytest
from cross_browser import ChromiumLearner, Learner, WebKitLearner, webkit_session
from learner import D8, L82
from test_every_engine import (
    check_right_answers,
    firefox,
    lock_prediction,
    open_lesson,
    right_reading,
    see_gate_met,
)

from attention_lessons import COURSE_FILE, LESSONS, export_json
from conftest import DRIVEN as OTHER_ENGINES  # the engines besides Chromium
from course_work import FINISHED

__all__ = ["firefox"]  # a fixture, used by name

SAFARI = "deletes what this site saved after seven days without a visit"
# Takes the download's file as it leaves: the anchor the page makes and clicks, whose data: URL
# holds the file (no engine's driver here hands over a download the same way).
CATCH_DOWNLOAD = """async () => {
  window.caught = null;
  HTMLAnchorElement.prototype.click = function () {
    window.caught = { name: this.download, href: this.href };
  };
}"""
CAUGHT = "async () => window.caught"
# Chooses a file in the track's Import, as the file picker would.
CHOOSE_FILE = """async () => {
  const input = document.getElementById("course_import_file");
  const transfer = new DataTransfer();
  transfer.items.add(new File([%s], "progress.json", { type: "application/json" }));
  input.files = transfer.files;
  input.dispatchEvent(new Event("change", { bubbles: true }));
}"""
STATUSES = """async () => Object.fromEntries([...document.querySelectorAll("[id^=status_]")]
  .map((status) => [status.id.slice("status_".length), status.textContent]))"""
SENT = {"8-2": "Status: in progress", "d8": "Status: done", "8-3": "Status: not started"}
KEPT_MET = {**SENT, "8-2": "Status: done"}
MET_8_2 = export_json(FINISHED["8-2"], LESSONS["8-2"])  # a lesson's own file, its gate met


@contextlib.contextmanager
def fresh_profile(engine: str, request: pytest.FixtureRequest) -> Iterator[Learner]:
    """A page in a profile that holds nothing of this site: a new context, a new private
    context of the shared Firefox, or a new WebKit."""
    if engine == "chromium":
        page = request.getfixturevalue("new_context")().new_page()
        yield ChromiumLearner(page)
        page.context.close()
    elif engine == "firefox":
        yield request.getfixturevalue("firefox").fresh()
    else:
        with webkit_session() as driver:
            yield WebKitLearner(driver)


def choose_file(learner: Learner, text: str) -> None:
    learner.run(CHOOSE_FILE % json.dumps(text))


def bring_in(learner: Learner, what: str) -> None:
    learner.see_text("merge into")
    learner.click("button", f"Bring in the {what}'s progress")
    learner.see_text(f"Brought in from the {what}")


def sender(learner: Learner, site_url: str, engine: str) -> tuple[str, str]:
    """D8 done, 8.2 begun with wrong numbers, 8.3 untouched; return the course's file and link,
    as the track's Download and Copy link give them."""
    open_lesson(learner, f"{site_url}d8/")
    lock_prediction(learner, D8)
    check_right_answers(learner, D8)
    learner.click("radio", right_reading(D8))
    learner.click("button", "Lock in this reading")
    see_gate_met(learner)
    open_lesson(learner, f"{site_url}8-2/")
    lock_prediction(learner, L82)
    for label in L82.right_answers:
        learner.fill("textbox", label, "0.5")
    learner.click("button", "Check")
    learner.see_text("You have run it 1 time.")
    open_lesson(learner, site_url)
    assert learner.run(STATUSES) == SENT
    learner.see_text("Last backed up: never.")
    if engine == "webkit":
        learner.see_text(SAFARI)
    else:
        learner.no_text(SAFARI)
    learner.run(CATCH_DOWNLOAD)
    learner.click("button", "Download all my progress")
    learner.see_text("Downloaded.")
    learner.no_text("Last backed up: never.")
    caught = learner.run(CAUGHT)
    assert caught["name"] == COURSE_FILE
    file = unquote(caught["href"].partition(",")[2])
    learner.click("button", "Copy link")  # copied, or not where the clipboard is refused
    link: str = learner.read("textbox", "Your progress link", "value")
    assert link.startswith(f"{site_url}#progress=1.")
    assert learner.errors() == []
    return file, link


@pytest.mark.parametrize("engine", ["chromium", *OTHER_ENGINES])
def test_the_course_moves_by_file_and_by_link_and_a_met_gate_stays_met(
    engine: str, request: pytest.FixtureRequest, site_url: str
) -> None:
    with fresh_profile(engine, request) as learner:
        file, link = sender(learner, site_url, engine)

    with fresh_profile(engine, request) as learner:  # the link opened in a fresh profile
        learner.goto(link)
        learner.python_ready()
        bring_in(learner, "link")
        assert learner.run(STATUSES) == SENT
        assert learner.run("async () => location.hash") == ""  # off the address bar
        assert learner.errors() == []

    with fresh_profile(engine, request) as learner:  # the file imported in a fresh profile
        open_lesson(learner, site_url)
        choose_file(learner, file)
        bring_in(learner, "file")
        assert learner.run(STATUSES) == SENT
        assert learner.errors() == []

    for what in ("file", "link"):  # a profile whose 8.2 gate is met, and whose D8 is not
        with fresh_profile(engine, request) as learner:
            open_lesson(learner, site_url)
            choose_file(learner, MET_8_2)
            learner.see_text("merge into")
            learner.click("button", "Bring in the file's progress")
            learner.see_text("Brought in from the file: 8.2.")
            if what == "file":
                choose_file(learner, file)
            else:
                fragment = json.dumps(link.partition("#")[2])
                learner.run(f"async () => {{ location.hash = {fragment}; }}")
            bring_in(learner, what)
            assert learner.run(STATUSES) == KEPT_MET
            assert learner.errors() == []

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

from attention_lessons import (
    COURSE_FILE,
    LESSONS,
    Progress,
    export_json,
    lock_prediction,
    save_takeaway,
    store_key,
)
from attention_lessons.progress import progress_link, to_json
from conftest import DRIVEN as OTHER_ENGINES  # the engines besides Chromium
from course_work import FINISHED
from cross_browser import ChromiumLearner, Learner, WebKitLearner, webkit_session
from learner import D8, L82
from stored import newer_records
from test_every_engine import (
    check_right_answers,
    firefox,
    open_lesson,
    right_reading,
    see_gate_met,
)
from test_every_engine import lock_prediction as lock_on_the_page

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
# The course as sent: D8 done, 8.2 begun, and every other lesson on the track not started.
SENT = {**dict.fromkeys(LESSONS, "Status: not started"),
        "8-2": "Status: in progress", "d8": "Status: done"}
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
    lock_on_the_page(learner, D8)
    check_right_answers(learner, D8)
    learner.click("radio", right_reading(D8))
    learner.click("button", "Lock in this reading")
    see_gate_met(learner)
    open_lesson(learner, f"{site_url}8-2/")
    lock_on_the_page(learner, L82)
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


# The records as this browser holds them, each key's text or null.
HELD = """async () => Object.fromEntries(%s.map((key) => [key, localStorage.getItem(key)]))"""
# A storage that refuses 8.3's record (the last the confirm writes) until the test frees it.
REFUSE_8_3 = """async () => {
  window.storageFull = true;
  const realSetItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    if (window.storageFull && key === %s) {
      throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    }
    return realSetItem.call(this, key, value);
  };
}"""


@pytest.mark.parametrize("engine", ["chromium", *OTHER_ENGINES])
def test_a_link_stores_all_or_nothing_and_leaves_what_it_cannot_read_a_lock_and_a_takeaway(
    engine: str, request: pytest.FixtureRequest, site_url: str
) -> None:
    """D8 saved by a newer build; 8.2 locked on another prediction than the link's, with a
    takeaway of its own; storage that refuses 8.3 at first."""
    keys = {slug: store_key(LESSONS[slug]) for slug in ("8-2", "d8", "8-3")}
    first = LESSONS["8-2"].predictions[0]
    mine = save_takeaway(lock_prediction(Progress(), LESSONS["8-2"], first.id, "my reason"),
                         "written here")
    newer = newer_records()["a newer version"]
    here = {keys["8-2"]: to_json(mine), keys["d8"]: newer, keys["8-3"]: None}
    with fresh_profile(engine, request) as learner:
        open_lesson(learner, site_url)
        for key, value in here.items():
            if value is not None:
                learner.run(f"async () => localStorage.setItem({json.dumps(key)}, "
                            f"{json.dumps(value)})")
        learner.run(REFUSE_8_3 % json.dumps(keys["8-3"]))
        sent = progress_link({slug: FINISHED[slug] for slug in keys})  # 8.3 the last written
        learner.run(f"async () => {{ location.hash = {json.dumps(sent)}; }}")
        learner.see_text("D8: your progress here was saved by a newer version of this site")
        learner.see_text("differs from yours here")
        learner.click("button", "Bring in the link's progress")
        learner.see_text("this browser's storage refused 8.3's progress")
        held = HELD % json.dumps(list(keys.values()))
        assert learner.run(held) == here  # 8.2, written first, is back as it was
        learner.run("async () => { window.storageFull = false; }")
        learner.click("button", "Bring in the link's progress")
        learner.see_text("Brought in from the link: 8.2, 8.3.")
        stored = learner.run(held)
        assert stored[keys["d8"]] == newer
        kept = json.loads(stored[keys["8-2"]])
        assert (kept["prediction"], kept["why"], kept["takeaway"]) == (
            first.id, "my reason", "written here")
        assert json.loads(stored[keys["8-3"]]) == json.loads(to_json(FINISHED["8-3"]))
        assert learner.errors() == []

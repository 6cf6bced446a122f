"""The learner's main paths in Firefox and WebKit, and, where only a server can stage the
fault, in Chromium too: every lesson's journey on the trimmed runtime, a prediction locked
before Python is ready, a reload after one visit with the site unreachable or not answering,
a rebuilt deploy replacing the old cache, and the track and D8, come back to, showing what a
lesson saved. Where checks begin with the same visit, one test makes it once: a start of
Python is most of what a browser test costs, and in Firefox and WebKit a new profile too."""

from __future__ import annotations

import json
from collections.abc import Iterator

import numpy as np
import pytest

from attention_lessons.lessons import LESSONS
from conftest import DRIVEN as OTHER_ENGINES  # the engines besides Chromium
from cross_browser import ChromiumLearner, Learner, SharedFirefox, WebKitLearner, webkit_session
from learner import D8, EARLY_LOCK, GATE_STATUS, GRADED, L82, PLANS, WHY, WHY_LABEL, Plan
from sites import CACHES_AFTER_UPDATE, CACHES_WHEN_CONTROLLED, REVISED, TITLE, Site
from test_notebook import IDLE_KERNEL

NOT_DONE = "which is not done yet in this browser"


@pytest.fixture(scope="module")
def firefox() -> Iterator[SharedFirefox]:
    shared = SharedFirefox()
    yield shared
    shared.close()


@pytest.fixture
def learner(engine: str, request: pytest.FixtureRequest) -> Iterator[Learner]:
    """One page open, with no site data: Chromium's in the warm profile or a new context (see
    conftest's `context`), Firefox's in a new private context of one shared Firefox, and
    WebKit's in a new browser."""
    if engine == "chromium":
        yield ChromiumLearner(request.getfixturevalue("page"))
    elif engine == "firefox":
        yield request.getfixturevalue("firefox").fresh()
    else:
        with webkit_session() as driver:
            yield WebKitLearner(driver)


def right_reading(plan: Plan) -> str:
    """The right reading's whole label: both drivers match accessible names exactly."""
    lesson = LESSONS[plan.slug]
    return next(c.label for c in lesson.readings if c.id == lesson.correct_reading)


def open_lesson(learner: Learner, url: str) -> None:
    learner.goto(url)
    learner.python_ready()


def lock_prediction(learner: Learner, plan: Plan) -> None:
    learner.click("radio", plan.right_prediction)
    learner.click("button", "Lock in my prediction")
    learner.see("heading", "03 · Try it")


def see_heads_computed(learner: Learner, plan: Plan) -> None:
    for head, summary in plan.heads.items():
        learner.see_text("computed in this browser", within=("article", head))
        learner.see_text(summary, within=("article", head))


def check_right_answers(learner: Learner, plan: Plan) -> None:
    for label, typed in plan.right_answers.items():
        learner.fill("textbox", label, typed)
    learner.click("button", "Check")
    learner.see_text("You have run it 1 time.")
    learner.see_text(GRADED)


def see_gate_met(learner: Learner) -> None:
    learner.see("region", "Your check: an outcome you produce met")
    learner.see_text(GATE_STATUS)


def page_errors(learner: Learner) -> list[str]:
    """The page's errors, less one that Firefox makes: it asks for /favicon.ico when it shows
    a page kept for Back, whatever the page's icon link says, and the page's policy
    (a 404, or refused by its policy before the site had icons). That is all it does."""
    return [error for error in learner.errors() if "/favicon.ico" not in error]


def see_prediction_kept(learner: Learner, plan: Plan) -> None:
    assert learner.read("radio", plan.right_prediction, "checked") is True
    assert learner.read("radio", plan.right_prediction, "disabled") is True


def work_through_and_come_back(learner: Learner, plan: Plan) -> None:
    """From a locked prediction: the heads, six right numbers and the right reading meet the
    gate, and a reload brings every part back."""
    see_heads_computed(learner, plan)
    check_right_answers(learner, plan)
    learner.click("radio", right_reading(plan))
    learner.click("button", "Lock in this reading")
    see_gate_met(learner)
    assert learner.errors() == []

    learner.reload()
    learner.python_ready()
    see_prediction_kept(learner, plan)
    for label, typed in plan.right_answers.items():
        assert learner.read("textbox", label, "value") == typed
    learner.see_text("You have run it 1 time.")
    assert learner.read("radio", right_reading(plan), "checked") is True
    see_gate_met(learner)
    assert learner.errors() == []


# D8's journey is in the test below, which begins it with a prediction locked early.
BUT_D8 = [plan for plan in PLANS if plan is not D8]


@pytest.mark.parametrize("plan", BUT_D8, ids=[plan.slug for plan in BUT_D8])
@pytest.mark.parametrize("engine", OTHER_ENGINES)  # Chromium's: test_every_lesson.py
def test_each_lesson_works_through_and_comes_back(
    learner: Learner, site_url: str, plan: Plan
) -> None:
    open_lesson(learner, f"{site_url}{plan.slug}/")
    lock_prediction(learner, plan)
    work_through_and_come_back(learner, plan)


@pytest.mark.parametrize("engine", OTHER_ENGINES)
def test_d8_locked_while_python_starts_works_through_then_explored_by_keyboard_and_its_notebook(
    learner: Learner, own_site: Site
) -> None:
    """One start of D8 for three checks, each of which began with a visit to it: a prediction
    locked while Python starts is applied; D8 worked through to its gate and back after a
    reload (every other lesson's is the test above); then a keyboard move in Explore, and D8's
    notebook prints its numbers (Chromium's keyboard check is its own test, below, and its
    notebooks are opened in test_notebook.py)."""
    own_site.hold()
    learner.goto(f"{own_site.url}d8/")
    learner.click("radio", D8.right_prediction)
    learner.fill("textbox", WHY_LABEL, WHY)
    learner.click("button", "Lock in my prediction")
    learner.see_text(EARLY_LOCK)
    assert learner.read("button", "Prediction locked in", "disabled") is True
    own_site.wait_until_held()  # so Python cannot have started: nothing is computed yet
    assert not learner.visible("heading", "03 · Try it")

    own_site.release()
    learner.python_ready()
    learner.see_text("Locked in while Python was starting, and now applied.")
    assert learner.read("radio", D8.right_prediction, "checked") is True
    assert learner.read("textbox", WHY_LABEL, "value") == WHY
    learner.see("heading", "03 · Try it")
    work_through_and_come_back(learner, D8)  # its reload keeps the prediction locked early

    move_the_query_by_keyboard(learner)
    open_d8s_notebook_and_run_it(learner)


@pytest.mark.parametrize("engine", ["chromium", *OTHER_ENGINES])
def test_after_one_visit_the_site_needs_no_server_and_a_rebuild_replaces_its_cache_whole(
    learner: Learner, own_site: Site
) -> None:
    """One visit, then the server in turn not answering the page, a rebuilt deploy replacing
    the old cache whole, the server gone for a page opened again, and gone for a reload: one
    start of the site shared by the five checks, each of which would otherwise begin with the
    same first visit. (Chromium's rebuild under a second sub-path is in test_offline.py.)"""
    d8 = f"{own_site.url}d8/"
    open_lesson(learner, d8)
    # The first visit fetches each file once: start-up asks for its files early (the page
    # names them in its <head>), and the requests that then use them must not fetch them
    # again. Safari's engine, for one, does not use a <link rel=preload as=fetch> for a later
    # fetch() of the same file.
    sent = own_site.sent_before_worker()
    assert [path for path in set(sent) if sent.count(path) > 1] == []
    assert any(path.endswith("/runtime/python_stdlib.zip") for path in sent)
    lock_prediction(learner, D8)
    first = learner.run(CACHES_WHEN_CONTROLLED)
    assert len(first) == 1

    # A server that does not answer the page is not waited for.
    own_site.hold("/d8/")  # the page: reached, asked, and never answered
    learner.reload()
    own_site.wait_until_held()
    learner.python_ready()
    see_prediction_kept(learner, D8)
    see_heads_computed(learner, D8)
    own_site.release()
    assert learner.errors() == []

    # A rebuilt deploy: its worker replaces the old cache whole, and from here on every page,
    # opened again or reloaded with the server gone, is the new build's.
    second = own_site.rebuild("d8/index.html", f"<h1>{TITLE}<", f"<h1>{REVISED}<")
    assert [second] != first
    assert learner.run(CACHES_AFTER_UPDATE) == [second]

    # Each page opens again with the server refusing. Not a reload (that asks the server for
    # the page) but the page opened again, as from a link or the address bar: the server's
    # files carry Last-Modified and no Cache-Control, as `python3 -m http.server`'s and many
    # hosts' do, so the browser may take the page from its HTTP cache without asking the
    # server, and the worker must not take that for an answer.
    open_lesson(learner, d8)  # a visit with the new worker in control
    learner.see("heading", REVISED)
    own_site.go_away()
    open_lesson(learner, d8)
    learner.see("heading", REVISED)
    see_prediction_kept(learner, D8)
    see_heads_computed(learner, D8)
    open_lesson(learner, own_site.url)
    learner.see("heading", "Learn machine learning")
    open_lesson(learner, f"{own_site.url}{L82.slug}/")  # never opened: only the precache has it
    lock_prediction(learner, L82)
    see_heads_computed(learner, L82)
    assert learner.errors() == []

    # A reload with the server unreachable, and the work carries on.
    open_lesson(learner, d8)
    learner.reload()
    learner.python_ready()
    learner.see("heading", REVISED)
    see_prediction_kept(learner, D8)
    see_heads_computed(learner, D8)
    check_right_answers(learner, D8)
    learner.click("link", "All lessons")
    learner.see("heading", "Learn machine learning")
    assert learner.errors() == []


@pytest.mark.parametrize("engine", ["chromium", *OTHER_ENGINES])
def test_back_on_d8_its_notice_knows_8_2_is_done_and_back_on_the_track_it_shows_what_was_saved(
    learner: Learner, site_url: str
) -> None:
    """The track, D8 from its link, 8.2 from D8's notice, then back twice: one walk for two
    checks that each began with a visit (to the track, and to D8)."""
    open_lesson(learner, site_url)
    learner.see_text("Status: not started", within=("region", "The track"))
    # Once the service worker controls the track, the browser can keep it whole for "back".
    assert len(learner.run(CACHES_WHEN_CONTROLLED)) == 1
    learner.click("link", "D8 · Two heads of dimension one")
    learner.python_ready()
    learner.see_text(NOT_DONE)
    lock_prediction(learner, D8)
    learner.click("link", "8.2 Attention by hand")
    learner.python_ready()
    lock_prediction(learner, L82)
    check_right_answers(learner, L82)
    learner.click("radio", right_reading(L82))
    learner.click("button", "Lock in this reading")
    see_gate_met(learner)

    learner.back()
    learner.see("heading", TITLE)
    learner.no_text(NOT_DONE)
    learner.back()
    learner.see("heading", "Learn machine learning")
    learner.python_ready()
    learner.see_text("Status: in progress", within=("region", "The track"))
    assert page_errors(learner) == []


# Resolves once `shown()` holds, watched as the page changes (no polling), or fails after 80 s
# (the drivers give a script 90 s): the notebook app, then a cold kernel, take 5-60 s here.
WAITS_UNTIL = """async () => {
  const shown = () => %s;
  if (shown()) return true;
  await new Promise((done, fail) => {
    const watch = new MutationObserver(() => { if (shown()) { watch.disconnect(); done(); } });
    watch.observe(document, { subtree: true, childList: true, characterData: true });
    setTimeout(() => fail(new Error("not shown within 80 s: %s")), 80000);
  });
  return true;
}"""
# See test_notebook.run_all_cells for why Run All waits for an idle kernel.
KERNEL_IDLE = WAITS_UNTIL % (f"document.querySelector({json.dumps(IDLE_KERNEL)}) !== null",
                             "an idle kernel")


def shows_text(text: str) -> str:
    """A script that waits for the page to hold text. Firefox's text locator does not find the
    notebook's rendered title, so the notebook's steps wait this way. It reads textContent:
    innerText leaves out the cells the notebook does not draw while they are off screen, and
    D8's notebook grew a cell that pushed its printed numbers off screen in Firefox."""
    wanted = json.dumps(text)
    return WAITS_UNTIL % (f"document.body?.textContent.includes({wanted})", wanted.strip('"'))


# The text of the menu item the keyboard has made active in the app's open menu (Lumino marks
# it with a class: the menu keeps the focus, not the item).
ACTIVE_MENU_ITEM = """async () =>
  document.querySelector(".lm-Menu .lm-Menu-item.lm-mod-active")?.textContent ?? null"""


def choose(learner: Learner, menu: str, item: str) -> None:
    """Open the menu bar's `menu` with a click, then take `item` by keyboard: ArrowDown until it
    is the active one, and Enter. WebKitWebDriver cannot click inside Lumino's menus (each is
    placed with a CSS transform, and the driver calls every element in one not interactable,
    even when asked only for its rect); a learner's keys work in every engine."""
    learner.click("menuitem", menu)
    for _ in range(30):
        if learner.run(ACTIVE_MENU_ITEM) == item:
            learner.key("Enter")
            return
        learner.key("ArrowDown")
    raise AssertionError(f"no {item!r} in the {menu} menu")


def open_d8s_notebook_and_run_it(learner: Learner) -> None:
    """From D8's page: its notebook opens, runs every cell, and prints D8's numbers."""
    learner.click("link", "Open the notebook")
    assert learner.run(shows_text("Two heads of dimension one")) is True
    assert learner.run(KERNEL_IDLE) is True
    choose(learner, "Run", "Run All Cells")
    assert learner.run(shows_text("concatenated heads 1.3760, 0.8744")) is True
    learner.see_text("concatenated heads 1.3760, 0.8744")
    learner.see_text("0.2019, 0.1101")  # the differences
    assert [error for error in learner.errors() if "CSP" in error] == []


# Which of the plane and head A's readout beside it are not wholly inside the window.
OFF_SCREEN = """async () => ["explore_plane_svg", "explore_readout_a_1", "explore_readout_a_2",
  "explore_readout_a_3", "explore_readout_a_4", "explore_readout_a_output"].filter((id) => {
  const box = document.getElementById(id).getBoundingClientRect();
  return !(box.width > 0 && box.left >= -0.5 && box.top >= -0.5
           && box.right <= innerWidth + 0.5 && box.bottom <= innerHeight + 0.5);
})"""


def move_the_query_by_keyboard(learner: Learner) -> None:
    """One arrow key on the query's handle: head A's explored output is numpy's, and its new
    weights and output are on screen beside the plane."""
    learner.press("slider", "Move the query", "ArrowRight")
    assert learner.read("textbox", "Query, coordinate 1", "value") == "2.1"
    weights = np.exp(2.1 * np.array([1.0, 0.0, 1.0, -1.0]))
    weights /= weights.sum()
    output = weights @ np.array([1.0, 0.0, 2.0, -2.0])
    readout = ("table", "What a move changes: each head's weights and output")
    learner.see_text(f"{output:.4f}", within=readout)
    for weight in weights:
        learner.see_text(f"{weight:.4f}", within=readout)
    assert learner.run(OFF_SCREEN) == []
    learner.see_text(f"The output is {output:.4f}.",
                     within=("article", "head A, explored"))
    assert learner.errors() == []


@pytest.mark.parametrize("engine", ["chromium"])  # Firefox and WebKit: before their notebook
def test_the_keyboard_moves_the_query_in_explore(learner: Learner, site_url: str) -> None:
    open_lesson(learner, f"{site_url}d8/")
    lock_prediction(learner, D8)
    move_the_query_by_keyboard(learner)

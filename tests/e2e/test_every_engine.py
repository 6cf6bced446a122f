"""The learner's main paths in Firefox and WebKit, and, where only a server can stage the
fault, in Chromium too: every lesson's journey on the trimmed runtime, a prediction locked
before Python is ready, a reload after one visit with the site unreachable, and a rebuilt
deploy replacing the old cache."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cross_browser import ChromiumLearner, Learner, WebKitLearner, firefox_session, webkit_session
from learner import D8, EARLY_LOCK, PLANS, WHY, WHY_LABEL, Plan
from sites import CACHES_AFTER_UPDATE, CACHES_WHEN_CONTROLLED, REVISED, TITLE, Site

from attention_lessons.lessons import LESSONS

GRADED = "6 of 6 numbers within tolerance, 5 needed. No reading locked in yet."
GATE_STATUS = "6 of 6 numbers within tolerance, 5 needed. The right reading is locked in."
OTHER_ENGINES = ("firefox", "webkit")


@pytest.fixture
def learner(engine: str, request: pytest.FixtureRequest) -> Iterator[Learner]:
    """A fresh browser of the given engine, one page open."""
    if engine == "chromium":
        yield ChromiumLearner(request.getfixturevalue("page"))
    elif engine == "firefox":
        with firefox_session() as firefox:
            yield firefox
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


def see_prediction_kept(learner: Learner, plan: Plan) -> None:
    assert learner.read("radio", plan.right_prediction, "checked") is True
    assert learner.read("radio", plan.right_prediction, "disabled") is True


@pytest.mark.parametrize("plan", PLANS, ids=[plan.slug for plan in PLANS])
@pytest.mark.parametrize("engine", OTHER_ENGINES)
def test_each_lesson_works_through_and_comes_back(
    learner: Learner, site_url: str, plan: Plan
) -> None:
    open_lesson(learner, f"{site_url}{plan.slug}/")
    lock_prediction(learner, plan)
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


@pytest.mark.parametrize("engine", OTHER_ENGINES)
def test_a_prediction_locked_while_python_starts_is_applied(
    learner: Learner, own_site: Site
) -> None:
    own_site.hold_runtime()
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
    see_heads_computed(learner, D8)
    learner.reload()
    learner.python_ready()
    see_prediction_kept(learner, D8)
    assert learner.errors() == []


@pytest.mark.parametrize("engine", ["chromium", *OTHER_ENGINES])
def test_after_one_visit_the_site_works_with_its_server_unreachable(
    learner: Learner, own_site: Site
) -> None:
    open_lesson(learner, f"{own_site.url}d8/")
    lock_prediction(learner, D8)
    assert len(learner.run(CACHES_WHEN_CONTROLLED)) == 1
    own_site.go_away()

    learner.reload()
    learner.python_ready()
    see_prediction_kept(learner, D8)
    see_heads_computed(learner, D8)
    check_right_answers(learner, D8)
    # Never opened while the server was there, so only the worker's precache can have it.
    learner.click("link", "All lessons")
    learner.see("heading", "Learn machine learning")
    assert learner.errors() == []


@pytest.mark.parametrize("engine", OTHER_ENGINES)
def test_a_rebuilt_site_replaces_the_old_cache_whole(learner: Learner, own_site: Site) -> None:
    open_lesson(learner, f"{own_site.url}d8/")
    learner.see("heading", TITLE)
    first = learner.run(CACHES_WHEN_CONTROLLED)
    assert len(first) == 1
    second = own_site.rebuild("d8/index.html", f"<h1>{TITLE}<", f"<h1>{REVISED}<")
    assert [second] != first
    assert learner.run(CACHES_AFTER_UPDATE) == [second]

    own_site.go_away()
    learner.reload()
    learner.python_ready()
    learner.see("heading", REVISED)
    lock_prediction(learner, D8)
    see_heads_computed(learner, D8)
    assert learner.errors() == []

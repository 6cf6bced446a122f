"""Every registered lesson, by its plan, in Chromium: the journey from a wrong prediction to a
met gate and back after a reload, the track's statuses, and the lesson offline. Each lesson's
notebook: test_notebook.py."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Locator, Page, expect

from attention_lessons.engine import Lesson
from attention_lessons.lessons import LESSONS
from conftest import python_ready
from learner import (
    GATE_STATUS,
    GRADED,
    PLANS,
    Plan,
    answer_field,
    check_answers,
    gate,
    lock_prediction,
    lock_reading,
    open_page,
    runs,
)
from sites import CACHES_WHEN_CONTROLLED

EVERY_PLAN = pytest.mark.parametrize("plan", PLANS, ids=[plan.slug for plan in PLANS])


def lesson_row(page: Page, lesson: Lesson) -> Locator:
    """A lesson's entry on the track, by its link."""
    link = page.get_by_role("link", name=f"{lesson.code} · {lesson.title}", exact=True)
    return page.get_by_role("listitem").filter(has=link)


def see_heads_computed(page: Page, plan: Plan) -> None:
    for head, summary in plan.heads.items():
        panel = page.get_by_role("article", name=head)
        expect(panel.get_by_text("computed in this browser", exact=True)).to_be_visible()
        expect(panel).to_contain_text(summary)


@pytest.mark.quick  # `build.py test --quick`'s journey of each lesson
@EVERY_PLAN
def test_each_lesson_from_a_wrong_prediction_to_a_met_gate_and_back_after_reload(
    page: Page, site_url: str, console_errors: list[str], plan: Plan
) -> None:
    lesson = LESSONS[plan.slug]
    open_page(page, f"{site_url}{plan.slug}/")
    expect(page.get_by_role("heading", name=lesson.title, level=1)).to_be_visible()
    if lesson.prerequisite is not None:
        before = LESSONS[lesson.prerequisite]
        notice = f"This {lesson.kind} builds on {before.code} {before.title}, which is not done"
        expect(page.get_by_text(re.compile(f"^{re.escape(notice)}"))).to_be_visible()
    lock_prediction(page, plan.wrong_prediction)
    see_heads_computed(page, plan)

    check_answers(page, plan.wrong_answers)
    for label, says in plan.slips.items():
        expect(answer_field(page, label)).to_have_accessible_description(
            re.compile(re.escape(says)))
        expect(answer_field(page, label)).to_have_attribute("aria-invalid", "true")
    check_answers(page, plan.one_wrong)
    expect(runs(page)).to_have_text("You have run it 2 times.")
    check_answers(page, plan.right_answers)
    expect(runs(page)).to_have_text("You have run it 3 times.")
    expect(gate(page)).to_contain_text(GRADED)
    page.get_by_role("button", name="Show the question").click()
    expect(page.get_by_text(plan.hint)).to_be_visible()

    lock_reading(page, plan.wrong_reading)
    try_it = page.get_by_role("region", name="03 · Try it")
    expect(try_it.get_by_text(plan.wrong_reading_says)).to_be_visible()
    expect(gate(page)).to_contain_text("Not met yet.")
    lock_reading(page, plan.right_reading)
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")
    expect(gate(page)).to_contain_text(GATE_STATUS)
    expect(page.get_by_role("region", name="04 · Compare")).to_contain_text(plan.compare)

    page.reload()
    python_ready(page)
    expect(page.get_by_label(plan.wrong_prediction)).to_be_checked()
    expect(page.get_by_label(plan.wrong_prediction)).to_be_disabled()
    expect(page.get_by_role("radio", name=plan.right_reading)).to_be_checked()
    for label, typed in plan.right_answers.items():
        expect(answer_field(page, label)).to_have_value(typed)
    expect(runs(page)).to_have_text("You have run it 3 times.")
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")
    expect(gate(page)).to_contain_text(GATE_STATUS)
    page.get_by_role("link", name="All lessons").click()
    python_ready(page)
    expect(lesson_row(page, lesson)).to_contain_text("Status: done")
    assert console_errors == []


def test_the_track_lists_every_lesson_with_what_it_builds_on(
    page: Page, site_url: str, console_errors: list[str]
) -> None:
    open_page(page, site_url)
    expect(page.get_by_role("listitem")).to_have_count(len(LESSONS))
    for lesson in LESSONS.values():
        row = lesson_row(page, lesson)
        expect(row).to_contain_text("Status: not started")
        kind = f"optional {lesson.kind}" if lesson.optional else lesson.kind
        expect(row).to_contain_text(re.compile(rf"(^|\s){re.escape(kind)}, about"))
        if lesson.prerequisite is not None:
            expect(row).to_contain_text(f"opens once {LESSONS[lesson.prerequisite].code} is done")
    first = next(iter(LESSONS.values()))
    lesson_row(page, first).get_by_role("link").click()
    python_ready(page)
    lock_prediction(page, next(plan for plan in PLANS if plan.slug == first.slug).right_prediction)
    page.get_by_role("link", name="All lessons").click()
    python_ready(page)
    expect(lesson_row(page, first)).to_contain_text("Status: in progress")
    assert console_errors == []


def test_each_lesson_opens_and_computes_offline_after_one_visit_to_the_track(
    page: Page, context: BrowserContext, site_url: str, console_errors: list[str],
    subtests: pytest.Subtests,
) -> None:
    """One visit to the track, then every lesson in turn with the browser offline: a subtest
    each, so a lesson that fails names itself and the others still run."""
    open_page(page, site_url)
    assert len(page.evaluate(CACHES_WHEN_CONTROLLED)) == 1
    context.set_offline(True)
    try:
        for plan in PLANS:
            with subtests.test(plan.slug):
                # Never opened online, so only the worker's precache can have it.
                page.goto(f"{site_url}{plan.slug}/")
                python_ready(page)
                lock_prediction(page, plan.right_prediction)
                see_heads_computed(page, plan)
                check_answers(page, plan.right_answers)
                expect(runs(page)).to_have_text("You have run it 1 time.")
    finally:
        context.set_offline(False)
    assert console_errors == []

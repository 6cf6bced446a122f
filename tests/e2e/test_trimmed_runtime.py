"""Every lesson page, and every event on it, works on the trimmed, precompiled runtime.

The build keeps only the standard-library modules it finds the pages importing; a module
that a handler needs but the build missed fails only when that handler runs. So each
lesson's every event is driven here, and any Python error (logged by PyScript to the
console) or missing outcome fails the test.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from functools import partial

import pytest
from playwright.sync_api import Page, expect

from attention_lessons.lessons import LESSONS
from course_build.paths import DIST
from learner import (
    PLANS,
    WHY_LABEL,
    Plan,
    check_answers,
    echo,
    gate,
    lock_prediction,
    lock_reading,
    open_page,
    reset_progress,
    row_cells,
    runs,
    save_takeaway,
    set_projection,
)

VECTORS = "The concatenated head outputs before and after the output projection"
UNREADABLE = (("abc", "is not a number"), ("1/0", "Division by zero"))


def every_shared_event(page: Page, url: str, plan: Plan) -> None:
    """Prediction, unreadable and odd input, both hints, a wrong then the right reading, the gate:
    what every lesson page has."""
    open_page(page, url)
    page.get_by_label(WHY_LABEL).fill("A reason.")
    lock_prediction(page, plan.right_prediction)
    field = next(iter(plan.right_answers))
    for text, message in UNREADABLE:
        check_answers(page, {field: text})
        expect(page.get_by_label(field, exact=True)).to_have_accessible_description(
            re.compile(re.escape(message)))
    for count, (label, text, read) in enumerate(plan.typed, start=1):
        check_answers(page, {label: text})
        expect(echo(page, label)).to_have_text(re.compile(rf"^{re.escape(read)}"))
        expect(runs(page)).to_have_text(f"You have run it {count} time{'s' * (count > 1)}.")
    for button in ("Show the question", "Show the answer"):
        page.get_by_role("button", name=button).click()
        expect(page.get_by_role("button", name=button)).to_be_disabled()
    hints = page.get_by_role("region", name="Ask for a hint")
    expect(hints.get_by_text(re.compile(rf"^{re.escape(field)}: "))).to_be_visible()

    try_it = page.get_by_role("region", name="03 · Try it")
    lock_reading(page, plan.wrong_reading)
    expect(try_it.get_by_text(plan.wrong_reading_says)).to_be_visible()
    check_answers(page, plan.right_answers)
    lock_reading(page, plan.right_reading)
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")


def takeaway_and_reset(page: Page) -> None:
    """Save a takeaway, then forget everything."""
    save_takeaway(page, "Each head has its own softmax.")
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_accessible_description(
        re.compile("Saved in this browser.$"))
    reset_progress(page)
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_hidden()
    expect(page.get_by_role("button", name="Lock in my prediction")).to_be_enabled()


def every_projection_event(page: Page, plan: Plan) -> None:
    """The output projection's slider, fields and reset, on a lesson that has one."""
    projected = plan.projection
    assert projected is not None, f"{plan.slug} has a projection, so its plan must say its numbers"
    expect(row_cells(page, VECTORS, "heads, concatenated")).to_have_text(projected.concatenated)
    slider = page.get_by_label("Output row 1, head A, slider", exact=True)
    slider.fill("2")
    expect(page.get_by_label("Output row 1, head A", exact=True)).to_have_value("2")
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text(projected.doubled)
    set_projection(page, (("0", "1"), ("1", "0")))
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text(projected.swapped)
    page.get_by_role("button", name="Reset to identity").click()
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text(
        projected.concatenated)


def every_lesson_event(page: Page, url: str, plan: Plan) -> None:
    """The shared events, the projection's if the lesson has one, then the takeaway and reset."""
    every_shared_event(page, url, plan)
    if LESSONS[plan.slug].projection is not None:
        every_projection_event(page, plan)
    else:
        assert plan.projection is None, f"{plan.slug} has no projection for its plan's numbers"
    takeaway_and_reset(page)


def the_track(page: Page, url: str) -> None:
    """The track reads every lesson's progress and shows its status."""
    open_page(page, url)
    expect(page.get_by_text("Status: not started")).to_have_count(len(LESSONS))


# Each page that loads Python (its folder under the site) and what a learner does there: the
# track, and every registered lesson by its plan.
PAGES: dict[str, Callable[[Page, str], None]] = {
    "./": the_track,
    **{f"{plan.slug}/": partial(every_lesson_event, plan=plan) for plan in PLANS},
}


@pytest.mark.parametrize("page_path", list(PAGES))
def test_every_event_works_on_the_trimmed_runtime(
    page: Page, site_url: str, page_path: str, request_log: list[str], console_errors: list[str]
) -> None:
    PAGES[page_path](page, site_url + page_path.removeprefix("./"))
    # The page really ran on the trimmed library, never on the full one beside it.
    assert f"{site_url}runtime/python_stdlib.zip" in request_log
    assert f"{site_url}pyodide/python_stdlib.zip" not in request_log
    # Every preload matched the request that used it: nothing was fetched twice.
    assert [url for url, count in Counter(request_log).items() if count > 1] == []
    assert console_errors == []


def test_every_lesson_page_is_covered(site_url: str) -> None:
    """Every page that loads Python is the track or a registered lesson's."""
    pages = {
        page.parent.relative_to(DIST).as_posix() + "/"
        for page in DIST.rglob("index.html")
        if "pyscript/core.js" in page.read_text(encoding="utf-8")
    }
    assert pages == set(PAGES)

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

import pytest
from learner import (
    D8,
    L82,
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
from playwright.sync_api import Page, expect

from course_build.paths import DIST

VECTORS = "The concatenated head outputs before and after the output projection"
# Good, bad and odd input: a fraction, a decimal comma, an exponent, the Unicode minus,
# text, a division by zero; one new value per Check, so each Check is an evaluated run.
TYPED = (
    ("Head B, the output", "7/8", "read as 0.875"),
    ("Head A, the weight on key 1", "0,4643", "read as 0.4643"),
    ("Head B, the weight on key 1", "4.754e-1", "read as 0.4754"),
    ("Head B, the score for key 2", "−1", "read as -1"),
    ("Head A, the score for key 1", "2", "read as 2"),
)
UNREADABLE = (("abc", "is not a number"), ("1/0", "Division by zero"))


# Good, bad and odd input on 8.2, one new value per Check, as for D8 above.
TYPED_8_2 = (
    ("The output, second entry", "0,7643", "read as 0.7643"),
    ("The weight on key 1", "609/1000", "read as 0.609"),
    ("The weight on key 3", "3.003e-1", "read as 0.3003"),
    ("The scaled score for key 1", "1.4142", "read as 1.4142"),
    ("The score for key 3", "+1", "read as 1"),
)


def every_shared_event(page: Page, url: str, plan: Plan,
                       typed: tuple[tuple[str, str, str], ...]) -> None:
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
    for count, (label, text, read) in enumerate(typed, start=1):
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


def every_d8_event(page: Page, url: str) -> None:
    """The shared events, then the output projection's slider, fields and reset."""
    every_shared_event(page, url, D8, TYPED)
    expect(row_cells(page, VECTORS, "heads, concatenated")).to_have_text(["1.3760", "0.8744"])
    slider = page.get_by_label("Output row 1, head A, slider", exact=True)
    slider.fill("2")
    expect(page.get_by_label("Output row 1, head A", exact=True)).to_have_value("2")
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text(["2.7519", "0.8744"])
    set_projection(page, (("0", "1"), ("1", "0")))
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text(["0.8744", "1.3760"])
    page.get_by_role("button", name="Reset to identity").click()
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text(["1.3760", "0.8744"])
    takeaway_and_reset(page)


def every_8_2_event(page: Page, url: str) -> None:
    """The shared events on 8.2, which has no projection."""
    every_shared_event(page, url, L82, TYPED_8_2)
    takeaway_and_reset(page)


def the_track(page: Page, url: str) -> None:
    """The track reads every lesson's progress and shows its status."""
    open_page(page, url)
    expect(page.get_by_text("Status: not started")).to_have_count(2)


# Each page that loads Python (its folder under the site) and what a learner does there: add
# one line per page, and the test covers it on the trimmed runtime too.
LESSONS: dict[str, Callable[[Page, str], None]] = {
    "./": the_track, "8-2/": every_8_2_event, "d8/": every_d8_event}


@pytest.mark.parametrize("lesson", sorted(LESSONS))
def test_every_event_works_on_the_trimmed_runtime(
    page: Page, site_url: str, lesson: str, request_log: list[str], console_errors: list[str]
) -> None:
    LESSONS[lesson](page, site_url + lesson.removeprefix("./"))
    # The page really ran on the trimmed library, never on the full one beside it.
    assert f"{site_url}runtime/python_stdlib.zip" in request_log
    assert f"{site_url}pyodide/python_stdlib.zip" not in request_log
    # Every preload matched the request that used it: nothing was fetched twice.
    assert [url for url, count in Counter(request_log).items() if count > 1] == []
    assert console_errors == []


def test_every_lesson_page_is_covered(site_url: str) -> None:
    """A new lesson page that loads Python must get a line in LESSONS."""
    pages = {
        page.parent.relative_to(DIST).as_posix() + "/"
        for page in DIST.rglob("index.html")
        if "pyscript/core.js" in page.read_text(encoding="utf-8")
    }
    assert pages == set(LESSONS)

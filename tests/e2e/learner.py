"""What a learner does on a lesson, as reusable steps: by role and label, with expect, no sleeps."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from playwright.sync_api import Download, Locator, Page, expect

import plans
from conftest import python_ready
from plans import attention_by_hand, two_heads

# Each lesson's plan lives in plans/; these names stay here for the tests that are D8's or 8.2's.
Plan = plans.Plan
PLANS = plans.PLANS
L82 = attention_by_hand.PLAN
D8 = two_heads.PLAN
MIXED_ANSWERS = two_heads.MIXED_ANSWERS
RIGHT_PREDICTION = two_heads.RIGHT_PREDICTION
RIGHT_READING = two_heads.RIGHT_READING
SINGLE_HEAD_OUTPUT = two_heads.SINGLE_HEAD_OUTPUT

WHY_LABEL = "One line on why, if you want one"
WHY = "Each head has a softmax of its own."  # a why line typed before Python is ready
EARLY_LOCK = "Your prediction is locked in. The numbers appear once Python is ready."
# The gate's status line once all six numbers are right: before a reading, and with the right one.
GRADED = "6 of 6 numbers within tolerance, 5 needed. No reading locked in yet."
GATE_STATUS = "6 of 6 numbers within tolerance, 5 needed. The right reading is locked in."

ANSWER_LABELS = tuple(MIXED_ANSWERS)
# The four entries of the output projection, row by row, as their number fields are labelled.
PROJECTION_LABELS = (
    ("Output row 1, head A", "Output row 1, head B"),
    ("Output row 2, head A", "Output row 2, head B"),
)


def open_page(page: Page, url: str) -> None:
    """Open a page and wait until Python says it is ready."""
    page.goto(url)
    python_ready(page)


def open_d8(page: Page, d8_url: str) -> None:
    """Open D8 and wait until Python says it is ready."""
    open_page(page, d8_url)


def reload_d8(page: Page) -> None:
    """Reload the page and wait until Python says it is ready again."""
    page.reload()
    python_ready(page)


def lock_prediction(page: Page, label: str = RIGHT_PREDICTION) -> None:
    """Choose a prediction and lock it in; Try it appears."""
    page.get_by_label(label).check()
    page.get_by_role("button", name="Lock in my prediction").click()
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_visible()


def check_answers(page: Page, answers: Mapping[str, str]) -> None:
    """Type the given answers into their fields and press Check."""
    for label, typed in answers.items():
        page.get_by_label(label, exact=True).fill(typed)
    press_check(page)


def lock_reading(page: Page, label: str = RIGHT_READING) -> None:
    """Choose a reading and lock it in."""
    page.get_by_role("radio", name=label).check()
    page.get_by_role("button", name="Lock in this reading").click()


def answer_field(page: Page, label: str) -> Locator:
    """One of the six answer fields, by its exact label."""
    return page.get_by_label(label, exact=True)


def beside(page: Page, label: str) -> Locator:
    """What sits beside a labelled field: its echo, feedback and attempts."""
    return page.get_by_label(label, exact=True).locator("xpath=..")


def echo(page: Page, label: str) -> Locator:
    """How the page read the number typed into a field: "read as …" beside it."""
    return beside(page, label).get_by_text(re.compile(r"^read as "))


def press_check(page: Page) -> None:
    """Press Check without changing any field."""
    page.get_by_role("button", name="Check", exact=True).click()


def runs(page: Page) -> Locator:
    """The run counter, "You have run it N times."."""
    return page.get_by_text(re.compile(r"^You have run it \d+ times?\.$"))


def row_cells(page: Page, table: str, row: str) -> Locator:
    """The data cells of the row headed `row` in the table captioned `table`."""
    found = page.get_by_role("table", name=table).get_by_role("row").filter(
        has=page.get_by_role("rowheader", name=row, exact=True))
    return found.get_by_role("cell")


def set_projection(page: Page, matrix: Sequence[Sequence[str]]) -> None:
    """Type a 2×2 output projection into its four number fields, row by row."""
    for labels, entries in zip(PROJECTION_LABELS, matrix, strict=True):
        for label, typed in zip(labels, entries, strict=True):
            page.get_by_label(label, exact=True).fill(typed)


def save_takeaway(page: Page, text: str) -> None:
    """Write the takeaway and save it."""
    page.get_by_label("Your takeaway", exact=True).fill(text)
    page.get_by_role("button", name="Save takeaway").click()


def download_progress(page: Page) -> Download:
    """Open "Download or import my progress" and download the progress file."""
    page.get_by_text("Download or import my progress", exact=True).click()
    with page.expect_download() as info:
        page.get_by_role("button", name="Download my progress").click()
    return info.value


def reset_progress(page: Page) -> None:
    """Open "Reset my progress" and confirm it."""
    page.get_by_text("Reset my progress", exact=True).click()
    page.get_by_role("button", name="Yes, forget my progress").click()


# Run through the DevTools protocol, so the page's CSP (no 'unsafe-eval') does not refuse it.
FOCUS_RING = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const what = `<${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}>`;
  if (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) {
    return [what, `outline ${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`];
  }
  return [what, style.boxShadow === "none" ? "" : `box-shadow ${style.boxShadow}`];
}"""


def assert_focus_visible(page: Page) -> None:
    """Fail unless the focused element draws a focus indicator (an outline or a box shadow)."""
    what, ring = page.evaluate(FOCUS_RING)
    assert ring, f"{what} has keyboard focus but shows no focus indicator"


def press_to(page: Page, key: str, target: Locator) -> None:
    """Press a key and expect keyboard focus to land, visibly, on target."""
    page.keyboard.press(key)
    expect(target).to_be_focused()
    assert_focus_visible(page)


def tab_to(page: Page, target: Locator, limit: int = 40) -> None:
    """Press Tab until target has focus; every control passed on the way must show its focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        assert_focus_visible(page)
        if target.evaluate("element => element === document.activeElement"):
            return
    raise AssertionError(f"{limit} presses of Tab never reached {target}")


def announcer(page: Page) -> Locator:
    """The polite live region through which the page speaks to a screen reader."""
    return page.locator("#announcer[aria-live='polite']")


def gate(page: Page) -> Locator:
    """Section 05's panel, "Your check: an outcome you produce", with its badge and status."""
    return page.get_by_role("region", name=re.compile(r"^Your check: an outcome you produce"))

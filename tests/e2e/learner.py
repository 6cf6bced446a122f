"""What a learner does on D8, as reusable steps: by role and label, with expect, never sleeps."""

from __future__ import annotations

import re
from collections.abc import Mapping

from conftest import python_ready
from playwright.sync_api import Locator, Page, expect

RIGHT_PREDICTION = "Clearly different, by more than 0.1."
RIGHT_READING = "Each head normalises over its own scores"
# Six right answers in the mixed forms a learner might type them.
MIXED_ANSWERS = {
    "Head A, the score for key 1": "2",
    "Head A, the weight on key 1": " 0,4643 ",
    "Head A, the output": "1.376",
    "Head B, the score for key 2": "−1",
    "Head B, the weight on key 1": ".4754",
    "Head B, the output": "7/8",
}


def open_d8(page: Page, d8_url: str) -> None:
    """Open D8 and wait until Python says it is ready."""
    page.goto(d8_url)
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
    page.get_by_role("button", name="Check", exact=True).click()


def lock_reading(page: Page, label: str = RIGHT_READING) -> None:
    """Choose a reading and lock it in."""
    page.get_by_role("radio", name=label).check()
    page.get_by_role("button", name="Lock in this reading").click()


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

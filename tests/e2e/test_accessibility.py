"""axe finds no WCAG 2.2 AA violation on each lesson before Python, when ready, wrong and met."""

from __future__ import annotations

import re
from typing import Any, Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from conftest import python_ready
from learner import (
    PLANS,
    Plan,
    check_answers,
    gate,
    lock_prediction,
    lock_reading,
)
from playwright.sync_api import Page, Route, expect

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# axe arrives through page.evaluate, which goes over the DevTools protocol: the page's CSP
# does not govern it, so no bypass_csp context is needed (console_errors, which reports CSP
# violations, stays empty to prove it).
AXE = Axe()


def describe(state: str, violations: list[dict[str, Any]]) -> str:
    """A readable list of axe violations: rule, impact, what it asks, and each node it failed."""
    lines = [f"{len(violations)} axe violation(s) {state}:"]
    for violation in violations:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"    {', '.join(map(str, node['target']))}: {summary}")
    return "\n".join(lines)


def assert_accessible(page: Page, state: str) -> None:
    """Run axe for the WCAG 2.2 A and AA tags; and the page must not scroll sideways."""
    options = {"runOnly": {"type": "tag", "values": TAGS}, "resultTypes": ["violations"]}
    violations = AXE.run(page, options=options).response["violations"]
    if violations:
        pytest.fail(describe(state, violations))
    width, scrolled = page.evaluate(
        "() => [window.innerWidth, document.documentElement.scrollWidth]")
    assert scrolled <= width, f"{state}: the page is {scrolled} px wide in a {width} px window"


def assert_radios_unsqueezed(page: Page) -> None:
    """Every radio keeps the size of the first, however long its label and narrow the window."""
    sizes = [radio.bounding_box() for radio in page.get_by_role("radio").all()]
    widths = [round(box["width"], 1) if box else 0.0 for box in sizes]
    assert len(set(widths)) == 1, f"radios of different widths: {widths}"


@pytest.mark.parametrize("plan", PLANS, ids=[plan.slug for plan in PLANS])
@pytest.mark.parametrize("screen", [(1280, "light"), (375, "light"), (375, "dark")], ids=str)
def test_axe_finds_nothing_from_start_to_met(
    page: Page,
    site_url: str,
    console_errors: list[str],
    screen: tuple[int, Literal["light", "dark"]],
    plan: Plan,
) -> None:
    width, scheme = screen
    page.set_viewport_size({"width": width, "height": 900})
    page.emulate_media(color_scheme=scheme)
    held: list[Route] = []

    def hold(route: Route) -> None:  # Python cannot start until the test lets the runtime go
        held.append(route)

    page.route("**/pyodide.asm.wasm", hold)
    with page.expect_request(lambda request: request.url.endswith("/pyodide.asm.wasm")):
        page.goto(f"{site_url}{plan.slug}/")
    # The prediction step works before Python is ready (prelock.js), so the lock is enabled.
    expect(page.get_by_role("button", name="Lock in my prediction")).to_be_enabled()
    assert_accessible(page, "before Python is ready")
    assert held, "the runtime request was not held"
    for route in held:
        route.continue_()
    python_ready(page)
    assert_accessible(page, "once Python is ready")

    lock_prediction(page, plan.wrong_prediction)
    check_answers(page, plan.wrong_answers)
    check_answers(page, plan.one_wrong)
    lock_reading(page, plan.wrong_reading)
    expect(gate(page)).to_contain_text("The reading locked in is not the right one yet.")
    assert_accessible(page, "with wrong answers and a wrong reading showing")

    check_answers(page, plan.right_answers)  # the third run opens the first hint
    lock_reading(page, plan.right_reading)
    page.get_by_role("button", name="Show the question").click()
    for disclosure in page.get_by_text("Show this head's numbers").all():
        disclosure.click()
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")
    assert_accessible(page, "with the gate met, a hint and both heads' numbers open")
    assert_radios_unsqueezed(page)
    page.set_viewport_size({"width": 320, "height": 900})  # WCAG's reflow width
    assert_accessible(page, "with the gate met, at 320 px wide")
    assert_radios_unsqueezed(page)
    assert console_errors == []


@pytest.mark.parametrize("width", [1280, 320], ids=str)
def test_axe_finds_nothing_on_the_track_page(page: Page, site_url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(site_url)
    expect(page.get_by_role("heading", name="The track")).to_be_visible()
    assert_accessible(page, "on the track page")


@pytest.mark.parametrize("plan", PLANS, ids=[plan.slug for plan in PLANS])
@pytest.mark.parametrize("screen", [(1280, "light"), (375, "dark"), (320, "light")], ids=str)
def test_axe_finds_nothing_while_exploring(
    page: Page,
    site_url: str,
    console_errors: list[str],
    screen: tuple[int, Literal["light", "dark"]],
    plan: Plan,
) -> None:
    width, scheme = screen
    page.set_viewport_size({"width": width, "height": 900})
    page.emulate_media(color_scheme=scheme)
    page.goto(f"{site_url}{plan.slug}/")
    python_ready(page)
    lock_prediction(page, plan.wrong_prediction)
    query = page.get_by_role("slider", name="Move the query", exact=True)
    query.focus()
    page.keyboard.press("Shift+ArrowLeft")  # focused: its value shows beside the handle
    expect(query).to_have_attribute("aria-valuetext", re.compile(r"^query at 1\.5, "))
    page.get_by_label("Key 2, coordinate 1", exact=True).fill("abc")  # a message beside it
    page.get_by_label("Show full precision").check()
    for disclosure in page.get_by_text("Show this head's explored numbers").all():
        disclosure.click()
    expect(page.get_by_text(re.compile(r"^At full precision"))).to_be_visible()
    assert_accessible(page, "while exploring, a point moved and focused, a bad coordinate typed")
    page.get_by_role("button", name="Back to the fixture").click()
    assert_accessible(page, "back at the fixture")
    assert console_errors == []

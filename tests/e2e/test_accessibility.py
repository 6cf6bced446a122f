"""axe finds no WCAG 2.2 AA violation on each lesson before Python, when ready, wrong and met,
and then while exploring; and none on the track page."""

from __future__ import annotations

import re
from typing import Any, Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, Route, expect

from attention_lessons import LESSONS
from attention_lessons.engine import Fixture
from conftest import python_ready
from explore_page import first_and_third
from learner import (
    PLANS,
    Plan,
    check_answers,
    gate,
    lock_prediction,
    lock_reading,
)
from oracles import own_fixture

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# axe arrives through page.evaluate, which goes over the DevTools protocol: the page's CSP
# does not govern it, so no bypass_csp context is needed (console_errors, which reports CSP
# violations, stays empty to prove it).
AXE = Axe()
HAS_AXE = "() => typeof window.axe?.run === 'function'"
RUN_AXE = "(options) => axe.run(document, options).then((results) => results.violations)"


def axe_violations(page: Page, options: dict[str, Any]) -> list[dict[str, Any]]:
    """What axe finds on the page as it is now, with `options`. axe's 570 KB source is put into
    each document once: `Axe.run` puts it in again at every scan, which cost 0.1-0.3 s and as
    many core-seconds a scan here, and a lesson's test scans 20 times."""
    if not page.evaluate(HAS_AXE):
        page.evaluate(AXE.axe_script)
    violations: list[dict[str, Any]] = page.evaluate(RUN_AXE, options)
    return violations


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
    violations = axe_violations(page, options)
    if violations:
        pytest.fail(describe(state, violations))
    width, scrolled = page.evaluate(
        "() => [window.innerWidth, document.documentElement.scrollWidth]")
    assert scrolled <= width, f"{state}: the page is {scrolled} px wide in a {width} px window"


Screen = tuple[int, Literal["light", "dark"]]
# Each state of a lesson is checked on each screen in turn, in one visit: a visit per screen
# would start Python and walk the lesson again for the same states.
JOURNEY_SCREENS: tuple[Screen, ...] = ((1280, "light"), (375, "light"), (375, "dark"))
EXPLORE_SCREENS: tuple[Screen, ...] = ((1280, "light"), (390, "dark"), (320, "light"))


def show_on(page: Page, screen: Screen) -> None:
    width, scheme = screen
    page.set_viewport_size({"width": width, "height": 900})
    page.emulate_media(color_scheme=scheme)


def assert_accessible_on(page: Page, screens: tuple[Screen, ...], state: str) -> None:
    """`assert_accessible` on each screen, a width and a colour scheme, in turn."""
    for screen in screens:
        show_on(page, screen)
        width, scheme = screen
        assert_accessible(page, f"{state}, {width} px wide, {scheme}")


def assert_radios_unsqueezed(page: Page) -> None:
    """Every radio keeps the size of the first, however long its label and narrow the window."""
    sizes = [radio.bounding_box() for radio in page.get_by_role("radio").all()]
    widths = [round(box["width"], 1) if box else 0.0 for box in sizes]
    assert len(set(widths)) == 1, f"radios of different widths: {widths}"


@pytest.mark.parametrize("plan", PLANS, ids=[plan.slug for plan in PLANS])
def test_axe_finds_nothing_from_start_to_met_and_while_exploring(
    page: Page, site_url: str, console_errors: list[str], plan: Plan
) -> None:
    held: list[Route] = []

    def hold(route: Route) -> None:  # Python cannot start until the test lets the runtime go
        held.append(route)

    show_on(page, JOURNEY_SCREENS[0])
    page.route("**/pyodide.asm.wasm", hold)
    with page.expect_request(lambda request: request.url.endswith("/pyodide.asm.wasm")):
        page.goto(f"{site_url}{plan.slug}/")
    # The prediction step works before Python is ready (prelock.js), so the lock is enabled.
    expect(page.get_by_role("button", name="Lock in my prediction")).to_be_enabled()
    assert_accessible_on(page, JOURNEY_SCREENS, "before Python is ready")
    assert held, "the runtime request was not held"
    for route in held:
        route.continue_()
    python_ready(page)
    assert_accessible_on(page, JOURNEY_SCREENS, "once Python is ready")

    lock_prediction(page, plan.wrong_prediction)
    check_answers(page, plan.wrong_answers)
    check_answers(page, plan.one_wrong)
    lock_reading(page, plan.wrong_reading)
    expect(gate(page)).to_contain_text("The reading locked in is not the right one yet.")
    assert_accessible_on(page, JOURNEY_SCREENS, "with wrong answers and a wrong reading showing")

    check_answers(page, plan.right_answers)  # the third run opens the first hint
    lock_reading(page, plan.right_reading)
    page.get_by_role("button", name="Show the question").click()
    for disclosure in page.get_by_text("Show this head's numbers").all():
        disclosure.click()
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")
    # 320 px is WCAG's reflow width.
    for screen in (*JOURNEY_SCREENS, (320, "light"), (320, "dark")):
        assert_accessible_on(page, (screen,),
                             "with the gate met, a hint and both heads' numbers open")
        assert_radios_unsqueezed(page)

    explore(page, own_fixture(LESSONS[plan.slug]))
    assert console_errors == []


def explore(page: Page, fixture: Fixture) -> None:
    """Explore's states, in the same visit: a point moved and focused, a bad coordinate typed,
    full precision and the explored numbers shown; then back at the fixture."""
    first, third = first_and_third(fixture)  # the plain head's query and key 2
    moving = page.get_by_role("slider", name=f"Move the {first}", exact=True)
    moving.focus()
    page.keyboard.press("Shift+ArrowLeft")  # focused: its value shows beside the handle
    expect(moving).to_have_attribute("aria-valuetext", re.compile(rf"^{first} at "))
    page.get_by_label(f"{third.capitalize()}, coordinate 1", exact=True).fill("abc")  # a message
    page.get_by_label("Show full precision").check()
    for disclosure in page.get_by_text("Show this head's explored numbers").all():
        disclosure.click()
    expect(page.get_by_text(re.compile(r"^At full precision"))).to_be_visible()
    assert_accessible_on(page, EXPLORE_SCREENS,
                         "while exploring, a point moved and focused, a bad coordinate typed")
    page.get_by_role("button", name="Back to the fixture").click()
    assert_accessible_on(page, EXPLORE_SCREENS, "back at the fixture")


def test_axe_finds_nothing_on_the_track_page(page: Page, site_url: str) -> None:
    page.goto(site_url)
    expect(page.get_by_role("heading", name="The track")).to_be_visible()
    for width in (1280, 320):
        page.set_viewport_size({"width": width, "height": 900})
        assert_accessible(page, f"on the track page, {width} px wide")

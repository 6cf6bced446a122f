"""D8's Explore, as a learner works it: keys, a drag and a touch move the points, its presets and
experiments do what they say, and every explored number of both heads, the single head and their
differences is what numpy computes from the coordinates the page reports."""

from __future__ import annotations

import re

import numpy as np
import pytest
from playwright.sync_api import FloatRect, Page, expect

from attention_lessons import LESSONS
from explore_page import (
    HALF_LAST_DIGIT,
    MINUS,
    SEARCH_MS,
    assert_head,
    drag_to,
    field,
    fixture_unchanged,
    head_oracle,
    inside,
    open_explore,
    printed_row,
    reported,
    slider,
)
from oracles import own_fixture

LESSON = LESSONS["d8"]
FIXTURE = own_fixture(LESSON)
VALUES = np.array(FIXTURE.values, dtype=float)


def assert_d8_readout(page: Page) -> None:
    """D8's explored heads, single head and differences against numpy, from the page's points."""
    q, k = reported(page, FIXTURE)
    a = head_oracle(q[:1], k[:, :1], VALUES[:, :1])
    b = head_oracle(q[1:], k[:, 1:], VALUES[:, 1:])
    single = head_oracle(q, k, VALUES)
    assert_head(page, "head A", a, 1)
    assert_head(page, "head B", b, 1)
    table = page.get_by_role("table", name=re.compile(r"^On the explored vectors: two heads"))
    both = np.concatenate([a["output"], b["output"]])
    for row, oracle in (("two heads, concatenated", both),
                        ("one head of dimension two, from 8.2", single["output"]),
                        ("difference", both - single["output"])):
        cells = table.get_by_role("row").filter(
            has=page.get_by_role("rowheader", name=row, exact=True)).get_by_role("cell")
        np.testing.assert_allclose([float(c) for c in cells.all_inner_texts()], oracle,
                                   atol=HALF_LAST_DIGIT)


def scaled_head_output(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> np.ndarray:
    """A head at the single head's scale, 1/sqrt(2), whatever its own dimension."""
    weights = np.exp(k @ q / np.sqrt(2))
    return np.asarray(weights / weights.sum() @ v)


def the_keyboard_moves_the_query_and_a_key_and_every_head_follows(page: Page) -> None:
    query = slider(page, "query")
    expect(query).to_have_attribute("aria-valuetext", f"query at 2.0, {MINUS}1.0")
    # One tab stop a point: the second range of each pair is out of the tab order.
    expect(page.get_by_role("slider", name="Move the query up or down")).to_have_attribute(
        "tabindex", "-1")
    query.focus()
    page.keyboard.press("ArrowRight")
    expect(field(page, "query", 1)).to_have_value("2.1")
    page.keyboard.press("Shift+ArrowUp")
    expect(field(page, "query", 2)).to_have_value("-0.5")
    expect(query).to_have_attribute("aria-valuetext", f"query at 2.1, {MINUS}0.5")
    announced = page.locator("#announcer[aria-live='polite']")
    expect(announced).to_have_text(re.compile(rf"^Query at 2\.1, {MINUS}0\.5\. In head A:"))
    assert_d8_readout(page)

    key = slider(page, "key 2")
    key.focus()
    page.keyboard.press("End")
    page.keyboard.press("ArrowDown")
    expect(field(page, "key 2", 1)).to_have_value("3.0")
    expect(field(page, "key 2", 2)).to_have_value("0.9")
    expect(announced).to_have_text(re.compile(r"^Key 2 at 3\.0, 0\.9\."))
    assert_d8_readout(page)
    vectors = page.get_by_text(re.compile(r"^These are explored vectors, not the fixture"))
    expect(vectors).to_have_text(
        re.compile(r"query \[2\.1, -0\.5\], keys \[1\.0, 0\.0\], \[3\.0, 0\.9\]"))
    fixture_unchanged(page, "d8")

    page.get_by_role("button", name="Back to the fixture").click()
    expect(field(page, "key 2", 1)).to_have_value("0.0")
    expect(field(page, "query", 2)).to_have_value("-1.0")
    expect(page.get_by_role("button", name="Back to the fixture")).to_be_disabled()
    assert_d8_readout(page)


def a_mouse_drag_moves_the_query(page: Page) -> None:
    drag_to(page, "query", 0.25, 0.25)
    expect(field(page, "query", 1)).to_have_value("-1.5")
    expect(field(page, "query", 2)).to_have_value("1.5")
    expect(page.locator("#announcer")).to_have_text(re.compile(rf"^Query at {MINUS}1\.5, 1\.5\."))
    assert_d8_readout(page)
    fixture_unchanged(page, "d8")


def d8s_tie_preset_ties_two_keys_in_head_a(page: Page) -> None:
    tie = page.get_by_role("button", name="Two keys tie for head A's largest weight.")
    tie.click()
    expect(tie).to_have_attribute("aria-pressed", "true", timeout=SEARCH_MS)
    expect(page.locator("#announcer")).to_have_text(
        re.compile(r"^Two keys tie for head A's largest weight\. "))
    q, k = reported(page, FIXTURE)
    weights = head_oracle(q[:1], k[:, :1], VALUES[:, :1])["weights"]
    first, second, third = np.sort(weights)[::-1][:3]
    assert first - second < 1e-9 < second - third
    assert_d8_readout(page)
    page.get_by_role("button", name="The two heads come closest to the single head.").click()
    expect(page.locator("#explore_bears_out")).to_have_text(re.compile(
        r"differ by 0\.0000 and 0\.0000\. These numbers bear out: The same two numbers\.$"))
    fixture_unchanged(page, "d8")


def a_touch_drag_moves_the_query(page: Page) -> None:
    plane = page.locator("#explore_plane")
    plane.scroll_into_view_if_needed()
    box = plane.bounding_box()
    handle = page.get_by_role("group", name="query", exact=True).bounding_box()
    assert box is not None
    assert handle is not None
    assert box["x"] >= 0  # the plane fits on screen
    assert box["x"] + box["width"] <= 320
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    start = (handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
    end = (box["x"] + 0.75 * box["width"], box["y"] + 0.75 * box["height"])
    touch = [{"x": start[0], "y": start[1]}]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": touch})
    for i in range(1, 11):
        at = [{"x": start[0] + (end[0] - start[0]) * i / 10,
               "y": start[1] + (end[1] - start[1]) * i / 10}]
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": at})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(field(page, "query", 1)).to_have_value("1.5")
    expect(field(page, "query", 2)).to_have_value("-1.5")
    assert_d8_readout(page)


def a_focused_points_tip_and_every_label_stay_on_the_page(page: Page) -> None:
    query = slider(page, "query")
    query.focus()
    screen: FloatRect = {"x": 0, "y": 0, "width": 320, "height": 10_000}
    for keys, at in ((("End", "PageUp"), "3.0, 3.0"), (("Home",), f"{MINUS}3.0, 3.0"),
                     (("End", "PageDown"), f"3.0, {MINUS}3.0")):
        for key in keys:
            page.keyboard.press(key)
        expect(query).to_have_attribute("aria-valuetext", f"query at {at}")
        tip = page.locator("#explore_query_tip")
        expect(tip).to_have_text(f"query at {at}")
        expect(tip).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 320, at
        assert inside(tip.bounding_box(), screen), (at, tip.bounding_box())
        plane = page.locator("#explore_plane svg").bounding_box()
        for label in page.locator("#explore_plane .point-label").all():
            assert inside(label.bounding_box(), plane), (at, label.inner_html())


def the_experiments_answer_the_wrong_readings(page: Page) -> None:
    page.get_by_label("Give every head the single head's scale, 1/sqrt(2)").check()
    head_a = page.get_by_role("article", name="head A, explored")
    expect(head_a.get_by_text("scale 1 / sqrt(2) = 0.7071")).to_be_visible()
    q, k = reported(page, FIXTURE)
    scaled = {"scores": k[:, 0] * q[0]}
    scaled["scaled"] = scaled["scores"] / np.sqrt(2)
    printed = printed_row(page, "head A", "scaled by 1 over the square root of 2")
    np.testing.assert_allclose(printed, scaled["scaled"], atol=HALF_LAST_DIGIT)
    # Every head at the single head's scale, and still apart from it, by numpy.
    both = np.concatenate([scaled_head_output(q[i:i + 1], k[:, i:i + 1], VALUES[:, i:i + 1])
                           for i in (0, 1)])
    gaps = both - head_oracle(q, k, VALUES)["output"]
    table = page.get_by_role("table", name=re.compile(r"^On the explored vectors: two heads"))
    cells = table.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name="difference", exact=True)).get_by_role("cell")
    shown = [float(c) for c in cells.all_inner_texts()]
    np.testing.assert_allclose(shown, gaps, atol=HALF_LAST_DIGIT)
    assert min(abs(g) for g in shown) > 0.05
    page.get_by_label("Each head's own scale, 1/sqrt(1)").check()
    page.get_by_label("Show full precision").check()
    full = page.get_by_text(re.compile(r"^At full precision, the outputs are: head A"))
    expect(full).to_contain_text("the differences are 0.2019482709800")
    # The fixture's own sections keep each head's scale of 1.
    fixed = page.get_by_role("article", name="head A, coordinate 1", exact=True)
    expect(fixed.get_by_text("scale 1 / sqrt(1) = 1")).to_be_visible()
    fixture_unchanged(page, "d8")


def test_keys_a_drag_and_a_preset_move_points_and_the_experiments_answer_the_wrong_readings(
        page: Page, d8_url: str, console_errors: list[str]) -> None:
    """One start of D8's Explore for four checks in turn, each of which began with the same
    visit; Back to the fixture ends the first, and puts the preset's points back before the
    experiments (it leaves the experiments as they are)."""
    open_explore(page, d8_url, "The same two numbers.")
    the_keyboard_moves_the_query_and_a_key_and_every_head_follows(page)
    a_mouse_drag_moves_the_query(page)
    d8s_tie_preset_ties_two_keys_in_head_a(page)
    page.get_by_role("button", name="Back to the fixture").click()
    the_experiments_answer_the_wrong_readings(page)
    assert console_errors == []


def test_at_320_px_a_touch_drag_moves_the_query_and_a_focused_points_tip_stays_on_the_page(
        page: Page, d8_url: str, console_errors: list[str]) -> None:
    """One start at WCAG's reflow width for both: the keys then move the query to each edge."""
    page.set_viewport_size({"width": 320, "height": 800})
    open_explore(page, d8_url, "The same two numbers.")
    a_touch_drag_moves_the_query(page)
    a_focused_points_tip_and_every_label_stay_on_the_page(page)
    assert console_errors == []


WATCH_PRESETS = """() => {
  window.interactions = {};  // interactionId: the longest event in it, in ms
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.interactionId) {
        window.interactions[e.interactionId] = Math.max(window.interactions[e.interactionId] || 0,
                                                        e.duration);
      }
    }
  }).observe({type: "event", durationThreshold: 16});
  window.statuses = [];  // every text the preset's status took
  const status = document.getElementById("explore_preset_status");
  new MutationObserver(() => window.statuses.push(status.textContent))
    .observe(status, {childList: true, characterData: true, subtree: true});
}"""


@pytest.mark.timed  # INP
def test_presets_keep_the_page_responsive_on_a_cpu_slowed_four_times(
        page: Page, d8_url: str, console_errors: list[str]) -> None:
    """A preset is searched a slice at a time: no click waits more than INP's 200 ms, with
    Chromium's CPU throttled 4x (Lighthouse's mobile profile), and the wait says how far it is."""
    open_explore(page, d8_url, "The same two numbers.")
    page.evaluate(WATCH_PRESETS)
    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
    presets = page.locator(".preset")
    furthest = page.get_by_role("button", name="The two heads land furthest from the single head.")
    furthest.click()
    # The whole search takes about 2.5 s at 4x here (0.4 s unthrottled), drawn between slices.
    expect(furthest).to_have_attribute("aria-pressed", "true", timeout=SEARCH_MS)
    statuses = page.evaluate("window.statuses")
    assert re.fullmatch(r"Searching the plane for “The two heads land furthest from the single "
                        r"head\.”: \d+% done\.", statuses[0]), statuses
    assert statuses[-1] == ""
    expect(page.locator("#announcer")).to_have_text(
        re.compile(r"^The two heads land furthest from the single head\. "))
    for i in range(30):  # clicked faster than any search ends: only the last one is wanted
        presets.nth(i % presets.count()).click()
    last = presets.nth(29 % presets.count())
    expect(last).to_have_attribute("aria-pressed", "true", timeout=SEARCH_MS)
    assert_d8_readout(page)
    slowest = max(page.evaluate("Object.values(window.interactions)"), default=0)
    assert slowest <= 200, f"the slowest interaction took {slowest} ms"
    assert console_errors == []


def test_presets_stay_under_the_pointer_pressed_in_a_row(
        page: Page, d8_url: str, console_errors: list[str]) -> None:
    """A preset moves points inside the plane; the page must not scroll to follow them (the
    browser's scroll anchoring), or the next press at the same place lands elsewhere."""
    page.set_viewport_size({"width": 1280, "height": 900})
    open_explore(page, d8_url, "The same two numbers.")
    names = ("The two heads come closest to the single head.",
             "The two heads land furthest from the single head.",
             "Two keys tie for head A's largest weight.",
             "The two heads come closest to the single head.")
    page.get_by_role("button", name=names[0]).scroll_into_view_if_needed()
    top = page.evaluate("() => scrollY")
    for name in names:
        button = page.get_by_role("button", name=name)
        box = button.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(button).to_have_attribute("aria-pressed", "true", timeout=SEARCH_MS)
        expect(page.locator("#explore_heads")).not_to_have_attribute("aria-busy", "true")
        assert page.evaluate("() => scrollY") == top, f"the page scrolled at {name!r}"
    assert console_errors == []

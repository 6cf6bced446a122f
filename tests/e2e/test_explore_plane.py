"""Explore shows what a move does where it is made: the plane draws each head's weights, the
values and the outputs, and the readout beside it stays on screen with the plane while a point
is moved by keyboard, pointer or touch, at a desktop's width and a phone's."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import CDPSession, FloatRect, Page, expect

from attention_lessons import LESSONS
from learner import PLANS
from strategies import numpy_lesson, numpy_marks
from test_explore_page import MINUS, SEARCH_MS, VALUES, open_explore, reported, slider

EDGE, SIZE = 3.0, 300.0
HALF_LAST_DIGIT = 0.5e-4 + 1e-9
NUMBER = re.compile(r"-?\d+\.\d+")
# Each element: inside the viewport, and (for a readout's cell) the element a finger or the eye
# finds at its centre, not covered by anything.
ON_SCREEN = """(ids) => ids.map((id) => {
  const element = document.getElementById(id);
  const box = element.getBoundingClientRect();
  const inside = box.width > 0 && box.left >= -0.5 && box.top >= -0.5
    && box.right <= innerWidth + 0.5 && box.bottom <= innerHeight + 0.5;
  const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  const uncovered = element.tagName === "svg" || found === element || element.contains(found);
  return [id, inside && uncovered];
})"""
SCROLLED = "() => scrollY"
TO_BOTTOM = """() => document.getElementById("explore_plane").scrollIntoView({ block: "end" })"""


def readout_ids(slug: str) -> list[str]:
    return [f"explore_readout_{spec.id}_{k}" for spec in LESSONS[slug].heads
            for k in (1, 2, 3, 4, "output")]


def readout(page: Page, slug: str) -> None:
    """The readout beside the plane prints numpy's weights and outputs for the points the page
    reports, and it is on screen, uncovered, with the whole plane."""
    q, k = reported(page)
    weights, outputs, _ = numpy_lesson(slug, q, k, VALUES)
    for spec, w, o in zip(LESSONS[slug].heads, weights, outputs, strict=True):
        expect(page.locator(f"#explore_readout_{spec.id}_output")).to_have_text(
            ", ".join(f"{x:.4f}" for x in o).replace("-0.0000", "0.0000"))
        shown = [float(page.locator(f"#explore_readout_{spec.id}_{n}").inner_text())
                 for n in range(1, 5)]
        np.testing.assert_allclose(shown, w, atol=HALF_LAST_DIGIT)
    seen = dict(page.evaluate(ON_SCREEN, ["explore_plane_svg", *readout_ids(slug)]))
    assert all(seen.values()), [element for element, on in seen.items() if not on]


def centre(page: Page, point: str) -> tuple[float, float]:
    box = page.get_by_role("group", name=point, exact=True).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def plane_box(page: Page) -> FloatRect:
    box = page.locator("#explore_plane").bounding_box()
    assert box is not None
    return box


def touch(cdp: CDPSession, kind: str, at: tuple[float, float] | None = None) -> None:
    points = [] if at is None else [{"x": at[0], "y": at[1]}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["1280", "390"])
def test_a_moves_weights_and_outputs_are_on_screen_with_the_plane_by_key_pointer_and_touch(
        page: Page, d8_url: str, console_errors: list[str], size: tuple[int, int]) -> None:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    open_explore(page, d8_url, "The same two numbers.")
    plane = page.locator("#explore_plane")
    box = plane.bounding_box()
    assert box is not None
    assert box["width"] >= 300  # a phone's plane is wide enough to aim at

    slider(page, "query").focus()  # by keyboard: the readout comes into view with the plane
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", f"query at 1.7, {MINUS}1.0")
    readout(page, "d8")

    page.evaluate(TO_BOTTOM)  # by pointer, the plane low on the screen: held, the readout is
    start = centre(page, "query")
    page.mouse.move(*start)
    page.mouse.down()
    frame = plane_box(page)
    page.mouse.move(frame["x"] + 0.25 * frame["width"], frame["y"] + 0.75 * frame["height"],
                    steps=8)  # clear of the keys, whose handles would lie over the query's
    expect(slider(page, "query")).to_have_attribute("aria-valuetext",
                                                    f"query at {MINUS}1.5, {MINUS}1.5")
    readout(page, "d8")  # on screen and current while the point is held
    page.mouse.up()

    if width > 400:
        assert console_errors == []
        return
    page.evaluate(TO_BOTTOM)  # by touch, on a phone: the page does not scroll
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    scrolled = page.evaluate(SCROLLED)
    x, y = centre(page, "query")
    frame = plane_box(page)
    touch(cdp, "touchStart", (x, y))
    end = (frame["x"] + 0.8 * frame["width"], frame["y"] + 0.2 * frame["height"])
    for i in range(1, 11):
        touch(cdp, "touchMove", (x + (end[0] - x) * i / 10, y + (end[1] - y) * i / 10))
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", "query at 1.8, 1.8")
    assert page.evaluate(SCROLLED) == scrolled
    readout(page, "d8")
    touch(cdp, "touchEnd")
    assert page.evaluate(SCROLLED) == scrolled
    assert console_errors == []


def svg(x: float, y: float) -> tuple[float, float]:
    return (x + EDGE) / (2 * EDGE) * SIZE, (EDGE - y) / (2 * EDGE) * SIZE


def translation(page: Page, element_id: str) -> tuple[float, float]:
    found = re.fullmatch(r"translate\((\S+) (\S+)\)",
                         page.locator(f"#{element_id}").get_attribute("transform") or "")
    assert found, element_id
    return float(found[1]), float(found[2])


def the_plane_draws_numpys_weights_values_and_outputs_after_a_move(page: Page, slug: str) -> None:
    slider(page, "query").focus()
    page.keyboard.press("Shift+ArrowLeft")
    page.get_by_label("Key 2, coordinate 1", exact=True).fill("-1.5")
    expect(slider(page, "key 2")).to_have_attribute("aria-valuetext",
                                                    f"key 2 at {MINUS}1.5, 1.0")
    q, k = reported(page)
    weights, outputs, single = numpy_lesson(slug, q, k, VALUES)
    figure = page.get_by_role("img", name=re.compile(r"^The plane runs from -3 to 3"))
    name = figure.get_attribute("aria-labelledby")
    text = page.locator(f"#{name}").text_content() or ""
    for spec, w in zip(LESSONS[slug].heads, weights, strict=True):
        for n, weight in enumerate(w, 1):  # each line as wide as its weight, none for none
            width = float(page.locator(f"#explore_weight_{spec.id}_{n}").get_attribute(
                "stroke-width") or "nan")
            assert width == pytest.approx(0 if weight == 0 else max(0.75, 9 * weight), abs=0.006)
        said = re.search(rf"The weights of {re.escape(spec.name)}: "
                         r"((?:key \d+, \d\.\d{4}(?:; )?)+)\.", text)
        assert said, text
        np.testing.assert_allclose([float(x) for x in NUMBER.findall(said[1])], w,
                                   atol=HALF_LAST_DIGIT)
    for n, value in enumerate(VALUES, 1):
        assert translation(page, f"explore_value_{n}") == pytest.approx(svg(*value), abs=0.006)
    for mark, (x, y) in numpy_marks(slug, outputs, single).items():
        assert translation(page, f"explore_mark_{mark}") == pytest.approx(svg(x, y), abs=0.006)
        assert f"at {x:.4f}, {y:.4f}".replace("-0.0000", "0.0000") in text


OTHER_PLANS = [plan for plan in PLANS if plan.slug != "d8"]  # D8's shares a start, below


@pytest.mark.parametrize("plan", OTHER_PLANS, ids=[plan.slug for plan in OTHER_PLANS])
def test_the_plane_draws_numpys_weights_values_and_outputs_after_a_move(
        page: Page, site_url: str, console_errors: list[str], plan: Any) -> None:
    open_explore(page, f"{site_url}{plan.slug}/", plan.wrong_prediction)
    the_plane_draws_numpys_weights_values_and_outputs_after_a_move(page, plan.slug)
    assert console_errors == []


# The browser's own boxes of every label on the plane (getBBox, in the viewBox's units): each
# inside the figure, and none overlapping another.
MEASURE = """const measure = () => {
  const labels = [...document.querySelectorAll("#explore_plane .point-label, #explore_plane .edge")]
    .filter((label) => label.textContent).map((label) => {
      const box = label.getBBox();
      return [label.textContent, box.x, box.y, box.x + box.width, box.y + box.height];
    });
  const clashes = [];
  labels.forEach(([text, left, top, right, bottom], n) => {
    if (left < -0.5 || top < -0.5 || right > 300.5 || bottom > 300.5) clashes.push([text]);
    for (const [other, l, t, r, b] of labels.slice(n + 1)) {
      if (left < r && l < right && top < b && t < bottom) clashes.push([text, other]);
    }
  });
  return [labels.length, clashes];
};"""
BOXES = "() => { " + MEASURE + " return measure(); }"
# Type every point's coordinates into its fields, as a learner does, then measure, place by place:
# one call for all of them, where a fill a field would take a round trip each.
PLACED = "(places) => { " + MEASURE + """
  return places.map((place) => {
    place.forEach(([point, x, y]) => {
      for (const [axis, at] of [[1, x], [2, y]]) {
        const field = document.getElementById(`explore_${point}_${axis}`);
        field.value = String(at);
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
    const said = document.getElementById("explore_key_4_across").getAttribute("aria-valuetext");
    return [said, ...measure()];
  });
}"""
POINTS = ("query", "key_1", "key_2", "key_3", "key_4")
RANDOM = np.random.default_rng(32).integers(-30, 31, size=(200, 5, 2)) / 10


def labels_apart(found: list[Any], where: str) -> None:
    count, clashes = found
    assert count >= 9, where  # the edges, the query, the keys, the values and the outputs
    assert clashes == [], where


def every_label_on_the_plane_stays_inside_it_and_apart(page: Page) -> None:
    """At the fixture, at every preset, and at 200 random places of the points, each measured
    as the browser draws it."""
    labels_apart(page.evaluate(BOXES), "the fixture")
    for preset in LESSONS["d8"].presets():
        page.get_by_role("button", name=preset.label).click()
        expect(page.get_by_role("button", name=preset.label)).to_have_attribute(
            "aria-pressed", "true", timeout=SEARCH_MS)
        labels_apart(page.evaluate(BOXES), preset.id)
    places = [[[point, x, y] for point, (x, y) in zip(POINTS, place, strict=True)]
              for place in RANDOM.tolist()]
    for place, (said, *found) in zip(RANDOM, page.evaluate(PLACED, places), strict=True):
        x, y = place[4]
        assert said == f"key 4 at {x:.1f}, {y:.1f}".replace("-", MINUS)  # the page took it
        labels_apart(found, str(place.tolist()))


def test_d8s_plane_draws_numpys_numbers_after_a_move_and_every_label_stays_inside_it_and_apart(
        page: Page, d8_url: str, console_errors: list[str]) -> None:
    """One start of D8's Explore, at the default size, for two checks in turn, each of which
    began with the same visit: Back to the fixture puts the moved points back before the
    labels are measured."""
    open_explore(page, d8_url, "The same two numbers.")
    the_plane_draws_numpys_weights_values_and_outputs_after_a_move(page, "d8")
    page.get_by_role("button", name="Back to the fixture").click()
    every_label_on_the_plane_stays_inside_it_and_apart(page)
    assert console_errors == []

"""Explore shows what a move does where it is made: the plane draws each head's weights, the
values and the outputs, and the readout beside it stays on screen with the plane while a point
is moved by keyboard, pointer or touch, at a desktop's width and a phone's. Every lesson is
checked on its own fixture against its own numpy oracle."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import CDPSession, FloatRect, Page, expect

from attention_lessons import LESSONS, work
from attention_lessons.engine import Explore, Lesson, fixed_points, go_to_preset, point_ids
from attention_lessons.views import explore_view
from explore_page import MINUS, SEARCH_MS, explored, first_and_third, open_explore, slider
from learner import PLANS, Plan
from oracles import by_numpy, own_fixture
from strategies import moved_to

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


def keys_of(lesson: Lesson) -> range:
    """The numbers of the keys each head weighs, each a column of the readout: 1, 2, ..."""
    return range(1, len(work(lesson, own_fixture(lesson)).heads[0].weights) + 1)


def readout_ids(lesson: Lesson) -> list[str]:
    return [f"explore_readout_{spec.id}_{k}" for spec in lesson.heads
            for k in (*keys_of(lesson), "output")]


def readout(page: Page, lesson: Lesson) -> None:
    """The readout beside the plane prints the lesson's oracle's weights and outputs for the
    points the page reports, and it is on screen, uncovered, with the whole plane."""
    found = by_numpy(lesson, explored(page, own_fixture(lesson)))
    for spec, w, o in zip(lesson.heads, found.weights, found.outputs, strict=True):
        expect(page.locator(f"#explore_readout_{spec.id}_output")).to_have_text(
            ", ".join(f"{x:.4f}" for x in o.ravel()).replace("-0.0000", "0.0000"))
        shown = [float(page.locator(f"#explore_readout_{spec.id}_{n}").inner_text())
                 for n in keys_of(lesson)]
        np.testing.assert_allclose(shown, w.ravel(), atol=HALF_LAST_DIGIT)
    seen = dict(page.evaluate(ON_SCREEN, ["explore_plane_svg", *readout_ids(lesson)]))
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


# The readout with the most heads takes the most room beside the plane: the lesson to fit.
WIDEST = max(PLANS, key=lambda plan: len(LESSONS[plan.slug].heads))


def said_at(x: float, y: float) -> str:
    """A point's place as its slider says it."""
    return f"{x:.1f}, {y:.1f}".replace("-", MINUS)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["1280", "390"])
def test_a_moves_weights_and_outputs_are_on_screen_with_the_plane_by_key_pointer_and_touch(
        page: Page, site_url: str, console_errors: list[str], size: tuple[int, int]) -> None:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    lesson = LESSONS[WIDEST.slug]
    fixture = own_fixture(lesson)
    first, _ = first_and_third(fixture)  # the plain head's query
    qx, qy = fixed_points(fixture)[point_ids(fixture)[0]]
    open_explore(page, f"{site_url}{lesson.slug}/", WIDEST.wrong_prediction)
    plane = page.locator("#explore_plane")
    box = plane.bounding_box()
    assert box is not None
    assert box["width"] >= 300  # a phone's plane is wide enough to aim at

    slider(page, first).focus()  # by keyboard: the readout comes into view with the plane
    for _ in range(3):
        page.keyboard.press("ArrowLeft")
    expect(slider(page, first)).to_have_attribute("aria-valuetext",
                                                  f"{first} at {said_at(qx - 0.3, qy)}")
    readout(page, lesson)

    page.evaluate(TO_BOTTOM)  # by pointer, the plane low on the screen: held, the readout is
    start = centre(page, first)
    page.mouse.move(*start)
    page.mouse.down()
    frame = plane_box(page)
    page.mouse.move(frame["x"] + 0.25 * frame["width"], frame["y"] + 0.75 * frame["height"],
                    steps=8)  # clear of the other points, whose handles would lie over it
    expect(slider(page, first)).to_have_attribute("aria-valuetext",
                                                  f"{first} at {MINUS}1.5, {MINUS}1.5")
    readout(page, lesson)  # on screen and current while the point is held
    page.mouse.up()

    if width > 400:
        assert console_errors == []
        return
    page.evaluate(TO_BOTTOM)  # by touch, on a phone: the page does not scroll
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    scrolled = page.evaluate(SCROLLED)
    x, y = centre(page, first)
    frame = plane_box(page)
    touch(cdp, "touchStart", (x, y))
    end = (frame["x"] + 0.8 * frame["width"], frame["y"] + 0.2 * frame["height"])
    for i in range(1, 11):
        touch(cdp, "touchMove", (x + (end[0] - x) * i / 10, y + (end[1] - y) * i / 10))
    expect(slider(page, first)).to_have_attribute("aria-valuetext", f"{first} at 1.8, 1.8")
    assert page.evaluate(SCROLLED) == scrolled
    readout(page, lesson)
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


def the_plane_draws_numpys_weights_values_and_outputs_after_a_move(page: Page,
                                                                   lesson: Lesson) -> None:
    fixture = own_fixture(lesson)
    first, third = first_and_third(fixture)
    slider(page, first).focus()
    page.keyboard.press("Shift+ArrowLeft")
    page.get_by_label(f"{third.capitalize()}, coordinate 1", exact=True).fill("-1.5")
    third_y = fixed_points(fixture)[point_ids(fixture)[2]][1]
    expect(slider(page, third)).to_have_attribute(
        "aria-valuetext", f"{third} at {MINUS}1.5, {third_y:.1f}".replace("-", MINUS))
    found = by_numpy(lesson, explored(page, own_fixture(lesson)))
    figure = page.get_by_role("img", name=re.compile(r"^The plane runs from -3 to 3"))
    name = figure.get_attribute("aria-labelledby")
    text = page.locator(f"#{name}").text_content() or ""
    for spec, w in zip(lesson.heads, found.weights, strict=True):
        for n, weight in enumerate(w.ravel(), 1):  # each line as wide as its weight, none for none
            width = float(page.locator(f"#explore_weight_{spec.id}_{n}").get_attribute(
                "stroke-width") or "nan")
            assert width == pytest.approx(0 if weight == 0 else max(0.75, 9 * weight), abs=0.006)
        key = re.escape(lesson.words.key)
        said = re.search(rf"The weights of {re.escape(spec.name)}: "
                         rf"((?:{key} \d+, \d\.\d{{4}}(?:; )?)+)\.", text)
        assert said, text
        np.testing.assert_allclose([float(x) for x in NUMBER.findall(said[1])], w.ravel(),
                                   atol=HALF_LAST_DIGIT)
    for n, value in enumerate(found.values, 1):
        assert translation(page, f"explore_value_{n}") == pytest.approx(svg(*value), abs=0.006)
    for mark, (x, y) in found.marks.items():
        assert translation(page, f"explore_mark_{mark}") == pytest.approx(svg(x, y), abs=0.006)
        assert f"at {x:.4f}, {y:.4f}".replace("-0.0000", "0.0000") in text


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
PLACED = "([last, places]) => { " + MEASURE + """
  return places.map((place) => {
    place.forEach(([point, x, y]) => {
      for (const [axis, at] of [[1, x], [2, y]]) {
        const field = document.getElementById(`explore_${point}_${axis}`);
        field.value = String(at);
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
    const said = document.getElementById(`explore_${last}_across`).getAttribute("aria-valuetext");
    return [said, ...measure()];
  });
}"""


def shown_labels(lesson: Lesson, explore: Explore) -> int:
    """How many labels the plane shows, by the package: the edge's two numbers and one label
    for each point, value and mark, or for each place several of them share."""
    plane = explore_view(lesson, own_fixture(lesson), explore).plane
    return 2 + sum(bool(label.text) for label in plane.labels.values())


def labels_apart(found: list[Any], shown: int, where: str) -> None:
    count, clashes = found
    assert count == shown, where  # the edges, the query, the keys, the values and the outputs
    assert clashes == [], where


def every_label_on_the_plane_stays_inside_it_and_apart(page: Page, lesson: Lesson) -> None:
    """At the fixture, at every preset, and at 200 random places of the points, each measured
    as the browser draws it."""
    fixture = own_fixture(lesson)
    points = point_ids(fixture)
    randomly = np.random.default_rng(32).integers(-30, 31, size=(200, len(points), 2)) / 10
    labels_apart(page.evaluate(BOXES), shown_labels(lesson, Explore()), "the fixture")
    for preset in lesson.presets():
        page.get_by_role("button", name=preset.label).click()
        expect(page.get_by_role("button", name=preset.label)).to_have_attribute(
            "aria-pressed", "true", timeout=SEARCH_MS)
        labels_apart(page.evaluate(BOXES),
                     shown_labels(lesson, go_to_preset(lesson, fixture, preset.id)), preset.id)
    places = [[[point, x, y] for point, (x, y) in zip(points, place, strict=True)]
              for place in randomly.tolist()]
    last = points[-1]
    for place, (said, *found) in zip(randomly, page.evaluate(PLACED, [last, places]),
                                     strict=True):
        x, y = place[-1]
        assert said == f"{last.replace('_', ' ')} at {said_at(x, y)}"  # the page took it
        labels_apart(found, shown_labels(lesson, moved_to(fixture, place)), str(place.tolist()))


@pytest.mark.parametrize("plan", PLANS, ids=[plan.slug for plan in PLANS])
def test_the_plane_draws_numpys_numbers_after_a_move_and_every_label_stays_inside_it_and_apart(
        page: Page, site_url: str, console_errors: list[str], plan: Plan) -> None:
    """One start of each lesson's Explore, at the default size, for two checks in turn, each of
    which began with the same visit: Back to the fixture puts the moved points back before the
    labels are measured."""
    lesson = LESSONS[plan.slug]
    open_explore(page, f"{site_url}{plan.slug}/", plan.wrong_prediction)
    the_plane_draws_numpys_weights_values_and_outputs_after_a_move(page, lesson)
    page.get_by_role("button", name="Back to the fixture").click()
    every_label_on_the_plane_stays_inside_it_and_apart(page, lesson)
    assert console_errors == []

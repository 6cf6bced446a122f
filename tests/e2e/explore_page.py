"""Explore's steps, shared by every lesson's Explore tests: where the page says the points are,
a head's explored steps as printed, and the start of a visit. Each lesson's own scenarios are in
test_explore_<its module>.py; the checks every lesson shares are in test_explore_plane.py."""

from __future__ import annotations

import re

import numpy as np
from playwright.sync_api import FloatRect, Locator, Page, expect

from attention_lessons import LESSONS
from attention_lessons.engine import Fixture, point_ids, point_name
from attention_lessons.engine.explore import explored_fixture
from learner import PLANS, gate, lock_prediction, open_page
from strategies import moved_to

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
HALF_LAST_DIGIT = 0.5e-4 + 1e-9
MINUS = "\N{MINUS SIGN}"
# A preset's search is Python's work, run a slice at a time: about a second here at normal CPU,
# several times that at 4x or on a loaded machine (its speed is the timed test's to measure).
SEARCH_MS = 30_000


def field(page: Page, point: str, axis: int) -> Locator:
    return page.get_by_label(f"{point.capitalize()}, coordinate {axis}", exact=True)


def slider(page: Page, point: str) -> Locator:
    return page.get_by_role("slider", name=f"Move the {point}", exact=True)


def places(page: Page, fixture: Fixture) -> np.ndarray:
    """Every movable point where the page says it is, to its slider, in the lesson's order."""
    at = []
    for point in map(point_name, point_ids(fixture)):
        said = slider(page, point).get_attribute("aria-valuetext") or ""
        found = re.fullmatch(rf"{point} at (\S+), (\S+)", said)
        assert found, said
        at.append([float(x.replace(MINUS, "-")) for x in found.groups()])
    return np.array(at)


def reported(page: Page, fixture: Fixture) -> tuple[np.ndarray, np.ndarray]:
    """The plain head's query and keys where the page says they are."""
    at = places(page, fixture)
    return at[0], at[1:]


def explored(page: Page, fixture: Fixture) -> Fixture:
    """The fixture with its points where the page says they are: what the page explores."""
    return explored_fixture(fixture, moved_to(fixture, list(places(page, fixture))))


def first_and_third(fixture: Fixture) -> tuple[str, str]:
    """The names of the lesson's first point and its third (the plain head's query and key 2),
    the two a shared test moves."""
    ids = point_ids(fixture)
    return point_name(ids[0]), point_name(ids[2])


def printed_row(page: Page, head: str, step: str) -> list[float]:
    """A row of a head's explored steps, once the heads' panels are drawn (they are drawn after
    the move's frame, and are busy until then)."""
    expect(page.locator("#explore_heads")).not_to_have_attribute("aria-busy", "true")
    table = page.get_by_role(
        "table", name=f"The explored steps of {head}: scores, exponentials and weights")
    cell = table.get_by_role("row").filter(
        has=page.get_by_role("rowheader", name=step, exact=True)).get_by_role("cell")
    return [float(x) for x in NUMBER.findall(cell.inner_text())]


def head_oracle(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> dict[str, np.ndarray]:
    """One head the textbook way: scores, scaled, exponentials, their sum, weights, output."""
    scores = k @ q
    scaled = scores / np.sqrt(q.shape[0])
    exps = np.exp(scaled)
    weights = exps / exps.sum()
    return {"scores": scores, "scaled": scaled, "exps": exps, "total": np.array([exps.sum()]),
            "weights": weights, "output": np.atleast_1d(weights @ v)}


def assert_head(page: Page, head: str, oracle: dict[str, np.ndarray], d: int) -> None:
    rows = {"scores, query times key": "scores",
            f"scaled by 1 over the square root of {d}": "scaled",
            "exponentials": "exps", "their sum": "total", "weights": "weights",
            "output, weights against values": "output"}
    for step, name in rows.items():
        np.testing.assert_allclose(printed_row(page, head, step), oracle[name], rtol=1e-4,
                                   atol=HALF_LAST_DIGIT, err_msg=f"{head}: {step}")


def open_explore(page: Page, url: str, prediction: str) -> None:
    open_page(page, url)
    expect(page.get_by_role("heading", name=re.compile("Move the vectors yourself"))).to_be_hidden()
    lock_prediction(page, prediction)
    expect(page.get_by_role("heading", name="Explore · Move the vectors yourself")).to_be_visible()


def fixture_unchanged(page: Page, slug: str) -> None:
    """Sections 03 to 05 still show the fixture: each head's summary, and the gate untouched."""
    plan, lesson = next(p for p in PLANS if p.slug == slug), LESSONS[slug]
    for title, ending in plan.heads.items():
        panel = page.get_by_role("article", name=title, exact=True)
        expect(panel.get_by_text(re.compile(re.escape(ending) + "$"))).to_be_visible()
    expect(gate(page)).to_contain_text(f"0 of {len(lesson.questions)} numbers within tolerance, "
                                       f"{lesson.gate_needed} needed.")
    expect(page.get_by_text("You have run it 0 times.")).to_be_visible()


def drag_to(page: Page, point: str, across: float, down: float) -> None:
    """Drag a point's handle with the mouse to a place on the plane, given as fractions."""
    handle = page.get_by_role("group", name=point, exact=True)
    page.locator("#explore_plane").scroll_into_view_if_needed()
    box = handle.bounding_box()
    plane = page.locator("#explore_plane").bounding_box()
    assert box is not None
    assert plane is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(plane["x"] + across * plane["width"], plane["y"] + down * plane["height"],
                    steps=12)
    page.mouse.up()


def inside(box: FloatRect | None, frame: FloatRect | None) -> bool:
    assert box is not None
    assert frame is not None
    return (frame["x"] <= box["x"] and box["x"] + box["width"] <= frame["x"] + frame["width"]
            and frame["y"] <= box["y"] and box["y"] + box["height"] <= frame["y"] + frame["height"])

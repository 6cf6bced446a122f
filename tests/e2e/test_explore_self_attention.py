"""8.4's Explore, as a learner works it: a token moved by keyboard and by pointer, and the figure's
lines, the heatmap, the projected space, each row's steps and the text alternatives read against
numpy from the coordinates the page reports."""

from __future__ import annotations

import re

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from attention_lessons import LESSONS
from attention_lessons.engine import decimals, exact, vector
from explore_page import (
    HALF_LAST_DIGIT,
    MINUS,
    drag_to,
    explored,
    fixture_unchanged,
    open_explore,
    printed_row,
    slider,
)
from lessons.test_self_attention import numpy_self_attention, projected_place
from oracles import own_fixture

LESSON = LESSONS["8-4"]
FIXTURE = own_fixture(LESSON)
NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def the_page_is_numpys(page: Page) -> None:
    """Every number Explore draws and prints for the tokens where the page says they are."""
    now = numpy_self_attention(explored(page, FIXTURE))
    heatmap = page.get_by_role("table", name=re.compile("^What a move changes: the weights"))
    expect(heatmap).to_be_visible()
    for i in range(4):
        row = heatmap.get_by_role("row").filter(
            has=page.get_by_role("rowheader", name=f"token {i + 1}'s row", exact=True))
        cells = row.get_by_role("cell")
        shown = [float(cells.nth(k).inner_text()) for k in range(4)]
        np.testing.assert_allclose(shown, now["weights"][i], atol=HALF_LAST_DIGIT)
        expect(cells.nth(4)).to_have_text(", ".join(decimals(x) for x in now["outputs"][i]))
        for k in range(4):  # each cell shaded by its weight, each line as wide as it
            cell = page.locator(f"#explore_readout_row_{i + 1}_{k + 1}")
            shade = cell.evaluate("(cell) => cell.style.getPropertyValue('--weight')")
            assert float(shade) == pytest.approx(now["weights"][i][k], abs=5e-4)
            width = float(page.locator(f"#explore_weight_row_{i + 1}_{k + 1}").get_attribute(
                "stroke-width") or "nan")
            weight = now["weights"][i][k]
            assert width == pytest.approx(0 if weight == 0 else max(0.75, 9 * weight), abs=0.006)
        np.testing.assert_allclose(printed_row(page, f"token {i + 1}'s row", "weights"),
                                   now["weights"][i], atol=HALF_LAST_DIGIT)
    space = page.get_by_role("img", name=re.compile(r"^The queries \(q\), keys \(k\) and values"))
    for noun, name in (("query", "queries"), ("key", "keys"), ("value", "values")):
        for i, (x, y) in enumerate(now[name], 1):
            said = f"token {i}'s {noun} at {exact(float(x))}, {exact(float(y))}"
            expect(space).to_have_accessible_name(re.compile(re.escape(said)))
            where = page.locator(f"#explore_space_projected_{noun[0]}_{i}").get_attribute(
                "transform") or ""
            found = re.fullmatch(r"translate\((\S+) (\S+)\)", where)
            assert found, where
            np.testing.assert_allclose([float(found[1]), float(found[2])], projected_place(x, y),
                                       atol=0.006)
    figure = page.get_by_role("img", name=re.compile(r"^The plane runs from -3 to 3"))
    text = page.locator(f"#{figure.get_attribute('aria-labelledby')}").text_content() or ""
    for i in range(4):
        q, k, v = (now[name][i] for name in ("queries", "keys", "values"))
        assert (f"query {vector(q)}, key {vector(k)}, value {vector(v)}."
                in text), text
        listed = re.search(rf"The weights of token {i + 1}'s row: "
                           r"((?:token \d, \d\.\d{4}(?:; )?)+)", text)
        assert listed, text
        np.testing.assert_allclose([float(x) for x in NUMBER.findall(listed[1])][1::2],
                                   now["weights"][i], atol=HALF_LAST_DIGIT)


def test_a_token_moved_by_keyboard_and_by_pointer_recomputes_every_row(
        page: Page, site_url: str, console_errors: list[str]) -> None:
    open_explore(page, f"{site_url}8-4/", "Token 3.")
    the_page_is_numpys(page)
    token = slider(page, "token 3")
    token.focus()
    for key in ("Shift+ArrowUp", "Shift+ArrowUp", "ArrowLeft"):
        page.keyboard.press(key)
    expect(token).to_have_attribute("aria-valuetext", "token 3 at 0.9, 1.0")
    the_page_is_numpys(page)
    drag_to(page, "token 1", 0.25, 0.25)  # to (-1.5, 1.5)
    expect(slider(page, "token 1")).to_have_attribute("aria-valuetext",
                                                      f"token 1 at {MINUS}1.5, 1.5")
    the_page_is_numpys(page)
    page.get_by_role("button", name="Back to the fixture").click()
    expect(token).to_have_attribute("aria-valuetext", "token 3 at 1.0, 0.0")
    the_page_is_numpys(page)
    fixture_unchanged(page, "8-4")
    assert console_errors == []

"""8.2's Explore, as a learner works it: typed coordinates move a point and bad ones get the
parser's message, and its presets and scales do what they say, by numpy from the coordinates the
page reports."""

from __future__ import annotations

import numpy as np
from playwright.sync_api import Page, expect

from attention_lessons import LESSONS
from explore_page import (
    HALF_LAST_DIGIT,
    MINUS,
    assert_head,
    field,
    fixture_unchanged,
    head_oracle,
    open_explore,
    printed_row,
    reported,
    slider,
)
from learner import L82
from oracles import own_fixture

LESSON = LESSONS["8-2"]
FIXTURE = own_fixture(LESSON)
VALUES = np.array(FIXTURE.values, dtype=float)


def assert_82_readout(page: Page) -> None:
    q, k = reported(page, FIXTURE)
    assert_head(page, "the head", head_oracle(q, k, VALUES), 2)


def typed_coordinates_move_a_point_and_bad_ones_get_the_parsers_message(page: Page) -> None:
    field(page, "key 2", 1).fill("0,5")
    expect(slider(page, "key 2")).to_have_attribute("aria-valuetext", "key 2 at 0.5, 1.0")
    assert_82_readout(page)
    field(page, "key 2", 2).fill("abc")
    expect(page.get_by_text("“abc” is not a number.")).to_be_visible()
    expect(slider(page, "key 2")).to_have_attribute("aria-valuetext", "key 2 at 0.5, 1.0")
    field(page, "key 2", 2).fill("7/2")
    expect(page.get_by_text("Each coordinate runs from -3 to 3 on this plane.")).to_be_visible()
    field(page, "query", 1).fill("−1.25")
    expect(slider(page, "query")).to_have_attribute("aria-valuetext",
                                                   f"query at {MINUS}1.25, {MINUS}1.0")
    assert_82_readout(page)


def l82s_presets_and_scales_do_what_they_say(page: Page) -> None:
    page.get_by_role("button", name="A single key takes almost all of the weight.").click()
    expect(page.get_by_role("button", name="Back to the fixture")).to_be_enabled()
    q, k = reported(page, FIXTURE)
    assert head_oracle(q, k, VALUES)["weights"].max() > 0.95
    assert_82_readout(page)
    even = "Every key the query may see gets about the same weight."
    page.get_by_role("button", name=even).click()
    expect(slider(page, "query")).to_have_attribute("aria-valuetext", "query at 0.0, 0.0")
    q, k = reported(page, FIXTURE)
    weights = head_oracle(q, k, VALUES)["weights"]
    assert weights.max() - weights.min() <= 0.05
    page.get_by_role("button", name="Back to the fixture").click()
    for choice, root in (("1/sqrt(4)", 4), ("1", 1)):
        page.get_by_label(choice, exact=True).check()
        q, k = reported(page, FIXTURE)
        scaled = k @ q / np.sqrt(root)
        shown = printed_row(page, "the head", f"scaled by 1 over the square root of {root}")
        np.testing.assert_allclose(shown, scaled, atol=HALF_LAST_DIGIT)
        weights = np.exp(scaled) / np.exp(scaled).sum()
        np.testing.assert_allclose(printed_row(page, "the head", "weights"), weights,
                                   atol=HALF_LAST_DIGIT)
    fixture_unchanged(page, "8-2")


def test_typed_coordinates_move_a_point_and_82s_presets_and_scales_do_what_they_say(
        page: Page, site_url: str, console_errors: list[str]) -> None:
    """One start of 8.2's Explore for two checks in turn, each of which began with the same
    visit: Back to the fixture puts the typed points back before the presets."""
    open_explore(page, f"{site_url}8-2/", L82.wrong_prediction)
    typed_coordinates_move_a_point_and_bad_ones_get_the_parsers_message(page)
    page.get_by_role("button", name="Back to the fixture").click()
    l82s_presets_and_scales_do_what_they_say(page)
    assert console_errors == []

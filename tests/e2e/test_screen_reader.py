"""What a screen reader hears: grading and hints through a live region, a name on every control,
and figures whose text alternative carries the numbers drawn."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from learner import announcer, check_answers, lock_prediction, open_d8

FOUR_DECIMALS = re.compile(r"\d\.\d{4}")
HEAD_WEIGHTS = {
    "A": ["0.4643", "0.0628", "0.4643", "0.0085"],
    "B": ["0.4754", "0.1749", "0.1749", "0.1749"],
}


def test_what_a_screen_reader_hears_after_a_prediction_is_locked(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    """One visit: the lock announced, a name on every control, the weight figures' text, and
    then checks and hints announced."""
    open_d8(page, d8_url)
    lock_prediction(page)  # everything past 02 · Predict is in view from here
    spoken = announcer(page)
    expect(spoken).to_have_text("Prediction locked in. Section 03, Try it, is open.")
    every_control_has_an_accessible_name(page)
    each_weight_figure_says_the_numbers_it_draws(page)
    checks_and_hints_are_announced(page)
    assert console_errors == []


def checks_and_hints_are_announced(page: Page) -> None:
    spoken = announcer(page)
    check_answers(page, {"Head A, the score for key 1": "2"})
    expect(spoken).to_have_text("Checked. 1 of 6 within tolerance. You have run it 1 time.")
    check_answers(page, {})  # Check again, with nothing changed
    expect(spoken).to_have_text(
        "Nothing new was graded: these values were checked already, so this did not count "
        "as a run.")
    check_answers(page, {"Head A, the output": "1.1740"})
    expect(spoken).to_have_text("Checked. 1 of 6 within tolerance. You have run it 2 times.")
    check_answers(page, {"Head A, the output": "1.376"})
    expect(spoken).to_have_text(
        "Checked. 2 of 6 within tolerance. You have run it 3 times. Hint 1 is now available.")

    page.get_by_role("button", name="Show the question").click()
    # Focus moves to the hint it opened, so a screen reader reads it there, once: the live
    # region does not say it a second time.
    hint = page.get_by_text(re.compile(r"^In head A, .+\?$"))
    expect(hint).to_be_focused()
    expect(spoken).to_have_text(
        "Checked. 2 of 6 within tolerance. You have run it 3 times. Hint 1 is now available.")


def every_control_has_an_accessible_name(page: Page) -> None:
    # Text fields (the takeaway textarea among them), radios, sliders and buttons, by count;
    # Explore adds two fields and two sliders a point, two scales, three presets and its Back;
    # a lesson that holds work offers "Keep my progress in this browser".
    for controls, count in (
        (page.get_by_role("textbox"), 12 + 10),
        (page.get_by_role("radio"), 7 + 2),
        (page.get_by_role("slider"), 4 + 10),
        (page.get_by_role("button"), 8 + 4),
        (page.get_by_role("checkbox"), 1),
    ):
        expect(controls).to_have_count(count)
        for control in controls.all():
            expect(control).to_have_accessible_name(re.compile(r"\S"))


def each_weight_figure_says_the_numbers_it_draws(page: Page) -> None:
    for head, weights in HEAD_WEIGHTS.items():
        figure = page.get_by_role("img", name=re.compile(rf"^Weights of head {head}:"))
        said = "; ".join(f"key {k}, {w}" for k, w in enumerate(weights, 1))
        expect(figure).to_have_accessible_name(f"Weights of head {head}: {said}.")
        drawn = FOUR_DECIMALS.findall(figure.inner_text())  # the bars' printed values
        assert drawn == weights, f"head {head}'s bars print {drawn}, its text says {weights}"

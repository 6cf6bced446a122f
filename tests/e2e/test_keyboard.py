"""A learner with only a keyboard meets D8's check, with focus visible at every stop."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from learner import (
    MIXED_ANSWERS,
    WHY_LABEL,
    announcer,
    assert_focus_visible,
    gate,
    open_d8,
    press_to,
    tab_to,
)


def test_the_gate_is_met_with_the_keyboard_alone(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    open_d8(page, d8_url)
    keys = page.keyboard

    # 02 · Predict: the first Tab offers the skip link, the next enters the choices.
    press_to(page, "Tab", page.get_by_role("link", name="Skip to the lesson"))
    press_to(page, "Tab", page.get_by_role("radio", name="The same two numbers."))
    keys.press("ArrowDown")
    keys.press("ArrowDown")
    clearly = page.get_by_role("radio", name="Clearly different, by more than 0.1.")
    expect(clearly).to_be_focused()
    expect(clearly).to_be_checked()
    assert_focus_visible(page)
    press_to(page, "Tab", page.get_by_label(WHY_LABEL))
    keys.type("Each head has its own softmax.")
    press_to(page, "Tab", page.get_by_role("button", name="Lock in my prediction"))
    keys.press("Enter")
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_focused()

    # Each head's disclosure opens from the keyboard: one with Enter, the other with Space.
    for head, key in (("head A, coordinate 1", "Enter"), ("head B, coordinate 2", "Space")):
        article = page.get_by_role("article", name=head)
        numbers = article.get_by_role("table", name="Values shown in the figure above")
        expect(numbers).to_be_hidden()
        press_to(page, "Tab", article.get_by_text("Show this head's numbers"))
        keys.press(key)
        expect(numbers).to_be_visible()

    # The six fields follow one another; Enter in the last one submits Check.
    for label, typed in MIXED_ANSWERS.items():
        press_to(page, "Tab", page.get_by_label(label, exact=True))
        keys.type(typed)
    keys.press("Enter")
    expect(announcer(page)).to_have_text(re.compile(r"^Checked\. 6 of 6 within tolerance\."))
    expect(gate(page)).to_contain_text("6 of 6 numbers within tolerance, 5 needed.")

    # A wrong reading first, then back with Shift+Tab and up with an arrow to the right one.
    press_to(page, "Tab", page.get_by_role("button", name="Check", exact=True))
    press_to(page, "Tab", page.get_by_role("radio", name=re.compile("^Each head normalises")))
    keys.press("ArrowDown")
    scale = page.get_by_role("radio", name="The two runs use different scale factors.")
    expect(scale).to_be_checked()
    lock = page.get_by_role("button", name="Lock in this reading")
    press_to(page, "Tab", lock)
    keys.press("Enter")
    expect(gate(page)).to_contain_text("The reading locked in is not the right one yet.")
    press_to(page, "Shift+Tab", scale)
    keys.press("ArrowUp")
    expect(page.get_by_role("radio", name=re.compile("^Each head normalises"))).to_be_checked()
    press_to(page, "Tab", lock)
    keys.press("Enter")
    expect(gate(page).get_by_role("heading")).to_have_text(
        "Your check: an outcome you produce met")
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")
    expect(gate(page)).to_contain_text(
        "6 of 6 numbers within tolerance, 5 needed. The right reading is locked in.")
    # The locked reading's controls are disabled now; Tab moves on past them.
    press_to(page, "Tab", page.get_by_role("slider", name="Output row 1, head A, slider"))
    assert console_errors == []


def test_a_projection_slider_moves_with_arrow_keys(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    open_d8(page, d8_url)
    page.keyboard.press("Tab")
    first = page.get_by_role("radio", name="The same two numbers.")
    press_to(page, "Tab", first)
    page.keyboard.press("Space")
    expect(first).to_be_checked()
    page.keyboard.press("Enter")  # Enter on a radio submits its form, as in a text field
    expect(page.get_by_role("heading", name="03 · Try it")).to_be_focused()

    slider = page.get_by_role("slider", name="Output row 1, head A, slider")
    tab_to(page, slider)
    page.keyboard.press("ArrowRight")
    expect(slider).to_have_value("1.1")
    entry = page.get_by_role("textbox", name="Output row 1, head A", exact=True)
    expect(entry).to_have_value("1.1000")
    through = page.get_by_role("row", name=re.compile("^through the projection"))
    expect(through).to_have_text(re.compile(r"1\.5136\s*0\.8744"))
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(slider).to_have_value("0.9")
    expect(through).to_have_text(re.compile(r"1\.2384\s*0\.8744"))

    # The reset button sits after the four entries; Space presses it.
    reset = page.get_by_role("button", name="Reset to identity")
    tab_to(page, reset)
    page.keyboard.press("Space")
    expect(slider).to_have_value("1")
    expect(through).to_have_text(re.compile(r"1\.3760\s*0\.8744"))
    assert console_errors == []

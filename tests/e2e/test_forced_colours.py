"""Under forced colours (Windows High Contrast), axe and the painted page agree: no text below
WCAG AA contrast, the primary buttons included."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from learner import open_d8
from test_accessibility import axe_violations, describe

BUTTON_COLOURS = """e => { const s = getComputedStyle(e);
    return [s.color, s.getPropertyValue('-webkit-text-fill-color')] }"""


def test_under_forced_colours_the_buttons_text_is_in_the_colour_it_is_painted(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    page.emulate_media(forced_colors="active")
    open_d8(page, d8_url)
    lock = page.get_by_role("button", name="Lock in my prediction")
    expect(lock).to_be_enabled()
    painted, filled = lock.evaluate(BUTTON_COLOURS)
    assert filled == painted  # what axe reads is what Chromium paints: the system's ButtonText
    options = {"runOnly": {"type": "rule", "values": ["color-contrast"]},
               "resultTypes": ["violations"]}
    violations = axe_violations(page, options)
    assert not violations, describe("under forced colours", violations)
    assert console_errors == []

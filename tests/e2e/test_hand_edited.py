"""A hand-edited record cannot claim what the numbers decide: the gate, or hints not yet earned."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from learner import gate, open_d8

KEY = "attention-lessons:d8:progress"
CLAIMS = {"version": 1, "gate": True, "prediction": "different", "why": "", "answers": {},
          "graded": {}, "attempts": {}, "runs": 0, "hints_opened": 2, "reading": "own_scores",
          "projection": [[1, 0], [0, 1]], "takeaway": None}


def test_a_record_claiming_the_gate_met_shows_what_the_numbers_say(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    page.add_init_script(f"localStorage.setItem({json.dumps(KEY)}, "
                         f"{json.dumps(json.dumps(CLAIMS))});")
    open_d8(page, d8_url)
    expect(gate(page)).to_have_accessible_name("Your check: an outcome you produce not yet")
    expect(gate(page).get_by_text("0 of 6 numbers within tolerance", exact=False)).to_be_visible()
    expect(page.get_by_role("button", name="Show the question")).to_be_disabled()
    hints = page.get_by_role("region", name="Ask for a hint")
    expect(hints.get_by_text("available after 3 evaluated runs", exact=False)).to_be_visible()
    assert console_errors == []

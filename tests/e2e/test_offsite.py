"""The whole D8 journey, and the track page, ask nothing of any other origin and log no error."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from playwright.sync_api import Page, expect

from conftest import python_ready
from learner import (
    MIXED_ANSWERS,
    check_answers,
    gate,
    lock_prediction,
    lock_reading,
    open_d8,
)

SameOrigin = Callable[[Iterable[str], str], None]


def test_the_whole_journey_stays_on_the_site(
    page: Page,
    d8_url: str,
    request_log: list[str],
    console_errors: list[str],
    assert_same_origin: SameOrigin,
) -> None:
    open_d8(page, d8_url)
    lock_prediction(page)
    for typed in ("1", "1.1", "1.2", "1.3"):  # four runs, each grading a new value
        check_answers(page, {"Head A, the output": typed})
    check_answers(page, MIXED_ANSWERS)
    page.get_by_role("button", name="Show the question").click()
    page.get_by_role("button", name="Show the answer").click()
    lock_reading(page)
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")

    page.get_by_role("slider", name="Output row 1, head B, slider").fill("2")
    page.get_by_role("textbox", name="Output row 2, head A", exact=True).fill("-1")
    projected = page.get_by_role("row", name="through the projection")
    expect(projected).to_contain_text("3.1248")
    page.get_by_label("Your takeaway", exact=True).fill("Each head has its own softmax.")
    page.get_by_role("button", name="Save takeaway").click()
    expect(page.get_by_text("Saved in this browser.")).to_be_visible()

    page.reload()
    python_ready(page)
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")
    expect(projected).to_contain_text("3.1248")
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_value(
        "Each head has its own softmax.")
    assert any(url.endswith("/pyodide/pyodide.asm.wasm") for url in request_log)
    assert_same_origin(request_log, page.url)
    assert console_errors == []


def test_the_track_page_stays_on_the_site(
    page: Page,
    site_url: str,
    request_log: list[str],
    console_errors: list[str],
    assert_same_origin: SameOrigin,
) -> None:
    page.goto(site_url)
    expect(page.get_by_role("heading", name="The track")).to_be_visible()
    expect(page.get_by_role("link", name="D8 · Two heads of dimension one")).to_be_visible()
    assert request_log
    assert_same_origin(request_log, page.url)
    assert console_errors == []

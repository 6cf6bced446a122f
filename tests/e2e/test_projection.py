"""The output projection: a 2×2 matrix, typed or slid, moves the concatenated heads."""

from __future__ import annotations

import re

from learner import PROJECTION_LABELS, lock_prediction, open_d8, row_cells, set_projection
from playwright.sync_api import Page, expect
from test_explore_page import VALUES, head_oracle

VECTORS = "The concatenated head outputs before and after the output projection"
SWAP = (("0", "1"), ("1", "0"))
STRETCH = (("2", "0"), ("0", "1"))


def through(page: Page, first: str, second: str) -> None:
    """Expect the projected vector in the table and in the sentence."""
    expect(row_cells(page, VECTORS, "through the projection")).to_have_text([first, second])
    expect(page.get_by_text(re.compile(r"^The concatenated heads are"))).to_have_text(
        "The concatenated heads are 1.3760 and 0.8744. Through this projection they come out "
        f"as {first} and {second}.")


def badge(page: Page, text: str) -> None:
    """Expect the projection panel's badge to read text."""
    panel = page.get_by_role("region", name="The output projection")
    expect(panel.get_by_text(text, exact=True)).to_be_visible()


def open_projection(page: Page, d8_url: str) -> None:
    open_d8(page, d8_url)
    lock_prediction(page)
    badge(page, "identity")
    expect(row_cells(page, VECTORS, "heads, concatenated")).to_have_text(["1.3760", "0.8744"])
    through(page, "1.3760", "0.8744")


def test_typed_matrices_swap_and_stretch_the_heads_and_reset_restores_identity(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    open_projection(page, d8_url)
    set_projection(page, SWAP)
    through(page, "0.8744", "1.3760")
    badge(page, "your matrix")
    expect(row_cells(page, VECTORS, "heads, concatenated")).to_have_text(["1.3760", "0.8744"])

    set_projection(page, STRETCH)
    through(page, "2.7519", "0.8744")
    expect(page.get_by_label("Output row 1, head A, slider")).to_have_value("2")

    page.get_by_role("button", name="Reset to identity").click()
    through(page, "1.3760", "0.8744")
    badge(page, "identity")
    for labels, row in zip(PROJECTION_LABELS, (("1", "0"), ("0", "1")), strict=True):
        for label, entry in zip(labels, row, strict=True):
            expect(page.get_by_label(label, exact=True)).to_have_value(entry)
    assert console_errors == []


def test_a_slider_moved_by_keyboard_moves_the_vector_and_its_number_field(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    open_projection(page, d8_url)
    slider = page.get_by_label("Output row 1, head A, slider", exact=True)
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(slider).to_have_value("1.1")
    expect(page.get_by_label("Output row 1, head A", exact=True)).to_have_value("1.1000")
    through(page, "1.5136", "0.8744")
    badge(page, "your matrix")

    page.get_by_label("Output row 2, head A, slider", exact=True).fill("-1")
    expect(page.get_by_label("Output row 2, head A", exact=True)).to_have_value("-1")
    through(page, "1.5136", "-0.5016")
    assert console_errors == []


def test_an_unreadable_entry_is_explained_and_leaves_the_vector_alone(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    open_projection(page, d8_url)
    set_projection(page, SWAP)
    through(page, "0.8744", "1.3760")
    field = page.get_by_label("Output row 1, head B", exact=True)
    field.fill("abc")
    expect(field).to_have_accessible_description(
        "“abc” is not a number. Type digits, such as 0.46 or 7/8.")
    through(page, "0.8744", "1.3760")
    expect(field).to_have_value("abc")
    expect(page.get_by_label("Output row 1, head B, slider", exact=True)).to_have_value("1")

    field.fill("1000")
    expect(field).to_have_accessible_description(re.compile(r" -100 (and|to) 100\."))
    through(page, "0.8744", "1.3760")

    field.fill("0.5")
    expect(field).to_have_accessible_description("")
    through(page, "0.4372", "1.3760")
    assert console_errors == []


def test_the_figure_follows_the_sliders_and_its_text_carries_the_numbers(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    import numpy as np  # noqa: PLC0415

    open_projection(page, d8_url)
    figure = page.get_by_role("img", name=re.compile(r"^The output projection on a plane"))
    expect(figure).to_have_accessible_name(
        re.compile(r"through the projection at 1\.3760, 0\.8744"))
    slider = page.get_by_label("Output row 1, head B, slider", exact=True)
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect(page.get_by_label("Output row 1, head B", exact=True)).to_have_value("0.5000")
    matrix = np.array([[1, 0.5], [0, 1]])
    q, k = np.array([2.0, -1.0]), np.array([[1.0, 0], [0, 1], [1, 1], [-1, 1]])
    heads = np.concatenate([head_oracle(q[i:i + 1], k[:, i:i + 1], VALUES[:, i:i + 1])["output"]
                            for i in (0, 1)])  # the fixture's two heads, by numpy
    projected = matrix @ heads
    expect(figure).to_have_accessible_name(re.compile(
        rf"through the projection at {projected[0]:.4f}, {projected[1]:.4f}; "
        r"column 1 at 1\.0000, 0\.0000; column 2 at 0\.5000, 1\.0000\."))
    arrow = page.locator("#projection_arrow_projected")
    edge = 2  # every vector here is within 2
    expect(arrow).to_have_attribute("x2", f"{150 + projected[0] / edge * 150:.2f}")
    expect(arrow).to_have_attribute("y2", f"{150 - projected[1] / edge * 150:.2f}")
    assert console_errors == []

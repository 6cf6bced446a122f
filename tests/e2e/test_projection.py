"""The output projection: a 2×2 matrix, typed or slid, moves the concatenated heads."""

from __future__ import annotations

import re

import numpy as np
from playwright.sync_api import Page, expect

from attention_lessons import LESSONS, Progress, work
from attention_lessons import projection_figure as drawn
from attention_lessons import set_projection as set_projection_entry
from attention_lessons.views import Box
from learner import PROJECTION_LABELS, lock_prediction, open_d8, row_cells, set_projection
from oracles import by_numpy, own_fixture

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


def typed_matrices_swap_and_stretch_the_heads_and_reset_restores_identity(page: Page) -> None:
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


def a_slider_moved_by_keyboard_moves_the_vector_and_its_number_field(page: Page) -> None:
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


def an_unreadable_entry_is_explained_and_leaves_the_vector_alone(page: Page) -> None:
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


def the_figure_follows_the_sliders_and_its_text_carries_the_numbers(page: Page) -> None:
    figure = page.get_by_role("img", name=re.compile(r"^The output projection on a plane"))
    expect(figure).to_have_accessible_name(
        re.compile(r"through the projection at 1\.3760, 0\.8744"))
    slider = page.get_by_label("Output row 1, head B, slider", exact=True)
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect(page.get_by_label("Output row 1, head B", exact=True)).to_have_value("0.5000")
    matrix = np.array([[1, 0.5], [0, 1]])
    # The fixture's heads, concatenated, by the lesson's numpy oracle.
    heads = np.concatenate([o.ravel() for o in by_numpy(D8.lesson).outputs])
    projected = matrix @ heads
    expect(figure).to_have_accessible_name(re.compile(
        rf"through the projection at {projected[0]:.4f}, {projected[1]:.4f}; "
        r"column 1 at 1\.0000, 0\.0000; column 2 at 0\.5000, 1\.0000\."))
    arrow = page.locator("#projection_arrow_projected")
    edge = 2  # every vector here is within 2
    expect(arrow).to_have_attribute("x2", f"{150 + projected[0] / edge * 150:.2f}")
    expect(arrow).to_have_attribute("y2", f"{150 - projected[1] / edge * 150:.2f}")


def back_to_identity(page: Page) -> None:
    page.get_by_role("button", name="Reset to identity").click()
    through(page, "1.3760", "0.8744")
    badge(page, "identity")


D8 = work(LESSONS["d8"], own_fixture(LESSONS["d8"]))
# The identity, then 200 random matrices on the sliders' grid.
MATRICES = [[[1.0, 0.0], [0.0, 1.0]],
            *(np.random.default_rng(34).integers(-30, 31, size=(200, 2, 2)) / 10).tolist()]
# Type each matrix into the four number fields, as a learner does, and read every label's box
# as the browser draws it (getBBox, in the viewBox's units): one call for all of them, where a
# fill a field would take a round trip each.
TYPED_AND_MEASURED = """(matrices) => matrices.map((matrix) => {
  matrix.forEach((row, r) => row.forEach((x, c) => {
    const field = document.getElementById(`w${r + 1}${c + 1}`);
    field.value = String(x);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }));
  return [...document.querySelectorAll(".projection-figure .point-label, .projection-figure .edge")]
    .map((label) => {
      const box = label.getBBox();
      return [label.id, label.textContent, box.x, box.y, box.x + box.width, box.y + box.height];
    });
})"""


def within(box: Box, bound: Box, slack: float = 0.5) -> bool:
    return (box.left >= bound.left - slack and box.right <= bound.right + slack
            and box.top >= bound.top - slack and box.bottom <= bound.bottom + slack)


def the_figures_labels_stay_inside_it_and_apart_at_any_matrix(page: Page) -> None:
    figure = page.get_by_role("img", name=re.compile(r"^The output projection on a plane"))
    for matrix, drawn_now in zip(MATRICES, page.evaluate(TYPED_AND_MEASURED, MATRICES),
                                 strict=True):
        progress = Progress()
        for r, row in enumerate(matrix):
            for c, x in enumerate(row):
                progress = set_projection_entry(progress, r, c, x)
        expected = drawn(progress, D8)
        assert expected is not None
        estimated = {f"projection_label_{a.id}": a.shown for a in expected.arrows}
        shown = [(element, text, Box(*box)) for element, text, *box in drawn_now
                 if text]  # an empty label draws nothing
        for n, (element, text, box) in enumerate(shown):
            assert box.inside(300), (matrix, text, box)
            assert not [other for _, other, b in shown[n + 1:] if box.overlaps(b)], (matrix, text)
            if element in estimated:  # the browser's box lies within the package's estimate
                guess = estimated[element]
                assert text == guess.text
                assert within(box, guess.box), (matrix, text, box, guess.box)
    assert expected is not None
    last = expected.arrows[3].vector  # the last matrix's second column, in the figure's words
    expect(figure).to_have_accessible_name(re.compile(re.escape(
        f"column 2 at {last[0]}, {last[1]}.")))


def test_matrices_move_the_heads_and_the_figure_bad_entries_are_explained_labels_stay_apart(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    """One start of D8 for five checks in turn, each from the identity."""
    open_projection(page, d8_url)
    typed_matrices_swap_and_stretch_the_heads_and_reset_restores_identity(page)
    a_slider_moved_by_keyboard_moves_the_vector_and_its_number_field(page)
    back_to_identity(page)
    an_unreadable_entry_is_explained_and_leaves_the_vector_alone(page)
    back_to_identity(page)
    the_figure_follows_the_sliders_and_its_text_carries_the_numbers(page)
    back_to_identity(page)
    the_figures_labels_stay_inside_it_and_apart_at_any_matrix(page)
    assert console_errors == []

"""The course: the track's statuses follow the learner, in this tab and in others, D8 says when 8.2
is not done yet, every link resolves, and D8 progress saved by the first site comes back whole."""

from __future__ import annotations

import json
import re
import urllib.request
from html.parser import HTMLParser
from urllib.parse import urljoin

import pytest
from playwright.sync_api import Locator, Page, expect

from attention_lessons.lessons import LESSONS
from conftest import python_ready, watch_errors
from learner import (
    D8,
    L82,
    Plan,
    answer_field,
    check_answers,
    gate,
    lock_prediction,
    lock_reading,
    open_page,
    reset_progress,
    runs,
)

FIRST_SITE_KEY = "attention-lessons:d8:progress"
FIRST_SITE_RECORD = {
    "answers": {"a_output": "1.376", "a_score_1": "3", "a_weight_1": "0.46", "b_output": "0.874",
                "b_score_2": "-1", "b_weight_1": "0.47"},
    "attempts": {"a_output": 2, "a_score_1": 3, "a_weight_1": 3, "b_output": 5, "b_score_2": 1,
                 "b_weight_1": 3},
    "gate": True,
    "graded": {"a_output": 1.376, "a_score_1": 3.0, "a_weight_1": 0.46, "b_output": 0.874,
               "b_score_2": -1.0, "b_weight_1": 0.47},
    "hints_opened": 2, "prediction": "close", "projection": [[1.0, 0.5], [-1.5, 1.0]],
    "reading": "own_scores", "runs": 5, "takeaway": "Each head has its own softmax.",
    "version": 1, "why": "heads are halves",
}
# Seeds the record once, before the page's own scripts run, as the first site would have left it.
SEED = """([key, value]) => {
  if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
}"""


def lesson_row(page: Page, code: str) -> Locator:
    """A lesson's entry on the track, by the code its link starts with."""
    return page.get_by_role("listitem").filter(has=page.get_by_role("link", name=re.compile(code)))


def meet_gate(page: Page, plan: Plan) -> None:
    """Lock the right prediction, answers and reading on an open lesson page."""
    lock_prediction(page, plan.right_prediction)
    check_answers(page, plan.right_answers)
    lock_reading(page, plan.right_reading)
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")


def the_track_shows_nothing_started_and_d8_waiting_for_8_2(page: Page) -> None:
    """The first checks of the_track_follows_the_learner_and_d8_waits_for_8_2_without_blocking,
    on the track as it first renders."""
    expect(page.get_by_role("heading", name="Learn machine learning", level=1)).to_be_visible()
    expect(lesson_row(page, "8.2")).to_contain_text("Status: not started")
    expect(lesson_row(page, "D8")).to_contain_text("opens once 8.2 is done")
    expect(lesson_row(page, "D8")).to_contain_text("Status: not started")


def the_track_and_d8_follow_what_8_2_saves_in_another_tab(
    page: Page, site_url: str
) -> tuple[list[str], list[str]]:
    """D8 and 8.2 open in two more tabs beside the track; then 8.2's Reset there leaves 8.2 as
    it was before, and both tabs close. Returns their error logs."""
    d8 = page.context.new_page()
    d8_errors = watch_errors(d8)
    open_page(d8, f"{site_url}d8/")
    notice = d8.get_by_text(re.compile(r"^This deep dive builds on 8\.2 Attention by hand"))
    expect(notice).to_be_visible()
    other = page.context.new_page()
    other_errors = watch_errors(other)
    open_page(other, f"{site_url}8-2/")
    lock_prediction(other, L82.right_prediction)
    expect(lesson_row(page, "8.2")).to_contain_text("Status: in progress")
    check_answers(other, L82.right_answers)
    lock_reading(other, L82.right_reading)
    expect(lesson_row(page, "8.2")).to_contain_text("Status: done")
    expect(lesson_row(page, "D8")).to_contain_text("open")
    expect(lesson_row(page, "D8")).not_to_contain_text("opens once")
    expect(notice).to_be_hidden()
    reset_progress(other)  # 8.2 not started again, on its page and on the track
    expect(other.get_by_role("button", name="Lock in my prediction")).to_be_enabled()
    expect(lesson_row(page, "8.2")).to_contain_text("Status: not started")
    expect(lesson_row(page, "D8")).to_contain_text("opens once 8.2 is done")
    d8.close()
    other.close()
    return d8_errors, other_errors


def the_track_follows_the_learner_and_d8_waits_for_8_2_without_blocking(
    page: Page, site_url: str
) -> None:
    """From the track, with nothing started: D8 by its link, 8.2 by D8's notice, back to the
    track; then 8.2 met, D8 by 8.2's link and met, and the track once more."""
    lesson_row(page, "D8").get_by_role("link").click()
    python_ready(page)
    notice = page.get_by_text(re.compile(r"^This deep dive builds on 8\.2 Attention by hand"))
    expect(notice).to_be_visible()
    lock_prediction(page, D8.right_prediction)  # an optional deep dive never blocks anyone
    notice.get_by_role("link", name="8.2 Attention by hand").click()
    expect(page).to_have_url(f"{site_url}8-2/")
    python_ready(page)
    lock_prediction(page, L82.right_prediction)

    page.get_by_role("link", name="All lessons").click()
    python_ready(page)
    expect(lesson_row(page, "8.2")).to_contain_text("Status: in progress")
    expect(lesson_row(page, "D8")).to_contain_text("Status: in progress")
    expect(lesson_row(page, "D8")).to_contain_text("opens once 8.2 is done")

    open_page(page, f"{site_url}8-2/")
    check_answers(page, L82.right_answers)
    lock_reading(page, L82.right_reading)
    expect(gate(page)).to_contain_text("Met.")
    page.get_by_role("link", name="Two heads of dimension one").click()
    expect(page).to_have_url(f"{site_url}d8/")
    python_ready(page)
    expect(page.get_by_text(re.compile(r"^This deep dive builds on"))).to_be_hidden()
    check_answers(page, D8.right_answers)
    lock_reading(page, D8.right_reading)
    expect(gate(page)).to_contain_text("Met.")

    open_page(page, site_url)
    expect(lesson_row(page, "8.2")).to_contain_text("Status: done")
    expect(lesson_row(page, "D8")).to_contain_text("Status: done")
    expect(lesson_row(page, "D8")).to_contain_text("open")
    expect(lesson_row(page, "D8")).not_to_contain_text("opens once")


def test_the_track_follows_the_learner_in_other_tabs_and_in_this_one_and_d8_waits_for_8_2(
    page: Page, site_url: str, console_errors: list[str]
) -> None:
    """One start of the track shared by two checks that each began with it: first, the track
    and D8 follow what 8.2 saves in another tab, and 8.2's Reset there leaves nothing started;
    then the track follows the learner in this tab, and D8 waits for 8.2 without blocking."""
    open_page(page, site_url)
    the_track_shows_nothing_started_and_d8_waiting_for_8_2(page)
    d8_errors, other_errors = the_track_and_d8_follow_what_8_2_saves_in_another_tab(
        page, site_url)
    the_track_follows_the_learner_and_d8_waits_for_8_2_without_blocking(page, site_url)
    assert console_errors == d8_errors == other_errors == []


def test_d8_progress_saved_by_the_first_site_comes_back_whole(
    page: Page, d8_url: str, console_errors: list[str]
) -> None:
    page.add_init_script(f"({SEED})({json.dumps([FIRST_SITE_KEY, json.dumps(FIRST_SITE_RECORD)])})")
    open_page(page, d8_url)
    expect(page.get_by_label("Within about 0.01 of each other.")).to_be_checked()
    expect(page.get_by_text("Your reason then: heads are halves")).to_be_visible()
    for label, typed in zip(D8.right_answers, ["3", "0.46", "1.376", "-1", "0.47", "0.874"],
                            strict=True):
        expect(answer_field(page, label)).to_have_value(typed)
    expect(page.get_by_text("Attempts: 5")).to_be_visible()
    expect(runs(page)).to_have_text("You have run it 5 times.")
    expect(page.get_by_text(re.compile(r"^In head A, keys 1 and 3 both score 2"))).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Head A, the score for key 1: 2\."))).to_be_visible()
    expect(page.get_by_text(re.compile(r"^Right\. Each head's softmax"))).to_be_visible()
    expect(page.get_by_label("Output row 1, head B", exact=True)).to_have_value("0.5000")
    expect(page.get_by_label("Output row 2, head A", exact=True)).to_have_value("-1.5000")
    expect(page.get_by_label("Your takeaway", exact=True)).to_have_value(
        "Each head has its own softmax.")
    expect(gate(page)).to_contain_text("Met. You demonstrated it on these numbers.")
    assert console_errors == []


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href and not href.startswith("#"):
            self.hrefs.append(href)


@pytest.mark.parametrize("path", ["", *(f"{slug}/" for slug in LESSONS)])
def test_every_link_on_every_page_resolves(site_url: str, path: str) -> None:
    with urllib.request.urlopen(site_url + path) as response:
        links = _Links()
        links.feed(response.read().decode("utf-8"))
    assert links.hrefs
    for href in links.hrefs:
        with urllib.request.urlopen(urljoin(site_url + path, href)) as target:
            assert target.status == 200, href

"""Where progress is kept, in words: the track's line, the browser's answers, Safari's engine
told from the others by its user agent, the back-up suggestion, and the import's summary."""

from __future__ import annotations

import pytest

from attention_lessons import (
    DISMISSED,
    FAILED,
    KEPT,
    MAY_BE_CLEARED,
    NO_API,
    backed_up_at,
    brought_in,
    course_link,
    export_course,
    holds_work,
    incoming_update,
    is_webkit,
    kept_line,
    persist_said,
    read_course,
    read_link,
    save_takeaway,
    suggest_backup,
)
from attention_lessons.progress import standing
from course_work import FINISHED, FRESH, WORKED, started

SAFARI_MAC = ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like "
              "Gecko) Version/18.1 Safari/605.1.15")
WEBKIT_GTK = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 (KHTML, like Gecko) "
              "Version/18.0 Safari/605.1.15")
CHROME_IOS = ("Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 "
              "(KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1")
CHROMIUM = ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/156.0.0.0 Safari/537.36")
EDGE = CHROMIUM + " Edg/156.0.0.0"
FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"


@pytest.mark.parametrize(("agent", "touch", "webkit"), [
    (SAFARI_MAC, 0, True), (WEBKIT_GTK, 0, True), (CHROME_IOS, 5, True),
    (SAFARI_MAC, 5, True),  # an iPad asking for the desktop site
    (CHROMIUM, 0, False), (CHROMIUM.replace("Chrome/", "HeadlessChrome/"), 0, False),
    (EDGE, 0, False), (FIREFOX, 0, False), ("", 0, False),
])
def test_safaris_engine_is_told_by_its_user_agent(agent: str, touch: int, webkit: bool) -> None:
    assert is_webkit(agent, touch) is webkit


def test_the_line_says_this_browser_only_whether_it_agreed_and_the_last_backup() -> None:
    assert kept_line(None, "") == ("Your progress is kept in this browser only, and this browser "
                                   "does not say whether it will keep it. Last backed up: never.")
    assert "has agreed to keep it. Last backed up: 4/12/2026, 10:31." in kept_line(
        True, "4/12/2026, 10:31")
    assert "may clear it to make room" in kept_line(False, "")


def test_each_answer_of_the_browser_is_said() -> None:
    said = {answer: persist_said(answer) for answer in (KEPT, MAY_BE_CLEARED, NO_API, FAILED)}
    assert len(set(said.values())) == 4
    assert said[KEPT].startswith("This browser agreed")
    assert all("Back it up" in text for answer, text in said.items() if answer != KEPT)


@pytest.mark.parametrize(("raw", "at"), [
    ("1764887400000", 1_764_887_400_000), (None, None), ("", None), ("-1", None), ("1e9", None),
    ("9" * 16, None), (12, None),
])
def test_only_a_time_this_page_stored_is_read_as_the_last_backup(
    raw: object, at: int | None
) -> None:
    assert backed_up_at(raw) == at


def test_the_suggestion_comes_with_a_met_gate_and_stays_dismissed() -> None:
    worked = WORKED["d8"]
    assert not holds_work(FRESH["d8"])
    assert holds_work(started(worked))
    assert not suggest_backup(standing(started(worked), worked), None)
    assert suggest_backup(standing(FINISHED["d8"], worked), None)
    assert not suggest_backup(standing(FINISHED["d8"], worked), DISMISSED)


def test_the_link_is_the_pages_address_with_the_progress_in_its_fragment() -> None:
    link = course_link("https://example.org/learn/#progress=1.old", FINISHED)
    address, _, fragment = link.partition("#")
    assert address == "https://example.org/learn/"
    assert read_link(f"#{fragment}", FRESH, WORKED).records() == FINISHED


def test_the_summary_offers_a_confirm_only_where_it_changes_something() -> None:
    incoming = read_course(export_course(FINISHED), FRESH, WORKED)
    update = incoming_update(incoming, WORKED)
    assert update.hidden == {"course_import_confirm": False,
                             **{f"takeaway_choice_{slug}": True for slug in WORKED}}
    assert update.texts["course_import_confirm"] == "Bring in the file's progress"
    assert update.texts["course_import_message"].count("\n") == len(WORKED) - 1
    assert brought_in(incoming, WORKED).startswith("Brought in from the file: 8.2, D8")
    same = incoming_update(read_link(course_link("http://x/", FINISHED)[len("http://x/"):],
                                     FINISHED, WORKED), WORKED)
    assert same.hidden["course_import_confirm"]
    assert same.texts["course_import_message"].endswith("so there is nothing to confirm.")
    assert same.texts["course_import_confirm"] == "Bring in the link's progress"


def test_two_takeaways_are_offered_to_choose_and_the_confirm_follows_the_choice() -> None:
    here = {**FINISHED, "8-2": save_takeaway(FINISHED["8-2"], "mine")}
    incoming = read_course(export_course(FINISHED), here, WORKED)
    update = incoming_update(incoming, WORKED)
    assert not update.hidden["takeaway_choice_8-2"]
    assert update.hidden["takeaway_choice_d8"]
    assert update.hidden["course_import_confirm"]  # nothing changes while the one here stays
    assert update.texts["takeaway_here_8-2_text"] == "Yours here: “mine”"
    assert update.texts["takeaway_theirs_8-2_text"] == f"The file's: “{FINISHED['8-2'].takeaway}”"
    assert update.checked["takeaway_here_8-2"]
    assert not update.checked["takeaway_theirs_8-2"]
    chosen = incoming_update(incoming, WORKED, their_takeaways=frozenset({"8-2"}))
    assert not chosen.hidden["course_import_confirm"]
    assert chosen.checked["takeaway_theirs_8-2"]
    assert not chosen.checked["takeaway_here_8-2"]
    blocked = incoming_update(incoming, WORKED, can_store=False,
                              their_takeaways=frozenset({"8-2"}))
    assert blocked.hidden["course_import_confirm"]
    assert blocked.hidden["takeaway_choice_8-2"]
    assert blocked.texts["course_import_message"].endswith(
        "nothing can be brought in here: allow this site to keep data, then try again.")

"""One backup for the whole course: every lesson in one file, read strictly, merged on confirm."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given

from attention_lessons import (
    COURSE_FILE,
    LESSONS,
    Progress,
    Unreadable,
    check_size,
    confirm_course,
    export_course,
    export_json,
    lock_prediction,
    read_course,
    save_takeaway,
    track_view,
)
from attention_lessons.engine import StateError
from attention_lessons.progress import bring_in, check, gate, to_json
from attention_lessons.views import status
from course_work import FINISHED, FRESH, WORKED, assert_refused, document, spoiled, started
from strategies import D8, progresses

MARKUP = '<img src=x onerror="alert(1)"> <b>done</b> &amp; </textarea><script>x()</script>'


def backup(**changes: object) -> str:
    return json.dumps(document(**changes))


def with_record(slug: str, **fields: object) -> str:
    return json.dumps(spoiled(slug, **fields))


def test_a_backup_holds_every_lesson_by_slug_and_says_what_kind_it_is() -> None:
    decoded = json.loads(export_course(FINISHED))
    assert (decoded["kind"], decoded["version"]) == ("attention-lessons course progress", 1)
    assert decoded["lessons"] == {slug: json.loads(to_json(p)) for slug, p in FINISHED.items()}
    assert set(decoded["lessons"]) == set(LESSONS)
    assert COURSE_FILE == "attention-lessons-course-progress.json"


def test_a_fresh_browser_gets_every_lesson_back_as_it_was() -> None:
    incoming = read_course(export_course(FINISHED), FRESH, WORKED)
    assert incoming.records() == FINISHED
    assert track_view(incoming.records(), WORKED) == track_view(FINISHED, WORKED)
    codes = [line.split(":")[0] for line in incoming.summary]
    assert codes == [lesson.code for lesson in LESSONS.values()]  # track order
    assert codes[:3] == ["8.2", "D8", "8.3"]
    assert incoming.summary[1] == (
        "D8: your progress here (no prediction, zero runs, 0 of 6 numbers right, gate not met) "
        "and the file's (a locked prediction, three runs, 6 of 6 numbers right, gate met, a "
        "takeaway) merge into a locked prediction, three runs, 6 of 6 numbers right, gate met, "
        "a takeaway.")


def test_one_lessons_downloaded_file_is_read_as_the_lesson_reads_it() -> None:
    one = export_json(FINISHED["d8"], LESSONS["d8"])
    incoming = read_course(one, FRESH, WORKED)
    assert incoming.records() == {"d8": FINISHED["d8"]}
    assert len(incoming.summary) == 1
    assert incoming.summary[0].startswith("D8: your progress here (no prediction")


def test_a_met_gate_here_stays_met_and_the_lesson_not_done_gains_the_backups_work() -> None:
    worked = WORKED["8-2"]
    begun = started(worked)
    for typed in ("1", "2", "3"):  # 8.2 begun there: four runs, every number wrong
        begun = check(begun, dict.fromkeys(worked.lesson.question_ids, typed), worked)
    here = {**FRESH, "8-2": FINISHED["8-2"]}
    records = read_course(export_course({**FINISHED, "8-2": begun}), here, WORKED).records()
    assert status(records["8-2"], worked) == "done"
    assert records["8-2"].answers == FINISHED["8-2"].answers
    assert records["8-2"].runs == begun.runs == 4
    assert records["d8"] == FINISHED["d8"]
    assert records["8-3"] == FINISHED["8-3"]


def test_attempts_and_runs_never_go_down_and_the_backups_answers_come_in() -> None:
    worked = WORKED["d8"]
    here = FINISHED["d8"]
    for typed in ("1", "2", "3"):  # three more runs here, the numbers now wrong
        here = check(here, dict.fromkeys(worked.lesson.question_ids, typed), worked)
    here = save_takeaway(here, "my line from this browser")
    merged = bring_in(here, FINISHED["d8"], worked)
    assert merged.runs == here.runs == FINISHED["d8"].runs + 3
    assert merged.attempts == here.attempts
    assert merged.answers == FINISHED["d8"].answers  # the backup's, brought in now
    assert gate(merged, worked)
    untouched = bring_in(here, replace(FINISHED["d8"], takeaway=None), worked)
    assert untouched.takeaway == "my line from this browser"  # the backup has none to bring


def test_of_two_takeaways_the_one_here_stays_unless_the_learner_chooses_the_backups() -> None:
    worked = WORKED["8-2"]
    here = save_takeaway(FINISHED["8-2"], "written here, later")
    incoming = read_course(export_course(FINISHED), {**FINISHED, "8-2": here}, WORKED)
    assert incoming.records() == {}  # nothing else is new, and the one here is kept
    assert incoming.summary[0] == (
        "8.2: the file brings nothing new but its takeaway; your progress here stays (a locked "
        "prediction, three runs, 6 of 6 numbers right, gate met, a takeaway). Your takeaway "
        "here and the file's differ: choose below which to keep.")
    part = incoming.lessons[0]
    assert part.takeaways == ("written here, later", FINISHED["8-2"].takeaway)
    assert incoming.records(frozenset({"8-2"})) == {"8-2": FINISHED["8-2"]}
    assert bring_in(here, FINISHED["8-2"], worked).takeaway == "written here, later"
    assert bring_in(here, FINISHED["8-2"], worked, True).takeaway == FINISHED["8-2"].takeaway
    assert bring_in(FRESH["8-2"], FINISHED["8-2"], worked).takeaway == FINISHED["8-2"].takeaway


def test_a_prediction_locked_here_is_never_changed_by_a_merge_and_the_summary_says_so() -> None:
    worked = WORKED["8-2"]
    lesson = worked.lesson
    first, last = lesson.predictions[0], lesson.predictions[-1]
    here = lock_prediction(Progress(), lesson, last.id, "my own reason")
    theirs = lock_prediction(Progress(), lesson, first.id, "the link's reason")
    merged = bring_in(here, theirs, worked)
    assert (merged.prediction, merged.why) == (last.id, "my own reason")
    incoming = read_course(export_course({"8-2": theirs}), {**FRESH, "8-2": here}, WORKED)
    assert incoming.summary[0].endswith(
        f"The file's locked prediction (“{first.label}”) differs from yours here "
        f"(“{last.label}”): yours stays, with your reason, since a locked prediction changes "
        "only through Reset.")
    assert bring_in(FRESH["8-2"], theirs, worked).prediction == first.id  # nothing locked here


@pytest.mark.parametrize("newer", [True, False])
def test_a_record_here_this_page_cannot_read_is_named_and_never_written_over(
        newer: bool) -> None:
    here: dict[str, Progress | Unreadable] = {**FRESH, "d8": Unreadable(newer)}
    incoming = read_course(export_course(FINISHED), here, WORKED)
    assert set(incoming.records()) == set(LESSONS) - {"d8"}
    said = incoming.summary[1]
    if newer:
        assert said == ("D8: your progress here was saved by a newer version of this site, "
                        "which this page cannot read, so it is left as it is and nothing of the "
                        "file's is brought in for it. Reload the page to bring this in.")
    else:
        assert said.startswith("D8: your progress here cannot be read, so it is left as it is")
    assert track_view(here, WORKED)[1].status.startswith(
        "Status: saved by a newer version" if newer else "Status: its saved progress cannot")


def test_a_takeaway_saved_here_after_the_summary_shows_it_again() -> None:
    incoming = read_course(export_course(FINISHED), FRESH, WORKED)
    later = {**FRESH, "8-2": save_takeaway(Progress(), "saved in another tab meanwhile")}
    again = confirm_course(incoming, later, WORKED)
    assert again.changed
    assert again.lessons[0].takeaways == ("saved in another tab meanwhile",
                                          FINISHED["8-2"].takeaway)
    assert not confirm_course(again, later, WORKED).changed
    unreadable = confirm_course(incoming, {**FRESH, "d8": Unreadable(True)}, WORKED)
    assert unreadable.changed
    assert "d8" not in unreadable.records()


def test_a_backup_that_brings_nothing_new_changes_nothing_and_says_so() -> None:
    incoming = read_course(export_course(FINISHED), FINISHED, WORKED)
    assert incoming.records() == {}
    assert incoming.summary[0] == (
        "8.2: the file brings nothing new; your progress here stays (a locked prediction, "
        "three runs, 6 of 6 numbers right, gate met, a takeaway).")


def test_the_confirm_merges_into_the_progress_here_now_and_says_so_when_it_changed() -> None:
    incoming = read_course(export_course(FINISHED), FRESH, WORKED)
    assert not confirm_course(incoming, FRESH, WORKED).changed
    moved_on = {**FRESH, "d8": started(WORKED["d8"])}
    again = confirm_course(incoming, moved_on, WORKED)
    assert again.changed
    assert again.summary[0] == ("Your progress here changed since you chose the file, so "
                                "nothing was brought in yet. This is what it brings in now:")
    assert "D8: your progress here (a locked prediction, one run, 0 of 6" in again.summary[2]
    confirmed = confirm_course(again, moved_on, WORKED)
    assert not confirmed.changed
    assert confirmed.records() == FINISHED  # D8's lock, runs and numbers: the backup's are later


@given(progresses, progresses)
def test_merging_a_backup_never_loses_a_met_gate_nor_a_count(mine: Progress,
                                                            theirs: Progress) -> None:
    merged = bring_in(mine, theirs, D8)
    assert gate(merged, D8) >= max(gate(mine, D8), gate(theirs, D8))
    assert merged.runs == max(mine.runs, theirs.runs)
    assert merged.hints_opened >= max(mine.hints_opened, theirs.hints_opened)
    for qid in {*mine.attempts, *theirs.attempts}:
        assert merged.attempts[qid] >= max(mine.attempts.get(qid, 0), theirs.attempts.get(qid, 0))
    locked = {mine.prediction, theirs.prediction} - {None}
    assert merged.prediction in (locked or {None})  # a lock from either side, never lost


def test_markup_in_a_takeaway_is_kept_as_the_text_it_is_and_never_shown_in_a_summary() -> None:
    marked = {**FINISHED, "d8": save_takeaway(FINISHED["d8"], MARKUP)}
    incoming = read_course(export_course(marked), FRESH, WORKED)
    assert incoming.records()["d8"].takeaway == MARKUP
    assert not any("<" in line or "&" in line for line in incoming.summary)


def test_a_gate_claimed_but_not_met_is_told_and_not_met_here() -> None:
    incoming = read_course(with_record("d8", answers={}, gate=True), FRESH, WORKED)
    assert incoming.summary[1].endswith(
        "gate not met, a takeaway. The file says its gate was met, but its numbers and reading "
        "do not meet it, so here it will not be.")
    assert not gate(incoming.records()["d8"], WORKED["d8"])


def test_a_lesson_this_site_lacks_is_named_and_left_out() -> None:
    decoded = spoiled("x9", anything="at all")
    decoded["lessons"]["y" * 300] = []
    incoming = read_course(json.dumps(decoded), FRESH, WORKED)
    assert incoming.records() == FINISHED
    assert incoming.summary[-1] == (
        "The file also holds progress for lessons this site does not have ('x9', "
        f"'{'y' * 37}...'); it is left out.")


FIRST_BRACE = export_course(FINISHED).replace("{", "(", 1)


@pytest.mark.parametrize(("text", "said"), [
    pytest.param("", "That file is not a progress file (it is not JSON)", id="empty"),
    pytest.param(export_course(FINISHED)[:-40], "(it is not JSON)", id="truncated"),
    pytest.param(FIRST_BRACE, "(it is not JSON)", id="one character changed: a brace"),
    pytest.param(export_course(FINISHED).replace("course", "coarse", 1),
                 "That file is from this site but holds something other than progress",
                 id="one character changed: the kind"),
    pytest.param(export_course(FINISHED).replace('"version": 1', '"version": 7', 1),
                 "was made by a newer version of this site (backup version 7; this page reads "
                 "version 1)", id="one character changed: the version"),
    pytest.param('{"kind": "another site backup", "lessons": {}}',
                 "That file is not progress downloaded from this site", id="another site's"),
    pytest.param("[1, 2]", "That file is not progress downloaded from this site",
                 id="not an object"),
    pytest.param(backup(kind="attention-lessons notes"),
                 "from this site but holds something other than", id="another kind"),
    pytest.param(" " * 10_000_000, "That file is far too big to be progress saved from this "
                 "site", id="10 MB"),
    pytest.param("[" * 100_000 + "]" * 100_000, "That file nests deeper than 20 levels",
                 id="100,000 deep"),
    pytest.param(with_record("d8", streak=3), "That file's progress for D8 could not be read "
                 "(saved progress has an unknown field 'streak')", id="an unknown field"),
    pytest.param(backup(sent="today"), "That file has a field this site does not know, 'sent'",
                 id="an unknown top field"),
    pytest.param(backup(version=2), "newer version of this site (backup version 2; this page "
                 "reads", id="a future backup version"),
    pytest.param(backup(version=10**4000), "That file was made by a newer version of this site "
                 "(this page reads version 1)", id="a version of 4,000 digits"),
    pytest.param(backup(version="1"), "That file is not a course backup this site made (it has "
                 "no version 1)", id="a version in words"),
    pytest.param(backup(version=True), "is not a course backup this site made",
                 id="a version true"),
    pytest.param(with_record("8-3", version=7), "That file's progress for 8.3 could not be read "
                 "(saved progress has unknown version 7)", id="a future record version"),
    pytest.param(with_record("8-2", runs=-1),
                 "for 8.2 could not be read (runs: expected a whole number",
                 id="a count below zero"),
    pytest.param(backup(lessons={"x9": {}}), "That file holds progress only for a lesson this "
                 "site does not have ('x9')", id="a lesson this site lacks"),
    pytest.param(json.dumps({"kind": "attention-lessons progress", "lesson": "x9",
                             "progress": {}}),
                 "holds progress only for a lesson this site does not have ('x9')",
                 id="one lesson's file for a lesson this site lacks"),
    pytest.param(json.dumps({"kind": "attention-lessons progress", "lesson": 8,
                             "progress": {}}),
                 "That file is not progress downloaded from this site", id="a lesson by number"),
    pytest.param(backup(lessons={}), "That file holds no lesson's progress", id="no lessons"),
    pytest.param(backup(lessons=[]), "That file holds no lessons' progress where a backup keeps "
                 "it", id="lessons not an object"),
])
def test_a_bad_file_gets_its_message_and_changes_nothing(text: str, said: str) -> None:
    assert_refused(lambda here: read_course(text, here, WORKED), said)


def test_a_ten_megabyte_file_is_refused_by_its_size_before_it_is_read() -> None:
    with pytest.raises(StateError, match="far too big"):
        check_size(10_000_000)
    check_size(len(export_course(FINISHED)))


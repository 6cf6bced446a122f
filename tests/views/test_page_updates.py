"""Everything the pages write for a fixed set of records is what it was when this test was made:
each page update, announcement, figure and summary of the lessons it was made with, by its
SHA-256 in tests/page_updates.json (a lesson added since is not among them).

A change that means to alter what a learner reads changes that file too, and says so; a change
of structure alone (moving code, renaming it) leaves it as it is. To write the file anew:
`.venv/bin/python tests/test_page_updates.py --write`.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from attention_lessons import (
    Progress,
    Worked,
    bars_html,
    choose_scale,
    explore_update,
    explore_view,
    export_course,
    fixed_view,
    incoming_update,
    keys_html,
    move,
    open_hint,
    page_update,
    progress_view,
    projection_figure,
    projection_figure_update,
    read_course,
    save_takeaway,
    set_explore,
    show_full_precision,
    steps_html,
    track_view,
    update_json,
)
from attention_lessons.progress import check
from course_work import FINISHED, FRESH, WORKED, announced, finished, started

GOLDEN = Path(__file__).with_name("page_updates.json")


def records(worked: Worked) -> dict[str, Progress]:
    """A lesson's records at each stage a learner passes, Explore's experiments among them."""
    lesson = worked.lesson
    begun = started(worked)
    wrong = check(begun, dict.fromkeys(lesson.question_ids, "1/3"), worked)
    hinted = open_hint(check(wrong, dict.fromkeys(lesson.question_ids, "2"), worked), lesson, 1)
    done = finished(worked)
    explore = done.explore
    if lesson.scale_choices():
        explore = choose_scale(explore, lesson, lesson.scale_choices()[-1].id)
    moved = set_explore(done, show_full_precision(move(explore, worked.fixture, "key_1", -2.5,
                                                       1.5), True))
    return {"fresh": Progress(), "begun": begun, "wrong": wrong, "hinted": hinted,
            "done": done, "moved": moved}


def texts(lessons: list[str]) -> Iterator[tuple[str, str]]:
    """Every text the pages write for the records of these lessons, by a name that says where
    it comes from."""
    course_worked = {slug: WORKED[slug] for slug in lessons}
    for slug, worked in course_worked.items():
        fixed = fixed_view(worked)
        for head in fixed.heads:
            yield f"{slug} head {head.id}", "\n".join(
                (head.scale, head.intro, head.summary, head.figure_text, bars_html(head.bars),
                 steps_html(head), keys_html(head)))
        yield f"{slug} comparison", repr(fixed.comparison)
        for stage, progress in records(worked).items():
            name = f"{slug} {stage}"
            yield f"{name} page", update_json(page_update(progress_view(progress, worked)))
            yield f"{name} check", announced(Progress(), progress, worked)
            view = explore_view(worked.lesson, worked.fixture, progress.explore)
            yield f"{name} explore", update_json(explore_update(view))
            figure = projection_figure(progress, worked)
            if figure is not None:
                yield f"{name} projection", update_json(projection_figure_update(figure))
    for stage in ("fresh", "wrong", "done"):
        course = {slug: records(w)[stage] for slug, w in course_worked.items()}
        yield f"track {stage}", repr(track_view(course, course_worked))
    finished = {slug: FINISHED[slug] for slug in lessons}
    fresh = {slug: FRESH[slug] for slug in lessons}
    theirs = {**finished, "8-2": save_takeaway(FINISHED["8-2"], "written here, later")}
    for name, here in (("fresh", fresh), ("begun", {**fresh, "d8": started(WORKED["d8"])}),
                       ("takeaways", theirs)):
        incoming = read_course(export_course(finished), here, course_worked)
        yield f"import {name}", update_json(incoming_update(incoming, course_worked))


def digests(lessons: list[str]) -> dict[str, str]:
    return {name: hashlib.sha256(text.encode()).hexdigest() for name, text in texts(lessons)}


def test_every_text_the_pages_write_is_as_it_was() -> None:
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    now = digests(golden["lessons"])
    was = golden["digests"]
    changed = sorted(name for name in was.keys() | now.keys() if was.get(name) != now.get(name))
    assert changed == [], f"these texts changed: {changed}"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    made = {"lessons": list(WORKED), "digests": digests(list(WORKED))}
    GOLDEN.write_text(json.dumps(made, indent=1, sort_keys=True) + "\n", encoding="utf-8")

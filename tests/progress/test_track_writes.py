"""The track's writes (its Import, the link, the backup): one read that tells an unreadable
record from an empty one, and a confirm that stores every lesson or none."""

from __future__ import annotations

import json

import pytest

from attention_lessons import (
    LESSONS,
    Progress,
    Store,
    Unreadable,
    export_course,
    left_out,
    read_course,
    readable,
    store_key,
)
from attention_lessons.progress import (
    Outcome,
    backup_key,
    load_record,
    not_brought_in,
    to_json,
)
from course_work import FINISHED, FRESH, WORKED, started
from stored import Memory, newer_records

D8 = LESSONS["d8"]
NEWER = newer_records()["a newer version"]
REFUSED_POINT = newer_records()["a refused explored point"]


def stored(memory: Memory) -> dict[str, str]:
    return dict(memory.items)


def test_a_record_this_page_cannot_read_is_peeked_as_unreadable_never_as_empty() -> None:
    memory = Memory()
    memory.items[store_key(D8)] = NEWER
    assert Store(memory).peek(D8) == Unreadable(newer=True)
    memory.items[store_key(D8)] = NEWER[:-20]  # cut short
    assert Store(memory).peek(D8) == Unreadable(newer=False)
    memory.items[store_key(D8)] = REFUSED_POINT  # salvaged: its graded work reads whole
    assert Store(memory).peek(D8) == load_record(REFUSED_POINT, D8).progress
    assert Store(memory).peek(LESSONS["8-2"]) == Progress()  # nothing saved


def test_the_confirm_stores_every_lesson_and_never_one_it_cannot_read() -> None:
    memory = Memory()
    memory.items[store_key(D8)] = NEWER
    store = Store(memory)
    here = {slug: store.peek(lesson) for slug, lesson in LESSONS.items()}
    records = read_course(export_course(FINISHED), here, WORKED).records()
    assert set(records) == set(LESSONS) - {"d8"}
    assert store.write_all((LESSONS[slug], r) for slug, r in records.items()) == (
        Outcome.SAVED, None)
    assert memory.items == {store_key(D8): NEWER,
                            **{store_key(LESSONS[s]): to_json(FINISHED[s]) for s in records}}
    before = stored(memory)
    refused = store.write_all([(D8, FINISHED["d8"])])  # asked anyway: refused, naming the lesson
    assert refused == (Outcome.OUT_OF_DATE, D8)
    assert not_brought_in(*refused) == (
        "Nothing was brought in: your progress for D8 here was saved by a newer version of "
        "this site, and it is left as it is.")
    assert stored(memory) == before


def test_a_record_with_a_part_that_cannot_be_read_is_set_aside_before_it_is_written() -> None:
    memory = Memory()
    memory.items[store_key(D8)] = REFUSED_POINT
    store = Store(memory)
    assert store.write_all([(D8, FINISHED["d8"])]) == (Outcome.SAVED, None)
    assert memory.items == {backup_key(D8): REFUSED_POINT, store_key(D8): to_json(FINISHED["d8"])}


def test_a_confirm_storage_refuses_stores_nothing_and_names_the_lesson() -> None:
    here = {"8-2": to_json(started(WORKED["8-2"]))}
    memory = Memory(quota=len(here["8-2"]) + len(to_json(FINISHED["8-2"])) + 100)
    memory.items[store_key(LESSONS["8-2"])] = here["8-2"]
    before = stored(memory)
    store = Store(memory)
    refused = store.write_all((LESSONS[slug], FINISHED[slug]) for slug in ("8-2", "d8"))
    assert refused == (Outcome.NOT_SAVED_YET, D8)
    assert not_brought_in(*refused) == (
        "Nothing was brought in: this browser's storage refused D8's progress (it may be "
        "full), so every lesson is as it was. Free some space for this site, then bring it in "
        "again.")
    assert stored(memory) == before  # 8.2, written first, is back as it was
    memory.quota = None
    assert store.write_all((LESSONS[slug], FINISHED[slug]) for slug in ("8-2", "d8")) == (
        Outcome.SAVED, None)
    assert json.loads(memory.items[store_key(D8)]) == json.loads(to_json(FINISHED["d8"]))
    assert Store(None).write_all([(D8, FINISHED["d8"])]) == (Outcome.NOT_SAVING, None)


def test_a_lessons_import_never_writes_over_a_record_another_tab_saved_that_it_cannot_read(
) -> None:
    memory = Memory()
    tab = Store(memory)
    tab.load(D8)
    memory.items[store_key(D8)] = NEWER  # another tab, on a newer build, saves meanwhile
    assert tab.put(D8, FINISHED["d8"]) == (FINISHED["d8"], Outcome.OUT_OF_DATE)
    assert memory.items == {store_key(D8): NEWER}


@pytest.mark.parametrize(("newer", "said"), [
    (True, " The file leaves out D8 (saved by a newer version of this site: reload the page to "
           "include it), so this is not counted as a backup."),
    (False, " The file leaves out D8 (its saved progress cannot be read: open D8 once to set it "
            "aside), so this is not counted as a backup."),
])
def test_a_backup_leaves_out_a_lesson_it_cannot_read_and_says_so(newer: bool, said: str) -> None:
    here: dict[str, Progress | Unreadable] = {**FRESH, "8-2": FINISHED["8-2"],
                                              "d8": Unreadable(newer)}
    assert readable(here) == {slug: here[slug] for slug in LESSONS if slug != "d8"}
    assert left_out(here, WORKED, "file") == said
    assert left_out(FINISHED, WORKED, "link") == ""

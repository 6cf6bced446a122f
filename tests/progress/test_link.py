"""The progress link: the course's backup in a URL fragment, bounded and checked like a file."""

from __future__ import annotations

import base64
import json
import tracemalloc
import zlib

import pytest

from attention_lessons import (
    LESSONS,
    export_json,
    holds_progress,
    read_link,
    save_takeaway,
    track_view,
)
from attention_lessons.engine import StateError
from attention_lessons.progress import MAX_LINK, gate, progress_link, unpack_link
from course_work import FINISHED, FRESH, WORKED, assert_refused, document, spoiled, started
from stored import sealed, sealed_json

LINK = progress_link(FINISHED)
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
DAMAGED = "That link is damaged: part of it is missing or changed"


def test_a_link_is_the_backup_deflated_raw_sealed_and_base64url_encoded() -> None:
    assert LINK.startswith("#progress=1.")
    payload = LINK.removeprefix("#progress=1.")
    assert set(payload) <= set(ALPHABET)
    data = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    assert zlib.crc32(data[:-4]).to_bytes(4, "little") == data[-4:]
    assert json.loads(zlib.decompress(data[:-4], -15)) == document()
    compact = json.dumps(document(), sort_keys=True, separators=(",", ":"))
    assert sealed(compact.encode()) == LINK


def test_a_finished_course_of_three_lessons_fits_a_link_of_at_most_2000_characters() -> None:
    course = {slug: FINISHED[slug] for slug in ("8-2", "8-3", "d8")}  # the course as shipped
    assert all(p.takeaway for p in course.values())
    link = progress_link(course)
    assert len(link) <= 2_000, len(link)


def test_opening_the_link_in_a_fresh_browser_brings_every_lesson_back() -> None:
    incoming = read_link(LINK, FRESH, WORKED)
    assert incoming.records() == FINISHED
    assert track_view(incoming.records(), WORKED) == track_view(FINISHED, WORKED)
    assert incoming.summary[0].startswith("8.2: your progress here (no prediction, zero runs")
    assert " and the link's (a locked prediction, three runs," in incoming.summary[0]


@pytest.mark.parametrize("level", [0, 1, 6])
def test_any_raw_deflate_stream_reads_and_the_hash_sign_may_be_left_off(level: int) -> None:
    text = json.dumps(document()).encode()
    assert unpack_link(sealed(text, level)) == text.decode()
    assert unpack_link(sealed(text, level).removeprefix("#")) == text.decode()


def test_a_met_gate_here_stays_met_and_the_lesson_not_done_gains_the_links_work() -> None:
    here = {**FRESH, "8-2": FINISHED["8-2"], "d8": started(WORKED["d8"])}
    link = progress_link({**FINISHED, "8-2": started(WORKED["8-2"])})
    records = read_link(link, here, WORKED).records()
    assert "8-2" not in records  # nothing there to bring: the gate met here stays
    assert gate(records["d8"], WORKED["d8"])
    assert records["d8"].runs == FINISHED["d8"].runs


def test_only_a_fragment_meant_as_a_progress_link_is_taken_for_one() -> None:
    assert holds_progress(LINK)
    assert holds_progress("progress=anything")
    assert not holds_progress("#section-2")
    assert not holds_progress("")
    assert not holds_progress("#access_token=progress=1.")
    assert not holds_progress("#backup")  # the track's own section
    assert not holds_progress("#progress_link")


@pytest.mark.parametrize("cut", ["#progress%3D", "#progress", "#progr", "#p", "#progress=",
                                 "#progress=1"])
def test_a_link_damaged_in_its_prefix_is_taken_for_one_and_refused_as_damaged(cut: str) -> None:
    assert holds_progress(cut)
    with pytest.raises(StateError, match=DAMAGED):
        unpack_link(cut)


def test_a_link_whose_equals_sign_was_escaped_on_the_way_reads_as_written() -> None:
    escaped = LINK.replace("=", "%3D", 1)
    assert escaped.startswith("#progress%3D1.")
    assert holds_progress(escaped)
    assert read_link(escaped, FRESH, WORKED).records() == FINISHED


def test_every_cut_and_every_changed_character_is_refused_as_damaged() -> None:
    start = len("#progress=1.")
    for end in range(start, len(LINK)):
        with pytest.raises(StateError, match=DAMAGED):
            unpack_link(LINK[:end])
    # Every character changed to every other, in a shorter link: the seal is the same check
    # at any length, and this one keeps the test quick.
    link = progress_link(FRESH)
    for at in range(start, len(link)):
        for other in ALPHABET.replace(link[at], ""):
            with pytest.raises(StateError, match=DAMAGED):
                unpack_link(link[:at] + other + link[at + 1:])


def test_markup_in_a_takeaway_comes_through_as_the_text_it_is() -> None:
    markup = '<img src=x onerror="alert(1)"> </textarea><script>x()</script> &amp;'
    marked = {**FINISHED, "8-3": save_takeaway(FINISHED["8-3"], markup)}
    incoming = read_link(progress_link(marked), FRESH, WORKED)
    assert incoming.records()["8-3"].takeaway == markup
    assert not any("<" in line for line in incoming.summary)


def test_a_gate_claimed_but_not_met_is_told_and_not_met_here() -> None:
    incoming = read_link(with_record("8-3", answers={}, gate=True), FRESH, WORKED)
    assert incoming.summary[2].endswith("The link says its gate was met, but its numbers and "
                                        "reading do not meet it, so here it will not be.")
    assert not gate(incoming.records()["8-3"], WORKED["8-3"])


def test_a_lesson_this_site_lacks_is_named_and_left_out() -> None:
    incoming = read_link(with_record("x9"), FRESH, WORKED)
    assert incoming.records() == FINISHED
    assert incoming.summary[-1] == ("The link also holds progress for a lesson this site does "
                                    "not have ('x9'); it is left out.")


def with_record(slug: str, **fields: object) -> str:
    return sealed_json(spoiled(slug, **fields))


ONE_CHANGED = LINK[:40] + ("A" if LINK[40] != "A" else "B") + LINK[41:]


@pytest.mark.parametrize(("fragment", "said"), [
    pytest.param("", "That link holds no progress from this site", id="empty"),
    pytest.param("#", "That link holds no progress from this site", id="a bare hash"),
    pytest.param("#progress=1.", DAMAGED, id="no payload"),
    pytest.param("#progress=", DAMAGED, id="no version"),
    pytest.param(LINK[:-1], DAMAGED, id="cut short by one"),
    pytest.param(LINK[: len(LINK) // 2], DAMAGED, id="truncated"),
    pytest.param(ONE_CHANGED, DAMAGED, id="one character changed"),
    pytest.param(LINK + "=", DAMAGED, id="padding this site never writes"),
    pytest.param(LINK.replace("-", "+").replace("_", "/"), DAMAGED, id="plain base64"),
    pytest.param(LINK[:30] + " " + LINK[30:], DAMAGED, id="a space inside"),
    pytest.param("#progress=one." + LINK[12:], DAMAGED, id="a version not a number"),
    pytest.param("#access_token=abc123", "That link holds no progress from this site",
                 id="another site's fragment"),
    pytest.param(sealed_json({"kind": "another site's progress", "lessons": {}}),
                 "That link is not progress copied from this site", id="another site's"),
    pytest.param(sealed_json([1, 2, 3]), "That link is not progress copied from this site",
                 id="not an object"),
    pytest.param(sealed_json(document(kind="attention-lessons notes")),
                 "That link is from this site but holds something other than progress",
                 id="another kind"),
    pytest.param("#progress=1." + "A" * 10_000_000, "That link is far too long to be progress "
                 f"copied from this site (over {MAX_LINK:,} characters)", id="10 MB"),
    pytest.param(sealed(b" " * 10_000_000),
                 "That link unpacks to what is far too big to be progress", id="a zip bomb"),
    pytest.param(sealed(b"[" * 100_000 + b"]" * 100_000),
                 "That link nests deeper than 20 levels", id="100,000 deep"),
    pytest.param(sealed(b"not json"), "That link is not a progress link (it is not JSON)",
                 id="not JSON"),
    pytest.param(sealed(b"\xff\xfe"), DAMAGED, id="not UTF-8"),
    pytest.param(sealed(b""), "(it is not JSON)", id="nothing sealed"),
    pytest.param(with_record("d8", streak=3), "That link's progress for D8 could not be read "
                 "(saved progress has an unknown field 'streak')", id="an unknown field"),
    pytest.param(sealed_json(document(sent="today")),
                 "That link has a field this site does not know", id="an unknown top field"),
    pytest.param("#progress=2." + LINK[12:],
                 "That link was made by a newer version of this site. Reload",
                 id="a future link version"),
    pytest.param(sealed_json(document(version=2)), "That link was made by a newer version of "
                 "this site (backup version 2; this page reads version 1)",
                 id="a future backup version"),
    pytest.param(with_record("8-2", version=7),
                 "for 8.2 could not be read (saved progress has unknown version 7)",
                 id="a future record version"),
    pytest.param(sealed_json(document(lessons={"x9": {}})),
                 "That link holds progress only for a lesson this site does not have ('x9')",
                 id="a lesson this site lacks"),
])
def test_a_bad_link_gets_its_message_and_changes_nothing(fragment: str, said: str) -> None:
    assert_refused(lambda here: read_link(fragment, here, WORKED), said)


def test_a_zip_bomb_is_unpacked_no_further_than_the_bound() -> None:
    bomb = sealed(bytes(30_000_000))  # 30 MB of zeros, in a link under the bound of a link
    assert len(bomb) < MAX_LINK
    tracemalloc.start()
    try:
        with pytest.raises(StateError, match="unpacks to what is far too big"):
            unpack_link(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000  # bytes: the bound, 200,000, and the link, never the 30 MB


def test_a_link_whose_seal_fits_but_whose_stream_does_not_is_damaged() -> None:
    text = json.dumps(document()).encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    for body in (b"\x07not deflate", packer.compress(text) + packer.flush() + b"more"):
        payload = base64.urlsafe_b64encode(body + zlib.crc32(body).to_bytes(4, "little"))
        with pytest.raises(StateError, match=DAMAGED):
            unpack_link("#progress=1." + payload.rstrip(b"=").decode())


def test_one_lessons_file_in_a_link_reads_as_that_lesson() -> None:
    one = sealed(export_json(FINISHED["8-3"], LESSONS["8-3"]).encode())
    assert read_link(one, FRESH, WORKED).records() == {"8-3": FINISHED["8-3"]}

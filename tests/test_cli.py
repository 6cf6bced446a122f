"""`python -m attention_lessons`: the lessons' numbers in a terminal, as text and as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from attention_lessons import LESSONS, attend, cli, compute, lesson_fixture, load_fixture, work
from attention_lessons.engine import Lesson, decimals, listing
from course_build.paths import FIXTURES
from wheels import unpack_wheel

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = "attention-8.2.json"


@pytest.fixture
def unpacked_wheel() -> Path:
    """The unpacked wheel: only what `pip install .` would install."""
    return unpack_wheel()


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert cli.main(list(argv)) == 0
    return capsys.readouterr().out


def test_d8_prints_both_heads_the_single_head_and_the_comparison(
    capsys: pytest.CaptureFixture[str],
) -> None:
    numbers = compute(load_fixture(FIXTURE, FIXTURES))
    text = run_cli(capsys, "d8")
    for head in numbers.heads:
        assert f"weights                                 {listing(head.weights)}" in text
    assert "head A, coordinate 1 (scale 1 / sqrt(1) = 1)" in text
    assert "one head of dimension two, from 8.2 (scale 1 / sqrt(2) = 0.7071)" in text
    assert f"two heads, concatenated                 {listing(numbers.concatenated)}" in text
    # The lesson's own numbers, as the spec prints them.
    assert "1.3760, 0.8744" in text
    assert "1.1740, 0.7643" in text
    assert "difference                              0.2019, 0.1101" in text


def test_82_prints_one_head_scaled_by_one_over_root_two(
    capsys: pytest.CaptureFixture[str],
) -> None:
    text = run_cli(capsys, "8.2")
    assert text == run_cli(capsys, "8-2")
    assert "one head, dimension 2 (scale 1 / sqrt(2) = 0.7071)" in text
    assert "scores, query times key                 2, -1, 1, -3" in text
    assert "output, weights against values          1.1740, 0.7643" in text
    assert "head A" not in text


def test_json_carries_every_intermediate_at_full_precision(
    capsys: pytest.CaptureFixture[str],
) -> None:
    fixture = load_fixture(FIXTURE, FIXTURES)
    numbers = compute(fixture)
    assert numbers.single is not None
    assert numbers.differences is not None
    record = json.loads(run_cli(capsys, "d8", "--json"))
    assert [h["head"] for h in record["heads"]] == ["a", "b"]
    assert record["reference"]["head"] == "single"
    shown_heads = (*record["heads"], record["reference"])
    for shown, head in zip(shown_heads, (*numbers.heads, numbers.single), strict=True):
        for name in ("scores", "scaled", "exps", "weights", "output"):
            assert shown[name] == list(getattr(head, name))
        assert shown["total"] == head.total
        assert shown["scale"] == head.scale
    assert record["differences"] == list(numbers.differences)
    single = json.loads(run_cli(capsys, "8.2", "--json"))["heads"]
    assert single[0]["output"] == list(attend(fixture.query, fixture.keys, fixture.values).output)
    assert decimals(single[0]["output"][0]) == "1.1740"


NOT_A_LESSON = "9" * (max(map(len, cli.NAMES)) + 1)  # longer than any lesson's name


@pytest.mark.parametrize("lesson", LESSONS.values(), ids=list(LESSONS))
def test_each_lesson_is_known_by_its_code_and_its_folder(
    capsys: pytest.CaptureFixture[str], lesson: Lesson,
) -> None:
    text = run_cli(capsys, lesson.code.lower())
    assert text == run_cli(capsys, lesson.slug)
    assert text.startswith(f"{lesson.code} · {lesson.title} (")
    for spec, head in zip(lesson.heads, work(lesson, lesson_fixture(lesson, FIXTURES)).heads,
                          strict=True):
        assert f"{spec.title} ({lesson.scale_text(head)})" in text
        assert listing(head.output) in text
    record = json.loads(run_cli(capsys, lesson.slug, "--json"))
    assert [head["head"] for head in record["heads"]] == [spec.id for spec in lesson.heads]


@pytest.mark.parametrize("argv", [[NOT_A_LESSON], [], ["d8", "--csv"], ["D8", "--json"]])
def test_a_bad_argument_is_named_and_exits_non_zero(
    capsys: pytest.CaptureFixture[str], argv: list[str],
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(argv)
    assert exited.value.code == 2
    said = capsys.readouterr()
    assert said.out == ""
    assert "usage: python -m attention_lessons" in said.err
    assert "error:" in said.err


def test_a_missing_fixture_is_a_clear_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(cli.NAMES, "d8", replace(cli.NAMES["d8"], fixture="attention-9.9.json"))
    with pytest.raises(SystemExit) as exited:
        cli.main(["d8"])
    assert exited.value.code == 1
    assert "cannot load attention-9.9.json" in capsys.readouterr().err


def test_the_installed_wheel_runs_from_its_own_fixture(
    unpacked_wheel: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    # Outside the checkout the fixture must come from inside the wheel.
    command = [sys.executable, "-m", "attention_lessons", "d8"]
    env = {"PYTHONPATH": str(unpacked_wheel), "PATH": ""}
    done = subprocess.run(command, cwd=unpacked_wheel, env=env, capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == run_cli(capsys, "d8")
    assert (unpacked_wheel / "attention_lessons" / "fixtures" / FIXTURE).is_file()
    wrong = subprocess.run([*command[:-1], "nine"], cwd=unpacked_wheel, env=env,
                           capture_output=True, text=True, check=False)
    assert wrong.returncode == 2
    assert "invalid choice: 'nine'" in wrong.stderr


def test_moved_vectors_print_every_head_worked_on_them_at_full_precision(
        capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np  # noqa: PLC0415

    from strategies import numpy_attention, numpy_heads  # noqa: PLC0415

    assert cli.main(["d8", "--query=-1,0.5", "--key", "2=0,1.5", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    keys = [[1, 0], [0, 1.5], [1, 1], [-1, 1]]
    values = [[1, 0], [0, 2], [2, 2], [-2, 1]]
    a, b = numpy_heads([-1, 0.5], keys, values, [0, 1, 2])
    single = numpy_attention([-1, 0.5], keys, values)
    np.testing.assert_allclose(record["heads"][0]["weights"], a["weights"], rtol=1e-12)
    np.testing.assert_allclose(record["heads"][1]["output"], b["output"], rtol=1e-12)
    np.testing.assert_allclose(record["reference"]["output"], single["output"], rtol=1e-12)
    np.testing.assert_allclose(record["differences"],
                               np.concatenate([a["output"], b["output"]]) - single["output"],
                               rtol=1e-12, atol=1e-15)
    assert record["fixture"].endswith(", explored")


def test_moved_vectors_print_the_same_step_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["8.2", "--query", "1,0.5"]) == 0
    text = capsys.readouterr().out
    assert "  scores, query times key                 1, 0.5000, 1.5000, -0.5000" in text


def test_move_moves_any_point_the_lesson_declares_as_key_and_query_do(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["8.2", "--query", "1,0.5", "--key", "2=0,1.5"]) == 0
    named = capsys.readouterr().out
    assert cli.main(["8.2", "--move", "query=1,0.5", "--move", "key_2=0,1.5"]) == 0
    assert capsys.readouterr().out == named


@pytest.mark.parametrize(("argv", "says"), [
    (["8.2", "--query", "1,abc"], "“abc” is not a number."),
    (["8.2", "--query", "1"], "expected two coordinates"),
    (["d8", "--key", "5=0,0"], "name a key from 1 to 4"),
    (["d8", "--key", "2:0,0"], "name a key from 1 to 4"),
    (["d8", "--key", "\N{SUPERSCRIPT TWO}=1,1"], "name a key from 1 to 4"),
    (["d8", "--key", "\N{FULLWIDTH DIGIT TWO}=1,1"], "name a key from 1 to 4"),
    (["8.3", "--query", "9,0"], "Each coordinate runs from -3 to 3"),
    (["8.2", "--move", "token_1=0,0"],
     "--move token_1=0,0: this lesson's points are query, key_1, key_2, key_3, key_4"),
    (["8.2", "--move", "key_2"], "expected two coordinates"),
])
def test_bad_coordinates_get_usage_and_exit_status_2(
        argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python -m attention_lessons")
    assert says in err

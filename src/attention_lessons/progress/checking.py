"""A Check, and a record's standing on a worked lesson, worked out once: each answer as it reads,
its verdict, how many are within tolerance, and the gate. The page, its announcement, the
backup suggestion and the track all read the one value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..engine import ParseError, Reading, Verdict, Worked, gate_met, grade, parse_number
from .record import MAX_ANSWER, MAX_COUNT, Progress


@dataclass(frozen=True)
class Answer:
    """One answer as last checked: as it reads, or why it does not; and its verdict."""

    reading: Reading | None
    refused: str = ""  # the parser's message, where it does not read as a number
    verdict: Verdict | None = None


@dataclass(frozen=True)
class Standing:
    """Each answer of a record, by question, how many are within tolerance, and the gate."""

    answers: Mapping[str, Answer]
    correct: int
    gate: bool


def standing(progress: Progress, worked: Worked) -> Standing:
    """Read and grade each answer once, and derive the gate from them and the reading."""
    return _stand(progress, {qid: _read(raw) for qid, raw in progress.answers.items()}, worked)


def gate(progress: Progress, worked: Worked) -> bool:
    """Return whether the gate is met, derived from the answers and the reading, never stored."""
    return standing(progress, worked).gate


def check(progress: Progress, typed: Mapping[str, str], worked: Worked) -> Progress:
    """Grade the typed answers; a new readable value costs an attempt, and any new one is a run."""
    return checked(progress, typed, worked)[0]


def checked(progress: Progress, typed: Mapping[str, str],
            worked: Worked) -> tuple[Progress, Standing]:
    """Check, as check does, and return the record's standing after it, from the same reading
    of each answer: a Check reads and grades each answer once."""
    answers = {qid: _kept(typed.get(qid, progress.answers.get(qid, "")))
               for qid in worked.lesson.question_ids}
    readings = {qid: _read(raw) for qid, raw in answers.items()}
    graded, attempts = dict(progress.graded), dict(progress.attempts)
    fresh = False
    for qid, read in readings.items():
        if isinstance(read, Reading) and graded.get(qid) != read.value:
            graded[qid] = read.value
            attempts[qid] = min(attempts.get(qid, 0) + 1, MAX_COUNT)
            fresh = True
    after = replace(progress, answers=answers, graded=graded, attempts=attempts,
                    runs=min(progress.runs + fresh, MAX_COUNT))
    return after, _stand(after, readings, worked)


def _read(raw: str) -> Reading | ParseError:
    try:
        return parse_number(raw)
    except ParseError as error:
        return error


def _stand(progress: Progress, readings: Mapping[str, Reading | ParseError],
           worked: Worked) -> Standing:
    answers: dict[str, Answer] = {}
    for q in worked.lesson.questions:
        read = readings.get(q.id)
        if isinstance(read, ParseError):
            answers[q.id] = Answer(None, str(read))
        elif read is not None:
            answers[q.id] = Answer(read, verdict=grade(q, read.value, worked))
    correct = sum(a.verdict is not None and a.verdict.correct for a in answers.values())
    return Standing(answers, correct, gate_met(correct, progress.reading, worked.lesson))


def _kept(raw: str) -> str:
    # Store only what from_json accepts. Past MAX_ANSWER the text is far beyond what the parser
    # reads (64), so trimming and cutting it keeps its outcome, "too long", exactly as it was.
    text = raw.strip() if len(raw) > MAX_ANSWER else raw
    return text if len(text) <= MAX_ANSWER else text[: MAX_ANSWER - 1] + "\N{HORIZONTAL ELLIPSIS}"

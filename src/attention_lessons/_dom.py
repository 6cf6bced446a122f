"""Where each string of a lesson's progress view goes on its page, by element id.

The page's one DOM module applies these as they are; keeping the mapping here makes it a pure
function that the unit tests can read, and keeps that module thin.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ._page import ProgressView


@dataclass(frozen=True)
class PageUpdate:
    """What to write into a lesson page, element by element."""

    texts: dict[str, str] = field(default_factory=dict)  # textContent
    hidden: dict[str, bool] = field(default_factory=dict)
    disabled: dict[str, bool] = field(default_factory=dict)
    states: dict[str, str] = field(default_factory=dict)  # data-state, which the CSS colours
    invalid: dict[str, bool] = field(default_factory=dict)  # aria-invalid


def page_update(view: ProgressView) -> PageUpdate:
    """Map a progress view onto the page's element ids."""
    update = PageUpdate()
    texts, hidden, disabled, states = update.texts, update.hidden, update.disabled, update.states
    locked = view.prediction is not None
    disabled.update(why=locked, lock_prediction=locked)
    texts["lock_prediction"] = "Prediction locked in" if locked else "Lock in my prediction"
    texts["prediction_message"] = view.prediction_message
    hidden["after_prediction"] = not locked
    for q in view.questions:
        texts.update({f"{q.id}_echo": q.echo, f"{q.id}_feedback": q.feedback,
                      f"{q.id}_attempts": q.attempts})
        states[q.id] = q.state
        update.invalid[q.id] = q.state in ("wrong", "invalid")
    texts["runs"] = view.runs
    for hint in view.hints:
        texts[f"hint_{hint.rung}_status"] = hint.status
        texts[f"hint_{hint.rung}_text"] = hint.text
        disabled[f"hint_{hint.rung}_open"] = not hint.available or hint.opened
        hidden[f"hint_{hint.rung}_text"] = not hint.opened
    texts["reading_feedback"] = view.reading.feedback
    states["reading_feedback"] = view.reading.state
    disabled["lock_reading"] = view.reading.correct
    if view.projection is not None:
        texts["projection_badge"] = view.projection.badge
        for i, (before, after) in enumerate(
                zip(view.projection.before, view.projection.after, strict=True), 1):
            texts.update({f"before_{i}": before, f"after_{i}": after})
        texts["projection_sentence"] = view.projection.sentence
    texts.update(compare_text=view.compare, compare_why=view.why)
    hidden["compare_why"] = not view.why
    texts.update(gate_badge=view.gate.badge, gate_headline=view.gate.headline,
                 gate_status=view.gate.status)
    states["gate_badge"] = "met" if view.gate.met else ""
    return update

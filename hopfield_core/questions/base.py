"""What every question kind shares: an option, an outcome, a kind, "Not sure yet", the sentence
comparing a prediction with the outcome, and the helpers the kinds use."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

NOT_SURE = "not_sure"
NOT_SURE_LABEL = "Not sure yet"
SHOWN_OVERLAPS = 2  # the comparison names this many of the largest overlaps


@dataclass(frozen=True)
class Option:
    key: str    # stable: what a saved prediction holds ("pattern:1", "mirror", "yes", "single", ...)
    label: str  # what the student reads (pattern names come from users: shown as plain text)


@dataclass(frozen=True)
class Outcome:
    """What the run did, read as an answer: the right option's key and a sentence saying what
    happened, with the numbers that show it."""

    right: str
    says: str


@dataclass(frozen=True)
class Kind:
    key: str
    question: str  # asked before the run is shown


def with_not_sure(options: list[Option]) -> list[Option]:
    return [*options, Option(NOT_SURE, NOT_SURE_LABEL)]


def _largest(m: np.ndarray, names: list[str], n: int = SHOWN_OVERLAPS) -> str:
    """"overlap with H 0.62, with O 0.58": the n patterns of largest |overlap| at the end."""
    order = np.argsort(-np.abs(m), kind="stable")[:n]
    return "overlap " + ", ".join(f"with {names[i]} {m[i]:.2f}" for i in order)


def _falls(values: np.ndarray) -> tuple[str, float]:
    """"lower", "same" (within 1 % of the start's size) or "higher" at the end than at the start,
    and the change relative to the start's size (0 when the start is 0)."""
    e = np.asarray(values, dtype=np.float64)
    change = e[-1] - e[0]
    size = abs(e[0])
    if size > 0:
        return ("same" if abs(change) <= 0.01 * size else "lower" if change < 0 else "higher"), change / size
    return ("same" if change == 0 else "lower" if change < 0 else "higher"), 0.0


def compare(predicted: str, options: list[Option], outcome: Outcome) -> str:
    """The sentence a student reads when the run ends: their prediction, then what happened.
    `predicted` is an option's key (NOT_SURE included)."""
    label = {o.key: o.label for o in options}
    said = "You were not sure yet." if predicted == NOT_SURE else f"You predicted {label.get(predicted, predicted)}."
    verdict_words = "" if predicted == NOT_SURE else (" That is right." if predicted == outcome.right
                                                      else f" The answer: {label.get(outcome.right, outcome.right)}.")
    return f"{said} {outcome.says}{verdict_words}"

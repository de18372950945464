"""Words for what a live figure shows, for screen readers and for anyone who prefers text:
the alt text of a state's picture and one sentence per step of a run. Pure (no streamlit):
numbers in, plain strings out. Pattern names come from users (file names): the strings here
hold them as written, so whoever puts a string into HTML escapes it (the browser player sets them as text).

# N patterns, d neurons, T steps
# states (T+1, d); energies (T+1,); m (N,) overlaps of one state with the patterns (cosine)

The nearest stored pattern is the one the page's own verdict would name
(hopfield_core.analysis): for binary states the largest |m| (a state with m = -1 is the mirror
of that pattern, named "the negative of"), for continuous states the largest m. Patterns whose
overlap equals the best to within TIE are named together ("equally close to"), never one of
them picked silently.

For other pages, the pattern is: build the sentence from the numbers the figure shows, in a
pure function here, test it against the maths, and show it in the browser player's live
region (ui.player.frames.live).
"""
from __future__ import annotations

import numpy as np

TIE = 1e-9          # overlaps closer than this are one value (bipolar overlaps are k/d exactly)
MOST_NAMED = 3      # a tie of more patterns names these and counts the rest
DIGITS = ".2f"      # overlaps as the verdicts write them ("best overlap 0.97")


def _names_list(parts: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def nearest(m: np.ndarray, binary: bool) -> np.ndarray:
    """The indices of the nearest stored patterns (several when tied): argmax of |m| for
    binary states, of m for continuous ones, ties within TIE kept, in pattern order."""
    m = np.asarray(m, dtype=np.float64)  # (N,)
    score = np.abs(m) if binary else m
    return np.flatnonzero(score >= score.max() - TIE)


def nearest_phrase(m: np.ndarray, names: list[str], binary: bool) -> str:
    """"closest to stored pattern H, overlap 0.97"; a mirror: "closest to the negative of
    stored pattern H, overlap -1.00"; a tie: "equally close to stored patterns H and O,
    overlap 0.50" (each overlap given when their signs differ)."""
    m = np.asarray(m, dtype=np.float64)
    best = nearest(m, binary)
    shown, rest = best[:MOST_NAMED], len(best) - MOST_NAMED
    if len(best) == 1:
        i = int(best[0])
        who = ("the negative of " if m[i] < 0 and binary else "") + f"stored pattern {names[i]}"
        return f"closest to {who}, overlap {m[i]:{DIGITS}}"
    more = [f"{rest} more"] if rest > 0 else []
    if np.all(m[best] >= 0) or np.all(m[best] < 0):
        sign = "the negatives of " if m[best[0]] < 0 else ""
        who = _names_list([names[i] for i in shown] + more)
        return f"equally close to {sign}stored patterns {who}, overlap {m[best[0]]:{DIGITS}}"
    parts = [("the negative of " if m[i] < 0 else "") + f"{names[i]} ({m[i]:{DIGITS}})"
             for i in shown]
    return f"equally close to stored patterns {_names_list(parts + more)}"


def picture_alt(what: str, m: np.ndarray, names: list[str], binary: bool,
                shape: tuple[int, int]) -> str:
    """The alt text of a state's picture: `what` it is, its size, the nearest stored pattern,
    e.g. "The query, 16 by 16 pixels: closest to stored pattern H, overlap 0.60." """
    return f"{what}, {shape[0]} by {shape[1]} pixels: {nearest_phrase(m, names, binary)}."


def image_alt(t: int, T: int, m: np.ndarray, names: list[str], binary: bool,
              shape: tuple[int, int]) -> str:
    """The alt text of the player's picture at step t, e.g. "State at step 3 of 12, 16 by 16
    pixels: closest to stored pattern H, overlap 0.97." """
    what = f"State at step {t} of {T}" + (" (the query)" if t == 0 else "")
    return picture_alt(what, m, names, binary, shape)


def _count(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def movement(states: np.ndarray, t: int, binary: bool) -> str:
    """What changed in the state from step t-1 to t: the neurons flipped (binary: the Hamming
    distance of the two states) or how far it moved (continuous: the Euclidean distance)."""
    a, b = np.asarray(states[t - 1]), np.asarray(states[t])
    if binary:
        flipped = int(np.count_nonzero(a != b))
        return "no neuron flipped" if flipped == 0 else (
            f"{_count(flipped, 'neuron', 'neurons')} of {a.size} flipped")
    dist = float(np.linalg.norm(b.astype(np.float64) - a.astype(np.float64)))
    return "the state did not move" if dist == 0 else f"the state moved by {dist:.3g}"


def energy_phrase(value: float, change: str | None, label: str = "Energy",
                  no_change: str = "no change") -> str:
    """"energy -80.1, down by 4.5", from the energy metric's value and its change string
    (ui.player.dynamics_frames.energy_change: None at step 0, `no_change` within rounding, else the
    change to 3 significant digits)."""
    what = label[0].lower() + label[1:]
    if change is None:
        return f"{what} {value:.6g}"
    if change == no_change:
        return f"{what} {value:.6g}, {no_change}"
    return (f"{what} {value:.6g}, down by {change[1:]}" if change.startswith("-") else
            f"{what} {value:.6g}, up by {change.lstrip('+')}")


def step_sentence(t: int, T: int, states: np.ndarray, energies: np.ndarray, m: np.ndarray,
                  names: list[str], binary: bool, change: str | None,
                  label: str = "Energy", verdict: str = "") -> str:
    """One sentence (a few clauses) on step t of a run of T steps: the energy and its change,
    what moved since step t-1, the nearest stored pattern; at the last step the page's verdict
    (`verdict`, e.g. "Retrieved pattern H.", which says whether the run converged). Before the
    end nothing more: "Step t of T" says the run goes on, and the page's hint box (itself a
    status region) says to keep stepping. `change` is ui.player.dynamics_frames.energy_change(energies,
    t, dtype)."""
    head = f"Step {t} of {T}" + (", the query" if t == 0 else "")
    parts = [energy_phrase(float(energies[t]), change, label)]
    if t > 0:
        parts.append(movement(states, t, binary))
    parts.append(nearest_phrase(m, names, binary))
    tail = f" {verdict}" if t >= T and verdict else ""
    return f"{head}: {'; '.join(parts)}.{tail}"

"""The live view every dynamics page shares: the browser player over a run (state, energy,
overlaps, the step's sentence, the energy metric, the verdict), its numbers and downloads."""
from __future__ import annotations

import hashlib

import numpy as np
import streamlit as st

from hopfield_core import images, questions
from ui.charts import chart_numbers, style
from ui.serving import shared_cache
from ui.settings import gate
from ui.settings.modes import presenter, projector
from ui.store.patterns import PatternSet

from . import browser, downloads, dynamics_frames, player_cache

# the Streamlit box a verdict is shown in outside the player (the side-by-side and sweep views)
VERDICT_STYLE = {kind: getattr(st, box) for kind, box in dynamics_frames.VERDICT_KIND.items()}


def picture(states: np.ndarray, ps: PatternSet) -> np.ndarray:
    """States (d,) or (T, d) as images on the store's grey scale: [-1, 1] for binary
    patterns, the patterns' own range for continuous ones."""
    lo, hi = (-1.0, 1.0) if ps.binary else (float(ps.X.min()), float(ps.X.max()))
    S = np.asarray(states)
    if S.ndim == 1:
        return images.to_image(S, ps.shape, lo, hi)
    return np.stack([images.to_image(s, ps.shape, lo, hi) for s in S])


def frames_of(traj, ps: PatternSet) -> np.ndarray:
    return picture(traj.states, ps)


def run_numbers(traj, m_all: np.ndarray, names: list[str], energy_label: str) -> dict:
    """The numbers the energy and overlap charts show, for every step: step, energy, and the
    overlap m with each pattern (m_all (T+1, N)), one column per pattern."""
    return {"step": np.arange(len(traj.energies)), energy_label: traj.energies,
            **{f"m with {label}": m_all[:, i] for i, label in enumerate(style.numbered(names))}}


def offer_questions(page: str, traj, ps: PatternSet, sync: bool) -> None:
    """What a lesson may ask of this run (ui.settings.gate): where the query ends, whether the
    energy rises, and for the continuous network the kind of its fixed point."""
    names = list(ps.names)
    gate.offer(page, questions.DESTINATION.key, questions.destination_options(names, ps.binary, sync),
               lambda: questions.destination(traj, ps.X, names, ps.binary))
    gate.offer(page, questions.RISES.key, questions.rises_options(), lambda: questions.rises(traj))
    if getattr(traj, "weights", None) is not None:
        gate.offer(page, questions.FIXED_POINT.key, questions.fixed_point_options(),
                   lambda: questions.fixed_point(traj, names))


def show(page: str, traj, ps: PatternSet, monotone: bool, rise_reason: str = "",
         energy_label: str = "Energy", sync: bool = False, finding: str = "") -> None:
    """The player and the figures for one precomputed trajectory, stepped in the browser
    (ui/player/browser.py), then the run's numbers and downloads.

    energy_label names what traj.energies holds (a page may plot a rescaled energy).

    monotone: this rule guarantees that the energy never rises, so a rise is a bug
    to flag loudly; otherwise a rise is expected and explained with rise_reason. sync: the
    update is synchronous (a lesson's "where will it end" then offers a 2-cycle). finding: the
    page's main result beyond the verdict (the modern fixed point's kind, the classical network on
    the same query), said with the verdict when the run reaches its end: in presenter mode the
    verdict sits above the figures, on the projector's first screen.
    """
    offer_questions(page, traj, ps, sync)
    # a run is its states and its energies: two interactions can pass through the same states
    run_key = hashlib.sha1(traj.states.tobytes() + np.asarray(traj.energies).tobytes()).hexdigest()
    analysed = player_cache.analysed(run_key, ps.fingerprint, traj, ps)
    frames, m_all = analysed[0], analysed[1]
    look = (presenter(), projector())
    key = ("dyn-player", page, run_key, ps.fingerprint, tuple(ps.names), ps.binary, ps.shape, monotone,
           rise_reason, energy_label, finding, *look)
    data = shared_cache.shared(key, lambda: browser.frames.encoded(dynamics_frames.payload(
        page, run_key, traj, ps.names, ps.binary, ps.shape, analysed, monotone, rise_reason, energy_label,
        *look, finding=finding)))
    browser.show(page, data)
    if gate.closed(page):  # a lesson's question waits: the run's numbers would answer it
        return
    chart_numbers.show_columns(st, run_numbers(traj, m_all, ps.names, energy_label),
                               f"{page}_numbers", "Every step of this run")
    with st.expander("Download this run"):
        downloads.downloads(page, frames, traj.energies,
                          extra={f"m_{i + 1}": m_all[:, i] for i in range(ps.N)})

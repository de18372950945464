"""The live view every dynamics page shares: state, energy, overlaps, verdict, downloads."""
from __future__ import annotations

import hashlib

import numpy as np
import streamlit as st

from hopfield_core import images
from ui.charts import chart_numbers, describe, figures, pictures, style
from ui.serving import shared_cache
from ui.settings.modes import presenter
from ui.store.patterns import PatternSet

from . import downloads, play, player_cache
from .live_charts import (  # no blank chart or picture during Play
    live,
    live_image,
    live_text,
)

VERDICT_STYLE = {"retrieved": st.success, "mirror": st.info, "metastable": st.info,
                 "global": st.warning, "mixture": st.warning, "spurious": st.warning,
                 "cycle": st.error, "not converged": st.warning}


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


# A computed energy is a sum of dot products over d entries, a log-sum-exp and a few terms: it
# carries a rounding error of some ulps of the run's largest energies. Consecutive energies
# closer than ROUNDING_ULPS of them are equal as far as the floats can tell (near a fixed point
# the computed change is then noise: -2.2e-16 where the exact change is -1.1e-16, or +7e-19).
ROUNDING_ULPS = 64
NO_CHANGE = "no change"


def rounding_tolerance(energies: np.ndarray, dtype=np.float64) -> float:
    """Below this an energy change is rounding: ROUNDING_ULPS times the machine epsilon of the
    float type the energies were computed in (`dtype`; float64 for integer states), times the
    run's energy scale (its largest |E|)."""
    dtype = np.dtype(dtype)
    eps = np.finfo(dtype if dtype.kind == "f" else np.float64).eps
    return ROUNDING_ULPS * float(eps) * float(np.max(np.abs(energies)))


def energy_change(energies: np.ndarray, t: int, dtype=np.float64) -> str | None:
    """The energy metric's delta at step t: None at step 0 (no arrow), NO_CHANGE for a change
    within rounding_tolerance, else E(t) - E(t-1) to 3 significant digits."""
    if t == 0:
        return None
    change = float(energies[t]) - float(energies[t - 1])
    if abs(change) <= rounding_tolerance(energies, dtype):
        return NO_CHANGE
    return f"{change:.3g}"


def run_numbers(traj, m_all: np.ndarray, names: list[str], energy_label: str) -> dict:
    """The numbers the energy and overlap charts show, for every step: step, energy, and the
    overlap m with each pattern (m_all (T+1, N)), one column per pattern."""
    return {"step": np.arange(len(traj.energies)), energy_label: traj.energies,
            **{f"m with {label}": m_all[:, i] for i, label in enumerate(style.numbered(names))}}


def show(page: str, traj, ps: PatternSet, monotone: bool, rise_reason: str = "",
         energy_label: str = "Energy") -> None:
    """The player and the figures for one precomputed trajectory.

    energy_label names what traj.energies holds (a page may plot a rescaled energy).

    monotone: this rule guarantees that the energy never rises, so a rise is a bug
    to flag loudly; otherwise a rise is expected and explained with rise_reason.
    """
    run_key = hashlib.sha1(traj.states.tobytes()).hexdigest()
    frames, m_all, rises, final = player_cache.analysed(run_key, ps.fingerprint, traj, ps)

    def body():
        T = traj.steps
        if presenter():  # the player beside the state and the energy, all three on a 1024 x 768
            # projector's first screen (the charts are 1.2 times taller there: ui.charts.charts), the
            # overlaps below; three columns at 1920 px too (the state picture then 560 px wide)
            player_place, c1, c2 = st.columns([1, 1, 1.3])
            with player_place:
                t = play.player(page, T, run_key)
            c3 = st.container()
        else:
            t = play.player(page, T, run_key)
            c1, c2, c3 = st.columns([2, 3, 3])
        h = 300  # the charts' height (presenter mode's copies are 1.2 times taller)
        key = (run_key, t, tuple(ps.names), h, energy_label)  # figures are built once per run and step
        c1 = c1.container(key=f"{page}_pic_state")  # on a phone: not wider than CSS lets it
        c1.markdown(f"**State at step {t}**")  # a PNG, not a chart: sent as encoded once
        live_image(c1, pictures.image_png(frames[t] / 255.0, 2 * h), width="stretch",
                   alt=describe.image_alt(t, T, m_all[t], ps.names, ps.binary, ps.shape))
        live(c2, shared_cache.shared(("dyn-energy",) + key, lambda: figures.energy_curve(
            traj.energies, t, rises, title=energy_label, height=h)), f"{page}_energy", page)
        live(c3, shared_cache.shared(("dyn-overlap",) + key, lambda: figures.overlap_bars(
            m_all[t], ps.names, height=h)), f"{page}_overlaps", page)
        delta = energy_change(traj.energies, t, traj.states.dtype)
        live_text(st, describe.step_sentence(
            t, T, traj.states, traj.energies, m_all[t], ps.names, ps.binary, delta, energy_label,
            final.sentence(ps.names)), f"{page}_describe", page)  # for screen readers: what changed
        still = delta == NO_CHANGE
        st.metric(energy_label, f"{traj.energies[t]:.6g}", delta=delta,
                  delta_color="off" if still else "inverse", delta_arrow="off" if still else "auto")
        if t < T:  # a status region: the same words on every frame of Play, said once
            st.info(f"Playing the {T} steps: Pause stops at the step shown." if play.playing(page)
                    else f"Step {t} of {T}: keep stepping to see where the dynamics settle.",
                    icon=":material/hourglass_top:")
        else:
            VERDICT_STYLE[final.kind](final.sentence(ps.names), icon=":material/flag:")
        shown = [int(r) for r in rises if r <= t]
        if shown and monotone:
            st.error(f"The energy rose at step {', '.join(map(str, shown))}. This rule must "
                     "never raise it: please report this as a bug.", icon=":material/bug_report:")
        elif shown:
            st.warning(f"The energy rose at step {', '.join(map(str, shown))}: {rise_reason}",
                       icon=":material/trending_up:")
        play.stop_if_done(page, t, T)

    play.animated(page, body)
    chart_numbers.show_columns(st, run_numbers(traj, m_all, ps.names, energy_label),
                               f"{page}_numbers", "Every step of this run")
    with st.expander("Download this run"):
        downloads.downloads(page, frames, traj.energies,
                          extra={f"m_{i + 1}": m_all[:, i] for i in range(ps.N)})

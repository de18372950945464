"""The attention page's computations, each built once per tuple of its actual parameters
and shared read-only by every session (ui.serving.shared_cache.shared): the heatmap with PyTorch's
check of it, the gaps between attention and one Hopfield step, the iteration's figures and
numbers; and the projection matrices (st.cache_resource, at most 3).

Each key names the page, the piece, and every value the result depends on: the patterns by
their fingerprint (X and its image shape), the query by its key (ui.store.query.make: source,
corruption, amount, seed, patterns), the rest by value.
# n_q queries, N stored patterns, d neurons, h heads, d_k size per head, T steps
"""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core import (
    ModernHopfield,
    analysis,
    compare,
    hopfield_attention,
    reference,
)
from ui.charts import figures
from ui.player import dynamics_view
from ui.serving import budget, memory_gate, shared_cache
from ui.settings.modes import presenter

from . import figures as at_figures
from .settings import PROJECTION_LABELS, RUN_MAX_STEPS, RUN_TOL

# the iterates' strip: six to a row (up to three rows), so each keeps ~90 px on a desk screen and
# its label room on a phone; in presenter mode 125 px tiles, the back row's size (1024 px / 6 fits)
STRIP_ROW, PRESENTER_TILE_PX = 6, 125

PAGE = "attention"


def attention(s):
    """(the heatmap of softmax(beta Q K^T), one panel per head; max |ours - PyTorch SDPA| on
    the same tensors). `s` is the page's ui.pages.attention.sections.Setup."""
    key = (PAGE, "attend", s.ps.fingerprint, tuple(s.ps.names), s.qkey, s.corruption,
           s.all_queries, s.proj_kind, s.d_k, s.heads, s.seed, s.beta)

    def build():
        proj = s.proj
        kw = {} if proj is None else dict(W_Q=proj.W_Q, W_K=proj.W_K, W_V=proj.W_V)
        d_k = None if proj is None else s.d_k
        need = (compare.attention_bytes(len(s.Q), s.ps.N, s.ps.d, d_k, s.heads)  # ours, kept
                + budget.attention_check_bytes(len(s.Q), s.ps.N, s.ps.d, d_k, s.heads))
        with memory_gate.reserve(need):  # ui/serving/memory_gate.py
            out, weights = hopfield_attention(s.Q, s.ps.X, s.ps.X, beta=s.beta, heads=s.heads,
                                              return_weights=True, **kw)  # (n_q, h d_v), weights
            # PyTorch's attention on the same tensors, against the output drawn below
            gap = reference.sdpa_gap(out, s.Q, s.ps.X, s.ps.X, s.beta, s.heads, proj)
        weights = weights if s.heads > 1 else weights[None]  # (h, n_q, N)
        what = ("Q = ξᵀ, K = V = X" if proj is None else
                f"{PROJECTION_LABELS[s.proj_kind]} projections, seed {s.seed}")
        fig = at_figures.attention_heatmaps(
            weights, s.query_labels, s.key_labels,
            f"softmax(β Q Kᵀ), β = {s.beta:.4g}, d_k = {s.d_k}, {what}")
        return fig, gap

    return shared_cache.shared(key, build)


def step_gaps(s, wrong_beta: float) -> tuple[float, float]:
    """max |attention - Hopfield step| with identity projections at s.beta_id, and the same
    with `wrong_beta` in the Hopfield step (a mistake to compare with)."""
    key = (PAGE, "gaps", s.ps.fingerprint, s.qkey, s.corruption, s.all_queries, s.beta_id,
           wrong_beta)
    def build():  # one gap after the other (ui/serving/memory_gate.py)
        with memory_gate.reserve(compare.step_gap_bytes(len(s.Q), s.ps.N, s.ps.d)):
            return (compare.hopfield_step_gap(s.Q, s.ps.X, s.beta_id),
                    compare.hopfield_step_gap(s.Q, s.ps.X, s.beta_id, hopfield_beta=wrong_beta))
    return shared_cache.shared(key, build)


def iteration(s) -> dict:
    """T steps of attention from the query (identity projections, beta_id): its figures, its
    last change and energy, its verdict, and how far it ends from ModernHopfield.run's fixed
    point. Small things only: this is kept for every key."""
    big = presenter()  # the back row's tiles
    key = (PAGE, "iterate", s.ps.fingerprint, s.qkey, s.beta_id, s.T, RUN_MAX_STEPS, RUN_TOL, big)

    def build() -> dict:
        ps, X = s.ps, s.ps.X
        need = (compare.iterate_bytes(ps.N, ps.d, s.T)  # kept while the reference runs
                + budget.modern_run_bytes(ps.N, ps.d, RUN_MAX_STEPS))
        with memory_gate.reserve(need):  # ui/serving/memory_gate.py
            traj = compare.iterate_attention(s.q, X, s.T, beta=s.beta_id)
            ref = ModernHopfield(X, beta=s.beta_id).run(s.q, max_steps=RUN_MAX_STEPS, tol=RUN_TOL)
        E = traj.energies  # (T + 1,)
        return dict(
            strip=at_figures.image_strip(
                list(dynamics_view.frames_of(traj, ps)),
                ["query"] + [f"t = {t}" for t in range(1, traj.steps + 1)],
                max_per_row=STRIP_ROW if traj.steps < 3 * STRIP_ROW else 2 * STRIP_ROW,
                tile_px=PRESENTER_TILE_PX if big else 90),
            changes=at_figures.change_chart(traj.changes, tol=compare.CONVERGED_TOL),
            energy=figures.energy_curve(E, traj.steps, analysis.energy_rises(E),
                                        title=f"Hopfield energy, β = {s.beta_id:.4g}"),
            last_change=float(traj.changes[-1]), last_energy=float(E[-1]),
            converged=traj.converged, verdict=analysis.verdict(traj, X, binary=False),
            dist=float(np.max(np.abs(traj.final - ref.final))),
            ref_steps=ref.steps, ref_converged=ref.converged, final=traj.final, steps=traj.steps)

    return shared_cache.shared(key, build)


@st.cache_resource(max_entries=3, show_spinner=False)
def projections(d_in: int, d_k: int, heads: int, seed: int, tied: bool) -> compare.Projections:
    """The attention page's projection matrices, shared by every session read-only (never mutated): up to 3 x d x 4 d_k floats, too big to copy per rerun
    (and to keep many of)."""
    return compare.random_projections(d_in, d_k, heads=heads, seed=seed, tied=tied)


"""Cached helpers of the dense page: small keys, arrays passed unhashed (leading underscore)."""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core import analysis, capacity
from ui.player.runs import build_model

from . import figures as figures_dense


@st.cache_data(max_entries=64, show_spinner=False)
def stable_counts(fingerprint: str, configs: tuple, _X: np.ndarray) -> tuple[int, ...]:
    """For each dense cfg (a sorted tuple of items): how many stored patterns are fixed points.

    The classical network is counted as the dense memory of degree 2: the same updates
    (tests/core/test_capacity.py checks it), without building a d x d weight matrix.
    """
    return tuple(int(capacity.stable_patterns(build_model("dense", _X, dict(cfg)), _X).sum())
                 for cfg in configs)


@st.cache_data(max_entries=256, show_spinner=False)
def final_verdict(run: tuple, _traj, _X: np.ndarray) -> analysis.Verdict:
    """analysis.verdict of a finished run, keyed by what makes the run (ui.player.runs.run_key: the
    model, its settings, the patterns, the query, the run's options)."""
    return analysis.verdict(_traj, _X, binary=True)


# Figures below are built once per small key and shared read-only: st.plotly_chart copies a
# figure (to_dict) before sending it and never mutates it, and building a Plotly figure costs
# more than the rest of a rerun of this page.

@st.cache_resource(max_entries=64, show_spinner=False)
def stable_figure(fingerprint: str, configs: tuple, labels: tuple, current: str | None,
                  _X: np.ndarray):
    """The bar chart of stable_counts, one bar per config."""
    counts = stable_counts(fingerprint, configs, _X)
    return figures_dense.stable_bars(list(labels), list(counts), int(_X.shape[0]), current)


@st.cache_resource(max_entries=64, show_spinner=False)
def shape_figure(d: int, references: tuple, current: tuple, current_label: str):
    """F(z) / F(d) for the reference interactions (label, cfg items) and the current one."""
    z = np.linspace(-d, d, 241)  # (241,) overlaps from -d to d
    curves = {label: capacity.interaction_shape(z, d, **dict(cfg)) for label, cfg in references}
    curves[current_label] = capacity.interaction_shape(z, d, **dict(current))
    return figures_dense.interaction_curves(z, curves, current=current_label, d=d)

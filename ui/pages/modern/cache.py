"""Cached computations of the modern-network page, keyed by small values only.

Arrays are passed as parameters whose names start with an underscore, so Streamlit does
not hash them: the pattern fingerprint and the query key identify them.
"""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core import ModernHopfield
from hopfield_core.bound import bound_beta
from hopfield_core.metastable import BetaSweep, beta_sweep
from ui.serving import budget, memory_gate, memory_plan
from ui.serving.byte_cache import ByteCache

# the sweeps of every session, bounded by bytes (ui/serving/memory_plan.py): 0.8 MB each at d = 3072
SWEEPS = ByteCache("sweeps", memory_plan.SWEEPS_BYTES)


def sweep(fingerprint: str, query_key: tuple, betas: tuple, max_steps: int, tol: float,
          gamma: float, _X: np.ndarray, _q: np.ndarray) -> BetaSweep:
    """Where the query ends for every beta of the grid (kept in SWEEPS, shared read-only)."""
    def make():  # its estimated peak held while it computes (ui/serving/memory_gate.py)
        N, d = _X.shape  # N patterns, d neurons
        with memory_gate.reserve(budget.sweep_bytes(d, N, len(betas), max_steps)):
            return beta_sweep(_X, _q, list(betas), max_steps=max_steps, tol=tol, gamma=gamma)
    return SWEEPS.get((fingerprint, query_key, betas, max_steps, tol, gamma), make)


@st.cache_data(max_entries=128, show_spinner=False)
def bound_table(fingerprint: str, beta: float, _X: np.ndarray):
    """(separation (N,), bound at beta, satisfied (N,), beta needed per pattern (N,), M)."""
    model = ModernHopfield(_X, beta)
    rb = model.retrieval_bound()
    need = bound_beta(rb.separation, model.N, model.M)
    return rb.separation, rb.bound, rb.satisfied, need, model.M

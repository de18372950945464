"""Caching for the attention page: the projection matrices, shared by every session.
# d neurons, h heads, d_k size per head
"""
from __future__ import annotations

import streamlit as st

from hopfield_core import compare


@st.cache_resource(max_entries=3, show_spinner=False)
def projections(d_in: int, d_k: int, heads: int, seed: int, tied: bool) -> compare.Projections:
    """Shared read-only (never mutated): up to 3 x d x 4 d_k floats, too big to copy per rerun
    (and to keep many of)."""
    return compare.random_projections(d_in, d_k, heads=heads, seed=seed, tied=tied)


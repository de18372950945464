"""(c) A line between two stored patterns: the energy along it for up to four betas, and the
barrier between the two valleys."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from ui.charts import charts, tables
from ui.serving import shared_cache

from . import cache, explain
from . import figures as figs
from .settings import SETTINGS


def show(ps) -> None:
    if ps.N < 2:
        st.info("A slice needs at least 2 stored patterns: add some in the sidebar.")
        explain.slice_view()
        return
    labels = [f"{i + 1}. {n}" for i, n in enumerate(ps.names)]
    with st.container(key="controls_landscape_slice"):
        c1, c2, c3 = st.columns([1, 1, 2], gap="large")
        a = SETTINGS.show("sa", c1, options=range(ps.N), format_func=labels.__getitem__)
        b = SETTINGS.show("sb", c2, options=range(ps.N), format_func=labels.__getitem__)
        betas = SETTINGS.show("betas", c3)
    if a == b:
        st.warning("Choose two different patterns: a line from a pattern to itself is a point.")
        explain.slice_view()
        return
    if not betas:
        st.info("Choose at least one value of β.")
        explain.slice_view()
        return
    betas = tuple(sorted(float(v) for v in betas))
    note = cache.slice_note(ps.d, ps.N, len(betas))
    if note:
        st.warning(note, icon=":material/memory:")
        explain.slice_view()
        return
    ts, E, bars = cache.line_slice(ps.fingerprint, a, b, betas, ps.X)
    key = ("landscape", "slice", ps.fingerprint, a, b, betas, ps.names[a], ps.names[b])
    charts.plot(st, shared_cache.shared(key, lambda: figs.slice_chart(ts, E, betas, bars, ps.names[a],
                                                               ps.names[b])),
                    key="landscape_slice_chart")
    cols = st.columns(len(betas))
    for col, bar in zip(cols, bars):
        col.metric(f"Barrier at β = {bar.beta:g}", f"{bar.height:.4g}")
    tables.show(st, pd.DataFrame({
        "β": [f"{bar.beta:g}" for bar in bars],
        f"E({ps.names[a]})": [bar.e_a for bar in bars],
        f"E({ps.names[b]})": [bar.e_b for bar in bars],
        "max E on the segment": [bar.e_max for bar in bars],
        "at t": [bar.t_max for bar in bars],
        f"climb from {ps.names[a]}": [bar.from_a for bar in bars],
        f"climb from {ps.names[b]}": [bar.from_b for bar in bars],
    }), key="landscape_slice_table")
    st.caption("A barrier of 0 means the segment has no hump: from the higher end the energy "
               "only falls along the line, so that end is no valley in this direction.")
    explain.slice_view()

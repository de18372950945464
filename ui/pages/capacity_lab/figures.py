"""The capacity lab's figures: arrays in, go.Figure out (no Streamlit)."""
from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from hopfield_core.capacity.curves import SUCCESS_OVERLAP
from hopfield_core.capacity.theory import textbook_capacity
from ui.charts.figures import GREY, RED, figure, note, vline

COLOURS = {"classical-sync": "#1f6feb", "classical-async": "#0a3069", "dense": "#1a7f37",
           "exponential": "#d1242f", "modern": "#8250df"}


def theory_n(variant: str, d: int, flip: float, degree: int, beta: float = 1.0) -> float | None:
    """The textbook capacity in patterns (None where there is none to draw: for the modern
    network, and the exponential one at beta other than 1, where its theorem does not apply)."""
    n = textbook_capacity(variant, d, flip, degree, beta)
    return n if math.isfinite(n) else None


def curves_figure(results: list, names: dict, d: int, flip: float, degree: int,
                  log_x: bool, what: str = "success", height: int = 360) -> go.Figure:
    """`what` ("success" or "mean_overlap") against N (log axis) or N/d, one line per variant;
    the textbook capacity of each as a dashed vertical line; for the modern network, the
    fraction Ramsauer's separation condition guarantees (dotted)."""
    traces = []
    for c in results:
        x = c.n_patterns if log_x else c.load
        colour = COLOURS[c.variant]
        traces.append(go.Scatter(x=x, y=getattr(c, what), mode="lines+markers",
                                 name=names[c.variant], line=dict(color=colour, width=2.5)))
        if c.variant == "modern" and what == "success":
            traces.append(go.Scatter(x=x, y=c.guaranteed, mode="lines", name="Modern: guaranteed "
                                     "by the separation bound", line=dict(color=colour, dash="dot")))
        n_th = theory_n(c.variant, d, flip, degree, c.params.get("beta", 1.0))
        if n_th is not None and c.n_patterns.min() / 2 <= n_th <= c.n_patterns.max() * 2:
            xt = n_th if log_x else n_th / d  # a trace, not a shape: exact on a log axis too
            traces.append(go.Scatter(x=[xt, xt], y=[0, 1], mode="lines", showlegend=False,
                                     name=f"{names[c.variant]}: textbook capacity",
                                     line=dict(color=colour, dash="dash", width=1.5)))
    # one line at the narrowest width (chart_style.wrap_title): a second line, 1.5 x larger
    # in presenter mode, crowds the plot on a projector
    title = (f"Recalled (overlap ≥ {SUCCESS_OVERLAP:g})" if what == "success" else
             "Mean final overlap")
    x_axis = (dict(title="patterns N (log)", type="log") if log_x else dict(title="load N/d"))
    y_axis = dict(title="fraction of trials" if what == "success" else "overlap",
                  range=[-0.03, 1.03] if what == "success" else None)
    return figure(traces, title, height, x_axis, y_axis, legend=dict(orientation="h", y=-0.25, x=0), hovermode="x unified")


def basin_figure(bm, name: str) -> go.Figure:
    return figure([go.Heatmap(x=bm.n_patterns, y=bm.flips, z=bm.success, zmin=0, zmax=1,
                              colorscale="Blues", colorbar=dict(title="recalled"),
                              hovertemplate="N = %{x}<br>flipped %{y:.0%}<br>recalled %{z:.0%}"
                                            "<extra></extra>")],
                  f"{name}: fraction recalled, d = {bm.d}", 380,
                  dict(title="patterns N", type="category" if len(bm.n_patterns) < 4 else None),
                  dict(title="fraction of bits flipped in the query", tickformat=".0%"))


THEORY_LINE = "theory: T_M(α), d → ∞"  # the phase diagram's dashed line, named in its legend


def phase_figure(pd, boundary: np.ndarray | None, alpha_c: float) -> go.Figure:
    """The final overlap over (load, temperature), with the replica theory's retrieval boundary
    (alphas, T_M) as a dashed line named in the legend, and alpha_c dotted."""
    traces = [go.Heatmap(x=pd.n_patterns / pd.d, y=pd.temperatures, z=pd.overlap.T, zmin=0,
                         zmax=1, colorscale="Viridis", colorbar=dict(title="overlap"),
                         hovertemplate="N/d = %{x:.3f}<br>T = %{y:.2f}<br>overlap %{z:.2f}"
                                       "<extra></extra>")]
    if boundary is not None:  # in the legend (red: legible on the heatmap and on the page)
        alphas, temps = boundary
        traces.append(go.Scatter(x=alphas, y=temps, mode="lines", name=THEORY_LINE,
                                 line=dict(color=RED, width=3, dash="dash"), showlegend=True))
    shapes = [vline(alpha_c, color=GREY, dash="dot", width=1)]
    notes = [note(alpha_c, 1.0, "α_c = 0.138", xref="x", yref="paper", yanchor="bottom",
                  font=dict(size=12))]
    return figure(traces, f"Final overlap with the stored pattern, d = {pd.d}", 400,
                  dict(title="load N/d", range=[0, float(pd.loads.max()) * 1.02]),
                  dict(title="temperature T", range=[0, float(pd.temperatures.max())]),
                  shapes=shapes, annotations=notes, showlegend=boundary is not None)

"""Plotly builders for the dense associative memory page: arrays in, go.Figure out.

No Streamlit, no dynamics: the page computes the numbers with hopfield_core.
"""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui.charts.figures import BLUE, GREEN, GREY, RED, figure, note, vline

REFERENCE_COLOURS = [BLUE, GREEN, "#8250df", "#bf8700", GREY]  # never the current curve's red


def stable_bars(labels: list[str], counts: list[int], N: int, current: str | None = None,
                title: str = "Stored patterns that are fixed points",
                height: int = 320) -> go.Figure:
    """One bar per model: how many of the N stored patterns survive one update unchanged.

    Green: all N are fixed points; red: none; blue: some. The current model gets a
    dark outline; a dashed line marks N; each bar is labelled k/N. The bars lie down, one
    model a row: every model's name stays readable however many there are and however narrow
    the column (standing bars would leave each name a few pixels).
    """
    counts = [int(c) for c in counts]
    colours = [GREEN if c == N else RED if c == 0 else BLUE for c in counts]
    widths = [3 if lab == current else 0 for lab in labels]
    bars = go.Bar(
        y=labels, x=counts, orientation="h",
        marker=dict(color=colours, line=dict(color="#24292f", width=widths)),
        text=[f"{c}/{N}" for c in counts], textposition="outside", cliponaxis=False,
        hovertemplate=f"%{{y}}: %{{x}} of {N} stored patterns are fixed points<extra></extra>")
    return figure(bars, title, max(height, 110 + 24 * len(labels)),
                  xaxis=dict(range=[0, max(N, 1) * 1.25], title="fixed points", rangemode="tozero"),
                  yaxis=dict(type="category", autorange="reversed", automargin=True, tickangle=0),
                  shapes=[{**vline(N, color=GREY, dash="dash"), "layer": "below"}])


def interaction_curves(z: np.ndarray, curves: dict[str, np.ndarray], current: str | None = None,
                       d: int | None = None, title: str = "How much a pattern counts: F(z) / F(d)",
                       height: int = 320) -> go.Figure:
    """F(z) / F(d) against the overlap z for a few interaction functions; the current one
    drawn thick in red, the others thin in other colours. A dotted line marks the typical crosstalk
    overlap sqrt(d) of an unrelated random pattern, when d is given."""
    data = []
    others = iter(REFERENCE_COLOURS * (1 + len(curves) // len(REFERENCE_COLOURS)))
    for name, y in curves.items():
        thick = name == current
        data.append(go.Scatter(
            x=z, y=y, mode="lines", name=name,
            line=dict(width=4 if thick else 1.5, color=RED if thick else next(others)),
            opacity=1.0 if thick else 0.55,
            hovertemplate=f"{name}<br>z = %{{x:.0f}}: %{{y:.3g}}<extra></extra>"))
    shapes, notes = [], []
    if d is not None:
        shapes.append(vline(float(np.sqrt(d)), color=GREY, dash="dot"))
        notes.append(note(float(np.sqrt(d)), 1.0, "sqrt(d)", yref="paper", xanchor="right",
                          yanchor="top"))
    return figure(data, title, height, xaxis=dict(title="overlap z = x . xi"),
                  yaxis=dict(title="F(z) / F(d)", range=[-1.05, 1.05]),
                  shapes=shapes, annotations=notes)

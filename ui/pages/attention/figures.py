"""Plotly builders for the attention page: arrays in, go.Figure out. No Streamlit and no
dynamics here: every number plotted is computed by the caller.
# h heads, n_q queries, n_k keys, T steps
"""
from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from ui.charts import style
from ui.charts.figures import (
    BLUE,
    GREY,
    axis_names,
    figure,
    hline,
    layout,
    make,
    note,
    panel_axes,
    uint8,
)


def attention_heatmaps(weights: np.ndarray, query_labels: list[str], key_labels: list[str],
                       title: str, height: int | None = None) -> go.Figure:
    """Attention weights (h, n_q, n_k): one heatmap per head, queries down, keys across; where the
    keys' names would not fit across a panel (style.runs_down), turned: keys down, one named row
    each, queries across, the chart growing with the keys.

    One colour scale from 0 to 1 for every head: a uniform row looks pale, a sharp one dark.
    """
    W = np.asarray(weights)
    h, n_q, n_k = W.shape
    titles = [f"head {i + 1}" for i in range(h)] if h > 1 else None
    panel_px = 540 / h  # the narrowest a panel is drawn at: the main column at 1024 px
    turned = style.runs_down(key_labels, panel_px)
    across, down = (query_labels, key_labels) if turned else (key_labels, query_labels)
    what = ("key", "query") if turned else ("query", "key")  # (rows, columns)
    data = [go.Heatmap(z=W[i].T if turned else W[i], x=across, y=down, zmin=0.0, zmax=1.0,
                       colorscale="Blues", showscale=i == h - 1, **axis_names(i + 1),
                       colorbar=dict(title="weight", thickness=14),
                       hovertemplate=f"{what[0]} %{{y}}<br>{what[1]} %{{x}}<br>weight %{{z:.4f}}<extra></extra>")
            for i in range(h)]
    axes = panel_axes(h, 0.04, y=dict(autorange="reversed"), titles=titles)
    x_title = "query" if turned else "key (stored pattern)"
    for i in range(1, h + 1):
        axes[f"xaxis{'' if i == 1 else i}"].update(style.category_axis(across, panel_px, title=x_title))
    if turned:
        axes["yaxis"].update(style.row_axis(key_labels, title="key (stored pattern)"))
    else:
        axes["yaxis"].update(type="category", tickmode="array", tickvals=query_labels, title="query",
                             ticktext=[style.short(q, 16) for q in query_labels])
    for i in range(2, h + 1):  # shared rows: only the first panel labels them
        axes[f"yaxis{i}"].update(matches="y", showticklabels=False)
    if height is None:
        height = style.rows_height(n_k, 280) + 60 if turned else max(280, 170 + 28 * n_q)
    lay = layout(title, height, **axes)
    lay["margin"] = dict(l=10, r=10, t=70 if h > 1 else 40, b=10)
    return make(data, lay, width_px=540)  # the page's whole width


def image_strip(frames: list[np.ndarray], labels: list[str], max_per_row: int = 12,
                tile_px: int = 90) -> go.Figure:
    """Frames (H, W, 3) in [0, 1] tiled left to right in rows of equal length (at most
    max_per_row), each labelled above.

    Drawn as one image (light, whatever the number of frames), white gaps between tiles.
    """
    n = len(frames)
    H, W = frames[0].shape[:2]
    gap = max(2, H // 4)
    band = max(4, H // 3)  # white band above each row for the labels
    rows = math.ceil(n / max_per_row)
    cols = math.ceil(n / rows)
    canvas = np.ones((rows * (band + H + gap), cols * (W + gap) - gap, 3))
    notes = []
    for k, img in enumerate(frames):
        r, c = divmod(k, cols)
        top, left = r * (band + H + gap) + band, c * (W + gap)
        canvas[top:top + H, left:left + W] = img
        notes.append(note(left + (W - 1) / 2, top - band / 2 - 0.5, labels[k], font=dict(size=12),
                          yanchor="middle"))
    width_units = cols * (W + gap)
    height = int(tile_px * rows * (band + H + gap) / (W + gap)) + 20
    lay = layout(None, max(height, 120), xaxis=dict(visible=False, range=[-0.5, width_units - gap - 0.5]),
                 yaxis=dict(visible=False, scaleanchor="x"), annotations=notes)
    lay["margin"] = dict(l=0, r=0, t=10, b=10)
    return make(go.Image(z=uint8(canvas), hoverinfo="skip"), lay)


def change_chart(changes: np.ndarray, tol: float | None = None, height: int = 300) -> go.Figure:
    """max_i |xi_t - xi_{t-1}| per step t = 1..T on a log axis; exact zeros are left out."""
    c = np.asarray(changes, dtype=np.float64)
    t = np.arange(1, len(c) + 1)
    keep = c > 0
    line = go.Scatter(x=t[keep], y=c[keep], mode="lines+markers", name="change",
                      line=dict(color=BLUE, width=3), marker=dict(size=7),
                      hovertemplate="step %{x}: %{y:.3e}<extra></extra>")
    shapes, notes = [], []
    if tol is not None:
        shapes.append(hline(tol, color=GREY, dash="dot"))
        notes.append(note(1.0, tol, f"tolerance {tol:g}", xref="paper", xanchor="right",
                          yanchor="bottom"))
    zeros = t[~keep]
    if len(zeros):
        notes.append(note(float(zeros[0]), 0.1, f"exactly 0 from step {int(zeros[0])}",
                          yref="paper", xanchor="left", font=dict(color=style.AXIS_TEXT)))
    return figure(line, "Change per step (log scale)", height,
                  xaxis=style.integer_axis(1, len(c), "step t"),
                  yaxis=dict(title="max |ξ(t) − ξ(t−1)|", type="log", exponentformat="power"),
                  shapes=shapes, annotations=notes)

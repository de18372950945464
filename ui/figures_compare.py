"""Plotly builders for the side-by-side and attention pages: arrays in, go.Figure out.

No Streamlit and no dynamics here: every number plotted is computed by the caller.
# n panels, T steps, h heads, n_q queries, n_k keys
"""
from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from . import chart_style as style
from .figures import BLUE, GREY, RED, figure, hline, layout, make, note, panel_axes

SERIES_COLOURS = [BLUE, "#bf8700", "#8250df", "#1a7f37", RED, GREY]


def _uint8(img: np.ndarray) -> np.ndarray:
    return np.round(np.clip(img, 0, 1) * 255).astype(np.uint8)


def _axis_names(i: int) -> dict:
    """The axes of panel i (1-based) as a trace names them."""
    return dict(xaxis=f"x{'' if i == 1 else i}", yaxis=f"y{'' if i == 1 else i}")


def image_row(frames: list[np.ndarray], titles: list[str], height: int = 260) -> go.Figure:
    """n images (H, W, 3) in [0, 1] in one row, each with its title, pixels crisp."""
    n = len(frames)
    data = [go.Image(z=_uint8(img), name=titles[i - 1], **_axis_names(i),
                     hovertemplate="row %{y}, col %{x}<extra></extra>")
            for i, img in enumerate(frames, start=1)]
    axes = panel_axes(n, 0.03, x=dict(visible=False), y=dict(visible=False), titles=titles)
    for i in range(1, n + 1):
        axes[f"yaxis{'' if i == 1 else i}"]["scaleanchor"] = f"x{'' if i == 1 else i}"
    lay = layout(None, height, **axes)
    lay["margin"] = dict(l=10, r=10, t=58, b=10)  # room for two-line panel titles
    return make(data, lay)


def energy_small_multiples(curves: list[np.ndarray], titles: list[str],
                           height: int = 280) -> go.Figure:
    """One energy curve per panel, each with its own y scale (the units differ), each step
    axis from 0 to that run's last step."""
    n = len(curves)
    data = []
    axes = panel_axes(n, 0.07, y=dict(exponentformat="power"), titles=titles)
    for i, E in enumerate(curves, start=1):
        E = np.asarray(E, dtype=np.float64)
        data.append(go.Scatter(x=np.arange(len(E)), y=E, mode="lines+markers", name=titles[i - 1],
                               line=dict(color=SERIES_COLOURS[(i - 1) % len(SERIES_COLOURS)], width=3),
                               marker=dict(size=6), showlegend=False,
                               **_axis_names(i),
                               hovertemplate="step %{x}: E = %{y:.6g}<extra></extra>"))
        axes[f"xaxis{'' if i == 1 else i}"].update(style.step_axis(len(E) - 1))
    axes["yaxis"]["title"] = "E"
    lay = layout(None, height, **axes)
    lay["margin"] = dict(l=10, r=10, t=58, b=10)
    return make(data, lay)


def energies_normalised(curves: list[np.ndarray], names: list[str], height: int = 300) -> go.Figure:
    """Curves already normalised to 1 at the query and 0 at the end, overlaid on one axis."""
    data = [go.Scatter(x=np.arange(len(y)), y=y, mode="lines+markers", name=name,
                       line=dict(color=SERIES_COLOURS[i % len(SERIES_COLOURS)], width=3),
                       hovertemplate=name + ", step %{x}: %{y:.3f}<extra></extra>")
            for i, (y, name) in enumerate(zip(curves, names))]
    last = max((len(y) for y in curves), default=1) - 1
    return figure(data, "Energy, normalised: 1 at the query, 0 at the end", height,
                  xaxis=style.step_axis(last),
                  yaxis=dict(title="(E(t) − E(end)) / (E(0) − E(end))"), width_px=540)


def attention_heatmaps(weights: np.ndarray, query_labels: list[str], key_labels: list[str],
                       title: str, height: int | None = None) -> go.Figure:
    """Attention weights (h, n_q, n_k): one heatmap per head, queries down, keys across.

    One colour scale from 0 to 1 for every head: a uniform row looks pale, a sharp one dark.
    """
    W = np.asarray(weights)
    h, n_q, n_k = W.shape
    titles = [f"head {i + 1}" for i in range(h)] if h > 1 else None
    data = [go.Heatmap(z=W[i], x=key_labels, y=query_labels, zmin=0.0, zmax=1.0,
                       colorscale="Blues", showscale=i == h - 1, **_axis_names(i + 1),
                       colorbar=dict(title="weight", thickness=14),
                       hovertemplate="query %{y}<br>key %{x}<br>weight %{z:.4f}<extra></extra>")
            for i in range(h)]
    panel_px = 540 / h  # the narrowest a panel is drawn at: the main column at 1024 px
    axes = panel_axes(h, 0.04, y=dict(autorange="reversed"), titles=titles)
    for i in range(1, h + 1):
        axes[f"xaxis{'' if i == 1 else i}"].update(
            style.category_axis(key_labels, panel_px, title="key (stored pattern)"))
    axes["yaxis"].update(type="category", tickmode="array", tickvals=query_labels, title="query",
                         ticktext=[style.short(q, 16) for q in query_labels])
    for i in range(2, h + 1):  # shared rows: only the first panel labels the queries
        axes[f"yaxis{i}"].update(matches="y", showticklabels=False)
    if height is None:
        height = max(280, 170 + 28 * n_q)
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
    return make(go.Image(z=_uint8(canvas), hoverinfo="skip"), lay)


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

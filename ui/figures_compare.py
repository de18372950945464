"""Plotly builders for the side-by-side and attention pages: arrays in, go.Figure out.

No Streamlit and no dynamics here: every number plotted is computed by the caller.
# n panels, T steps, h heads, n_q queries, n_k keys
"""
from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .figures import BLUE, GREY, RED, _layout

SERIES_COLOURS = [BLUE, "#bf8700", "#8250df", "#1a7f37", RED, GREY]


def _uint8(img: np.ndarray) -> np.ndarray:
    return np.round(np.clip(img, 0, 1) * 255).astype(np.uint8)


def image_row(frames: list[np.ndarray], titles: list[str], height: int = 260) -> go.Figure:
    """n images (H, W, 3) in [0, 1] in one row, each with its title, pixels crisp."""
    n = len(frames)
    fig = make_subplots(rows=1, cols=n, subplot_titles=titles, horizontal_spacing=0.03)
    for i, img in enumerate(frames, start=1):
        fig.add_trace(go.Image(z=_uint8(img), name=titles[i - 1],
                               hovertemplate="row %{y}, col %{x}<extra></extra>"), row=1, col=i)
        fig.update_xaxes(visible=False, row=1, col=i)
        fig.update_yaxes(visible=False, scaleanchor=f"x{'' if i == 1 else i}", row=1, col=i)
    _layout(fig, None, height)
    fig.update_layout(margin=dict(l=10, r=10, t=40, b=10))
    return fig


def energy_small_multiples(curves: list[np.ndarray], titles: list[str],
                           height: int = 280) -> go.Figure:
    """One energy curve per panel, each with its own y scale (the units differ)."""
    n = len(curves)
    fig = make_subplots(rows=1, cols=n, subplot_titles=titles, horizontal_spacing=0.07)
    for i, E in enumerate(curves, start=1):
        E = np.asarray(E, dtype=np.float64)
        fig.add_trace(go.Scatter(x=np.arange(len(E)), y=E, mode="lines+markers", name=titles[i - 1],
                                 line=dict(color=SERIES_COLOURS[(i - 1) % len(SERIES_COLOURS)], width=3),
                                 marker=dict(size=6), showlegend=False,
                                 hovertemplate="step %{x}: E = %{y:.6g}<extra></extra>"), row=1, col=i)
        fig.update_xaxes(title="step t", dtick=max(1, len(E) // 6), rangemode="tozero", row=1, col=i)
        fig.update_yaxes(exponentformat="power", row=1, col=i)
    fig.update_yaxes(title="E", row=1, col=1)
    _layout(fig, None, height)
    fig.update_layout(margin=dict(l=10, r=10, t=40, b=10))
    return fig


def energies_normalised(curves: list[np.ndarray], names: list[str], height: int = 300) -> go.Figure:
    """Curves already normalised to 1 at the query and 0 at the end, overlaid on one axis."""
    fig = go.Figure()
    for i, (y, name) in enumerate(zip(curves, names)):
        fig.add_trace(go.Scatter(x=np.arange(len(y)), y=y, mode="lines+markers", name=name,
                                 line=dict(color=SERIES_COLOURS[i % len(SERIES_COLOURS)], width=3),
                                 hovertemplate=name + ", step %{x}: %{y:.3f}<extra></extra>"))
    fig.update_xaxes(title="step t", rangemode="tozero")
    fig.update_yaxes(title="(E(t) - E(end)) / (E(0) - E(end))")
    _layout(fig, "Energy, normalised: 1 at the query, 0 at the end", height)
    fig.update_layout(legend=dict(orientation="h", y=-0.25))
    return fig


def attention_heatmaps(weights: np.ndarray, query_labels: list[str], key_labels: list[str],
                       title: str, height: int | None = None) -> go.Figure:
    """Attention weights (h, n_q, n_k): one heatmap per head, queries down, keys across.

    One colour scale from 0 to 1 for every head: a uniform row looks pale, a sharp one dark.
    """
    W = np.asarray(weights)
    h, n_q, n_k = W.shape
    titles = [f"head {i + 1}" for i in range(h)] if h > 1 else None
    fig = make_subplots(rows=1, cols=h, subplot_titles=titles, horizontal_spacing=0.04,
                        shared_yaxes=True)
    for i in range(h):
        fig.add_trace(go.Heatmap(z=W[i], x=key_labels, y=query_labels, zmin=0.0, zmax=1.0,
                                 colorscale="Blues", showscale=i == h - 1,
                                 colorbar=dict(title="weight", thickness=14),
                                 hovertemplate="query %{y}<br>key %{x}<br>weight %{z:.4f}<extra></extra>"),
                      row=1, col=i + 1)
        fig.update_xaxes(title="key (stored pattern)", tickangle=-45 if n_k > 8 else 0,
                         row=1, col=i + 1)
    fig.update_yaxes(autorange="reversed", title="query", row=1, col=1)
    fig.update_yaxes(autorange="reversed")
    if height is None:
        height = max(280, 170 + 28 * n_q)
    _layout(fig, title, height)
    fig.update_layout(margin=dict(l=10, r=10, t=70 if h > 1 else 40, b=10))
    return fig


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
    fig = go.Figure()
    for k, img in enumerate(frames):
        r, c = divmod(k, cols)
        top, left = r * (band + H + gap) + band, c * (W + gap)
        canvas[top:top + H, left:left + W] = img
        fig.add_annotation(x=left + (W - 1) / 2, y=top - band / 2 - 0.5, text=labels[k],
                           showarrow=False, font=dict(size=12), yanchor="middle")
    fig.add_trace(go.Image(z=_uint8(canvas), hoverinfo="skip"))
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False, scaleanchor="x")
    width_units = cols * (W + gap)
    height = int(tile_px * rows * (band + H + gap) / (W + gap)) + 20
    _layout(fig, None, max(height, 120))
    fig.update_layout(margin=dict(l=0, r=0, t=10, b=10), width=None)
    fig.update_xaxes(range=[-0.5, width_units - gap - 0.5])
    return fig


def change_chart(changes: np.ndarray, tol: float | None = None, height: int = 300) -> go.Figure:
    """max_i |xi_t - xi_{t-1}| per step t = 1..T on a log axis; exact zeros are left out."""
    c = np.asarray(changes, dtype=np.float64)
    t = np.arange(1, len(c) + 1)
    keep = c > 0
    fig = go.Figure(go.Scatter(x=t[keep], y=c[keep], mode="lines+markers", name="change",
                               line=dict(color=BLUE, width=3), marker=dict(size=7),
                               hovertemplate="step %{x}: %{y:.3e}<extra></extra>"))
    if tol is not None:
        fig.add_hline(y=tol, line=dict(color=GREY, dash="dot"),
                      annotation_text=f"tolerance {tol:g}", annotation_position="top right")
    zeros = t[~keep]
    if len(zeros):
        fig.add_annotation(x=float(zeros[0]), y=0.1, yref="paper", xanchor="left",
                           text=f"exactly 0 from step {int(zeros[0])}", showarrow=False,
                           font=dict(color=GREY))
    fig.update_xaxes(title="step t", range=[0, len(c) + 0.5], dtick=max(1, len(c) // 10))
    fig.update_yaxes(title="max |ξ(t) − ξ(t−1)|", type="log", exponentformat="power")
    return _layout(fig, "How far each step moves the state (log scale)", height)

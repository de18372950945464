"""Plotly builders for the side-by-side page: arrays in, go.Figure out. No Streamlit and no
dynamics here: every number plotted is computed by the caller.
# n panels, T steps
"""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui.charts import style
from ui.charts.figures import (
    SERIES_COLOURS,
    axis_names,
    figure,
    layout,
    make,
    panel_axes,
    uint8,
)


def image_row(frames: list[np.ndarray], titles: list[str], height: int = 260) -> go.Figure:
    """n images (H, W, 3) in [0, 1] in one row, each with its title, pixels crisp."""
    n = len(frames)
    data = [go.Image(z=uint8(img), name=titles[i - 1], **axis_names(i),
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
                               **axis_names(i),
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

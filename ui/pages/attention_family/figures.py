"""The exponential-family page's figures: arrays in, go.Figure out (no Streamlit)."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui.charts import style
from ui.charts.figures import BLUE, GREY, RED, figure, layout, make, vline


def cloud(Z: np.ndarray, title: str, colour: str, height: int = 380) -> go.Figure:
    """A token cloud (n, 2) or (n, 3), its centroid as a cross."""
    c = Z.mean(axis=0)
    hover = "(%{x:.3g}, %{y:.3g}" + (", %{z:.3g})" if Z.shape[1] == 3 else ")") + "<extra></extra>"
    if Z.shape[1] == 3:
        data = [go.Scatter3d(x=Z[:, 0], y=Z[:, 1], z=Z[:, 2], mode="markers", name="tokens",
                             marker=dict(size=3.5, color=colour), hovertemplate=hover),
                go.Scatter3d(x=[c[0]], y=[c[1]], z=[c[2]], mode="markers", name="centroid",
                             marker=dict(size=5, color="black", symbol="diamond"))]
        axis = dict(nticks=4, tickformat=".1f", tickfont=dict(size=11), title=dict(font=dict(size=12)))
        return make(data, layout(title, height, showlegend=False, scene=dict(
            aspectmode="cube", camera=dict(eye=dict(x=1.7, y=1.7, z=1.1)),
            xaxis={**axis, "title": {**axis["title"], "text": "feature 1"}},
            yaxis={**axis, "title": {**axis["title"], "text": "feature 2"}},
            zaxis={**axis, "title": {**axis["title"], "text": "feature 3"}})))
    return figure([go.Scatter(x=Z[:, 0], y=Z[:, 1], mode="markers", name="tokens",
                              marker=dict(size=7, color=colour), hovertemplate=hover),
                   go.Scatter(x=[c[0]], y=[c[1]], mode="markers", name="centroid",
                              marker=dict(size=11, color="black", symbol="x"))],
                  title, height, dict(title="feature 1"),
                  dict(title="feature 2", scaleanchor="x", scaleratio=1), showlegend=False)


def spread_curves(series: dict, t: int, title: str, y_title: str,
                  height: int = 300) -> go.Figure:
    """One line per case against the layer, on a log axis; the layer shown marked."""
    colours = [RED, BLUE]
    data = [go.Scatter(x=np.arange(len(y)), y=y, mode="lines+markers", name=name,
                       line=dict(color=colours[i % 2], width=2.5),
                       hovertemplate="layer %{x}: %{y:.4g}<extra></extra>")
            for i, (name, y) in enumerate(series.items())]
    layers = len(next(iter(series.values())))
    return figure(data, title, height, style.integer_axis(0, layers - 1, "layer"),
                  dict(title=y_title, type="log", exponentformat="power", dtick=1),
                  shapes=[vline(t, color=GREY, dash="dot")])


def energy_curves(tied: np.ndarray, untied: np.ndarray, height: int = 340) -> go.Figure:
    layers = np.arange(len(tied))
    return figure([go.Scatter(x=layers, y=tied, mode="lines+markers", name="tied: K as keys "
                              "and values, no projections", line=dict(color=BLUE, width=2.5)),
                   go.Scatter(x=layers, y=untied, mode="lines+markers",
                              name="independent W_Q, W_K, W_V",
                              line=dict(color=RED, width=2.5, dash="dash"))],
                  "Energy of the tokens, summed, after each layer", height,
                  style.integer_axis(0, len(tied) - 1, "layer"), dict(title="Σ E(z_i)"),
                  width_px=540)


def eigen_bars(values: np.ndarray, height: int = 300) -> go.Figure:
    k = np.arange(1, len(values) + 1)
    return figure([go.Bar(x=k, y=values, marker_color=BLUE,
                          hovertemplate="eigenvalue %{x}: %{y:.4g}<extra></extra>")],
                  "Hessian eigenvalues", height,
                  style.integer_axis(1, len(values), "k"), dict(title="λ_k", exponentformat="power"))

"""Pure Plotly figure builders: arrays in, go.Figure out. No Streamlit, no dynamics."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

BLUE, RED, GREY, GREEN = "#1f6feb", "#d1242f", "#8c959f", "#1a7f37"
FONT = dict(family="Inter, Segoe UI, sans-serif", size=14)


def _layout(fig: go.Figure, title: str | None, height: int) -> go.Figure:
    fig.update_layout(title=dict(text=title, x=0.02, font=dict(size=16)) if title else None,
                      height=height, margin=dict(l=10, r=10, t=40 if title else 10, b=10),
                      font=FONT, template="plotly_white")
    return fig


def image(img: np.ndarray, title: str | None = None, height: int = 300) -> go.Figure:
    """An (H, W, 3) image in [0, 1], pixels crisp, no axes."""
    z = np.round(np.clip(img, 0, 1) * 255).astype(np.uint8)
    fig = go.Figure(go.Image(z=z, hovertemplate="row %{y}, col %{x}<extra></extra>"))
    fig.update_xaxes(visible=False)
    fig.update_yaxes(visible=False, scaleanchor="x")
    return _layout(fig, title, height)


def energy_curve(energies: np.ndarray, t: int, rises: np.ndarray | None = None,
                 title: str = "Energy", height: int = 300) -> go.Figure:
    """E(0..t), the current step marked; steps where E rose marked in red."""
    E = np.asarray(energies)[: t + 1]
    steps = np.arange(len(E))
    fig = go.Figure(go.Scatter(x=steps, y=E, mode="lines+markers", line=dict(color=BLUE, width=3),
                               marker=dict(size=7), name="E(t)",
                               hovertemplate="step %{x}: E = %{y:.6g}<extra></extra>"))
    fig.add_trace(go.Scatter(x=[t], y=[E[-1]], mode="markers", marker=dict(size=14, color=BLUE,
                             line=dict(color="white", width=2)), showlegend=False, hoverinfo="skip"))
    if rises is not None and len(rises):
        r = np.asarray([i for i in rises if i <= t], dtype=int)
        fig.add_trace(go.Scatter(x=r, y=E[r], mode="markers", name="energy rose",
                                 marker=dict(symbol="x", size=14, color=RED)))
    fig.update_xaxes(title="step t", rangemode="tozero", dtick=max(1, len(energies) // 10))
    fig.update_yaxes(title="E", exponentformat="power")
    fig.update_layout(showlegend=bool(rises is not None and len(rises)))
    return _layout(fig, title, height)


def overlap_bars(m: np.ndarray, names: list[str], title: str = "Overlap with each stored pattern",
                 height: int = 300) -> go.Figure:
    """m_mu in [-1, 1]: +1 is the pattern itself, -1 its mirror image."""
    colours = [GREEN if v > 0.99 else RED if v < -0.99 else BLUE for v in m]
    labels = [f"{i + 1}. {n}" for i, n in enumerate(names)]
    fig = go.Figure(go.Bar(x=labels, y=m, marker_color=colours,
                           hovertemplate="%{x}: m = %{y:.3f}<extra></extra>"))
    fig.update_yaxes(range=[-1.05, 1.05], title="m", zeroline=True)
    fig.update_xaxes(tickangle=-45 if len(names) > 8 else 0)
    return _layout(fig, title, height)


def weight_bars(p: np.ndarray, names: list[str], title: str = "Softmax weights",
                height: int = 300) -> go.Figure:
    labels = [f"{i + 1}. {n}" for i, n in enumerate(names)]
    fig = go.Figure(go.Bar(x=labels, y=p, marker_color=BLUE,
                           hovertemplate="%{x}: p = %{y:.4f}<extra></extra>"))
    fig.update_yaxes(range=[0, 1.02], title="weight")
    fig.update_xaxes(tickangle=-45 if len(names) > 8 else 0)
    return _layout(fig, title, height)


def matrix_heatmap(W: np.ndarray, title: str, height: int = 380, symmetric: bool = True,
                   x_title: str = "j", y_title: str = "i") -> go.Figure:
    lim = float(np.max(np.abs(W))) or 1.0
    fig = go.Figure(go.Heatmap(z=W, colorscale="RdBu_r", zmin=-lim if symmetric else None,
                               zmax=lim if symmetric else None,
                               hovertemplate=f"{y_title}=%{{y}}, {x_title}=%{{x}}: %{{z:.4g}}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", title=y_title, scaleanchor="x")
    fig.update_xaxes(title=x_title)
    return _layout(fig, title, height)


def line_chart(x: np.ndarray, series: dict[str, np.ndarray], title: str, x_title: str,
               y_title: str, height: int = 320, log_x: bool = False) -> go.Figure:
    fig = go.Figure()
    for name, y in series.items():
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines+markers", name=name))
    fig.update_xaxes(title=x_title, type="log" if log_x else None)
    fig.update_yaxes(title=y_title)
    return _layout(fig, title, height)

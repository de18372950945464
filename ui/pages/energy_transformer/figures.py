"""The Energy Transformer page's charts: energy, error, the energy's two parts, and the rate
at which it falls, and where one patch looks in each head. Arrays in, go.Figure out.

# T steps; every series has T+1 values, one per state x_0 .. x_T
"""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui.charts import style
from ui.charts.figures import (
    BLUE,
    GREEN,
    GREY,
    RED,
    figure,
    layout,
    make,
    panel_axes,
    vline,
)

HEIGHT = 300


def _marker(x, y, color) -> go.Scatter:
    return go.Scatter(x=[x], y=[y], mode="markers", showlegend=False, hoverinfo="skip",
                      marker=dict(size=13, color=color, line=dict(color="white", width=2)))


def energy(E: np.ndarray, t: int) -> go.Figure:
    """Total energy after each step, the shown step marked."""
    T = len(E) - 1
    s = np.arange(T + 1)
    data = [go.Scatter(x=s, y=E, mode="lines+markers" if T <= 30 else "lines", name="E",
                       line=dict(color=BLUE, width=3), showlegend=False,
                       hovertemplate="step %{x}: E = %{y:.6g}<extra></extra>"),
            _marker(t, E[t], BLUE)]
    return figure(data, "Energy E after each step", HEIGHT, xaxis=style.step_axis(T),
                  yaxis=dict(title="E", exponentformat="power"), shapes=[vline(t, color=GREY, dash="dot")])


def error(mse: np.ndarray, yardstick: float, t: int) -> go.Figure:
    """Masked-patch MSE after each step, with the mean-fill yardstick as a dashed line."""
    T = len(mse) - 1
    s = np.arange(T + 1)
    data = [go.Scatter(x=s, y=mse, mode="lines+markers" if T <= 30 else "lines", name="ET",
                       line=dict(color=GREEN, width=3),
                       hovertemplate="step %{x}: MSE = %{y:.4f}<extra></extra>"),
            go.Scatter(x=[0, T], y=[yardstick, yardstick], mode="lines", name="mean fill",
                       line=dict(color=GREY, width=2, dash="dash"),
                       hovertemplate="mean fill: %{y:.4f}<extra></extra>"),
            _marker(t, mse[t], GREEN)]
    top = max(float(np.max(mse)), yardstick) * 1.1 or 1.0
    return figure(data, "Error on the hidden patches", HEIGHT, xaxis=style.step_axis(T),
                  yaxis=dict(title="masked-patch MSE", range=[0, top]),
                  shapes=[vline(t, color=GREY, dash="dot")])


def parts(e_att: np.ndarray, e_hn: np.ndarray, t: int) -> go.Figure:
    """The attention and Hopfield parts of the energy, each after every step."""
    T = len(e_att) - 1
    s = np.arange(T + 1)
    mode = "lines+markers" if T <= 30 else "lines"
    data = [go.Scatter(x=s, y=e_att, mode=mode, name="attention E_ATT", line=dict(color=BLUE, width=3),
                       hovertemplate="step %{x}: E_ATT = %{y:.6g}<extra></extra>"),
            go.Scatter(x=s, y=e_hn, mode=mode, name="Hopfield E_HN", line=dict(color=RED, width=3),
                       hovertemplate="step %{x}: E_HN = %{y:.6g}<extra></extra>"),
            _marker(t, e_att[t], BLUE), _marker(t, e_hn[t], RED)]
    return figure(data, "The energy's two parts", HEIGHT, xaxis=style.step_axis(T),
                  yaxis=dict(title="E", exponentformat="power"),
                  shapes=[vline(t, color=GREY, dash="dot")])


def rate(rates: np.ndarray, E: np.ndarray, alpha: float, t: int) -> go.Figure:
    """How fast the energy falls: -dE/dt = (dE/dg)^T M (dE/dg) at each state, beside what each
    discrete step did, -(E_{t+1} - E_t) / alpha, drawn at the step's start. On a log axis
    (the fall slows by orders of magnitude) when every value is positive, else linear."""
    T = len(rates) - 1
    s = np.arange(T + 1)
    mode = "lines+markers" if T <= 30 else "lines"
    law, step = -np.asarray(rates), -np.diff(E) / alpha
    data = [go.Scatter(x=s, y=law, mode=mode, name="−dE/dt (the law)", line=dict(color=BLUE, width=3),
                       hovertemplate="at x_%{x}: −dE/dt = %{y:.4g}<extra></extra>")]
    if T > 0:
        data.append(go.Scatter(x=s[:-1], y=step, mode=mode, name="−ΔE / α (the step)",
                               line=dict(color=GREY, width=2, dash="dash"),
                               hovertemplate="step %{x} to next: −ΔE/α = %{y:.4g}<extra></extra>"))
    data.append(_marker(t, law[t], BLUE))
    log = bool(np.all(law > 0) and np.all(step > 0))
    return figure(data, "How fast the energy falls", HEIGHT, xaxis=style.step_axis(T),
                  yaxis=dict(title="fall rate" + (" (log)" if log else ""), exponentformat="power",
                             type="log" if log else "linear"),
                  shapes=[vline(t, color=GREY, dash="dot")])


def attention(weights: np.ndarray, mask: np.ndarray, query: int, t: int) -> go.Figure:
    """What patch `query` attends to at step t in each head: weights (H, N) over the G x G grid
    of keys (row down, column across, counted from 1 as the page's grids name them), one panel a
    head on one colour scale, the query's patch outlined and the hidden patches marked with a dot."""
    H, N = weights.shape
    G = int(round(N ** 0.5))
    top = float(weights.max()) or 1.0
    hr, hc = np.nonzero(np.asarray(mask, dtype=bool))
    hr, hc = hr + 1, hc + 1
    qr, qc = (v + 1 for v in divmod(int(query), G))
    at = np.arange(1, G + 1)
    data, shapes = [], []
    for h in range(H):
        sfx = "" if h == 0 else str(h + 1)
        data.append(go.Heatmap(
            z=weights[h].reshape(G, G) * 100, x=at, y=at, zmin=0,
            zmax=top * 100, colorscale="Viridis", showscale=h == H - 1, xaxis=f"x{sfx}",
            yaxis=f"y{sfx}", colorbar=dict(thickness=12, title=dict(text="%")),
            hovertemplate=f"head {h + 1}, row %{{y}}, column %{{x}}: %{{z:.1f}} %<extra></extra>"))
        data.append(go.Scatter(x=hc, y=hr, mode="markers", xaxis=f"x{sfx}", yaxis=f"y{sfx}",
                               showlegend=False, hoverinfo="skip",
                               marker=dict(size=4, color="white", line=dict(color="black", width=1))))
        shapes.append(dict(type="rect", xref=f"x{sfx}", yref=f"y{sfx}", x0=qc - 0.5, x1=qc + 0.5,
                           y0=qr - 0.5, y1=qr + 0.5, line=dict(color=RED, width=3)))
    axis = dict(range=[0.5, G + 0.5], showticklabels=False, showgrid=False, zeroline=False,
                showline=False, ticks="", constrain="domain")
    lay = panel_axes(H, 0.03, x=axis, y={**axis, "autorange": "reversed"},
                     titles=[f"head {h + 1}" for h in range(H)])
    for h in range(H):
        sfx = "" if h == 0 else str(h + 1)
        lay[f"yaxis{sfx}"]["scaleanchor"] = f"x{sfx}"
        lay[f"yaxis{sfx}"].pop("range", None)
    lay["margin"] = dict(l=10, r=10, t=70, b=10)
    return make(data, layout(f"Where patch (row {qr}, column {qc}) looks, step {t}", 270,
                             shapes=shapes, **lay))

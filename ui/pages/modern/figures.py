"""Plotly builders for the modern-network page: arrays in, go.Figure out. No Streamlit."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui.charts import style
from ui.charts.figures import BLUE, GREEN, GREY, RED, figure

KIND_COLOURS = {"single": GREEN, "metastable": "#bf8700", "global": RED}
COLOUR_WORDS = {GREEN: "green", "#bf8700": "amber", RED: "red"}  # how the caption names them
SETTLED, STEP_LIMIT = "circle", "circle-open"  # a run's marker: filled, or hollow at the limit
MARK_SYMBOL, MARK_COLOUR, MARK_SIZE = "circle-open", "black", 20  # the betas pictured below
GAMMA_COLOURS = [BLUE, "#8250df", "#bf8700", RED, GREY]


def weights_heatmap(W: np.ndarray, names: list[str], title: str = "Softmax weights at every step",
                    height: int = 320) -> go.Figure:
    """W (T+1, N): row t holds softmax(beta X xi_t). One column per stored pattern, named, or one
    row each, steps across, when their names would not fit across (style.runs_down)."""
    W = np.asarray(W)
    steps = np.arange(W.shape[0])
    labels = style.numbered(names)
    bar = dict(title="p", thickness=12)
    if style.runs_down(labels):  # too many names to fit across: patterns down, steps across
        heat = go.Heatmap(z=W.T, x=steps, y=labels, zmin=0.0, zmax=1.0, colorscale="Blues",
                          colorbar=bar, hovertemplate="step %{x}, %{y}: p = %{z:.4f}<extra></extra>")
        return figure(heat, title, style.rows_height(len(labels), height),
                      xaxis=style.index_axis(len(steps), "step t"), yaxis=style.row_axis(labels))
    heat = go.Heatmap(z=W, x=labels, y=steps, zmin=0.0, zmax=1.0, colorscale="Blues", colorbar=bar,
                      hovertemplate="step %{y}, %{x}: p = %{z:.4f}<extra></extra>")
    return figure(heat, title, height, xaxis=style.category_axis(labels),
                  yaxis=style.index_axis(len(steps), "step t", reverse=True))


def sweep_chart(betas: np.ndarray, k90: np.ndarray, kinds, converged: np.ndarray, N: int,
                current: float | None = None, marked=(), bound_beta: float | None = None,
                title: str = "k90 at the fixed point, for every beta",
                height: int = 360) -> go.Figure:
    """k90 against beta (log axis), one marker colour per kind of fixed point.

    current: the beta of the run above (a dashed line); marked: betas whose fixed points
    are shown as images (ringed in black); bound_beta: from here on every stored pattern meets
    the retrieval bound (a dotted line). Runs stopped by the step limit get hollow markers.
    sweep_caption says the same in words.
    """
    betas, k90 = np.asarray(betas, dtype=float), np.asarray(k90)
    kinds, converged = np.asarray(kinds), np.asarray(converged, dtype=bool)
    top = max(N, 1) + 0.6
    data = [go.Scatter(x=betas, y=k90, mode="lines", line=dict(color=GREY, width=1.5),
                       showlegend=False, hoverinfo="skip")]
    for kind, colour in KIND_COLOURS.items():
        sel = kinds == kind
        if not sel.any():
            continue
        symbols = np.where(converged[sel], SETTLED, STEP_LIMIT)
        data.append(go.Scatter(
            x=betas[sel], y=k90[sel], mode="markers", name=kind,
            marker=dict(color=colour, size=11, symbol=symbols, line=dict(width=2, color=colour)),
            customdata=np.where(converged[sel], "", " (step limit reached)"),
            hovertemplate="beta = %{x:.4g}: k90 = %{y}, " + kind + "%{customdata}<extra></extra>"))
    for b in marked:
        i = int(np.argmin(np.abs(np.log(betas) - np.log(b))))
        data.append(go.Scatter(x=[betas[i]], y=[k90[i]], mode="markers", showlegend=False,
                               hoverinfo="skip", marker=dict(size=MARK_SIZE, symbol=MARK_SYMBOL,
                                                             color=MARK_COLOUR, line=dict(width=2))))
    if current is not None:
        data.append(go.Scatter(x=[current, current], y=[0.4, top], mode="lines",
                               name=f"your beta = {current:g}",
                               line=dict(color=BLUE, dash="dash", width=2), hoverinfo="skip"))
    if bound_beta is not None and np.isfinite(bound_beta) and bound_beta > 0:
        data.append(go.Scatter(x=[bound_beta, bound_beta], y=[0.4, top], mode="lines",
                               name=f"bound met by all (beta >= {bound_beta:.3g})",
                               line=dict(color=GREEN, dash="dot", width=2), hoverinfo="skip"))
    return figure(data, title, height,
                  xaxis=dict(type="log", title="beta (log scale)",
                             range=[np.log10(betas.min()) - 0.1, np.log10(betas.max()) + 0.1]),
                  yaxis=dict(title="k90", range=[0.4, top], dtick=1 if N <= 12 else None),
                  width_px=540)


def sweep_caption(converged, marked: bool = True) -> str:
    """What sweep_chart draws, in words: the markers' fill and colours, and the rings."""
    kinds = ", ".join(f"{COLOUR_WORDS[c]} {k}" for k, c in KIND_COLOURS.items())
    text = ("The same query, run to its fixed point at every beta of the slider. Each filled dot "
            f"is one run, coloured by the kind of fixed point it reaches ({kinds}).")
    if not np.all(converged):
        text += " A hollow dot of the same colour is a run that hit the step limit first."
    if marked:
        text += f" The large {MARK_COLOUR} rings mark the betas whose fixed points are pictured below."
    return text


def energy_by_gamma(curves: dict[str, np.ndarray], title: str = "Energy per step, by step size",
                    height: int = 340) -> go.Figure:
    """One energy curve per step size; each keeps its own length (runs stop when converged)."""
    data = []
    for (name, E), colour in zip(curves.items(), GAMMA_COLOURS * 4):
        E = np.asarray(E)
        data.append(go.Scatter(x=np.arange(len(E)), y=E, mode="lines+markers" if len(E) <= 60
                               else "lines", name=name, line=dict(color=colour, width=2.5),
                               marker=dict(size=6),
                               hovertemplate=name + ", step %{x}: E = %{y:.6g}<extra></extra>"))
    last = max((len(E) for E in curves.values()), default=1) - 1
    return figure(data, title, height, xaxis=style.step_axis(last),
                  yaxis=dict(title="E", exponentformat="power"), width_px=540)

"""Plotly builders for the energy-landscape page: arrays in, go.Figure out. No Streamlit."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui.charts.figures import (
    BAR_UNDER,
    BAR_UNDER_MARGIN,
    BLUE,
    GREEN,
    GREY,
    RED,
    figure,
    note,
    vline,
)

ORANGE, PURPLE = "#bc4c00", "#8250df"
KIND_STYLE = {  # class of a binary minimum -> (colour, marker symbol)
    "stored": (GREEN, "star"), "mirror": (BLUE, "diamond"),
    "mixture": (ORANGE, "triangle-up"), "spurious": (RED, "x"),
}
TRAJ_COLOUR = "#ffffff"
_KEEP = dict(marker=dict(opacity=1.0))  # selecting a point must not fade the other traces
KEY = "Stars: the stored patterns. Dots: the query's path, numbered by step."  # a compact map's legend
COMPACT_PX = 300  # a compact map's legend is laid out for this width: 500 px in presenter
# mode, whose fonts are 1.5 times larger (ui.charts.charts.for_projector)


def _contour(us, vs, E, colourbar_title="E", beside: bool = False) -> go.Contour:
    """beside: the colour bar beside the plot (a compact map, presenter mode), else under it."""
    bar = (dict(thickness=12, nticks=5, x=1, xpad=6, title=dict(text=colourbar_title)) if beside
           else BAR_UNDER | dict(title=dict(text=colourbar_title, side="top")))
    return go.Contour(x=us, y=vs, z=E, colorscale="Viridis", ncontours=28,
                      contours=dict(coloring="heatmap", showlines=True),
                      line=dict(width=0.5, color="rgba(255,255,255,0.35)"),
                      colorbar=bar,
                      hovertemplate="(%{x:.3f}, %{y:.3f})<br>E = %{z:.5g}<extra></extra>")


def _step_labels(coords: np.ndarray, spacing: float) -> list[str]:
    """Step numbers, leaving out steps that land within `spacing` of the last labelled one
    (converging steps pile up: their numbers would print on top of each other)."""
    text, last = [], None
    for t, p in enumerate(coords):
        if last is None or np.linalg.norm(p - last) > spacing:
            text.append(str(t))
            last = p
        else:
            text.append("")
    return text


def _trajectory(coords: np.ndarray, spacing: float, name: str = "trajectory",
                hover: list[str] | None = None) -> go.Scatter:
    """Lines + numbered markers; the query (step 0) drawn larger and orange."""
    n = len(coords)
    labels = [str(t) for t in range(n)]
    text = _step_labels(coords, spacing)
    return go.Scatter(x=coords[:, 0], y=coords[:, 1], mode="lines+markers+text", name=name,
                      text=text, textposition="top right",
                      textfont=dict(color="white", size=13),
                      line=dict(color=TRAJ_COLOUR, width=2.5),
                      marker=dict(size=[13] + [8] * (n - 1), color=[ORANGE] + [TRAJ_COLOUR] * (n - 1),
                                  line=dict(color="black", width=1)),
                      customdata=hover if hover is not None else labels,
                      hovertemplate=("step %{customdata}: (%{x:.3f}, %{y:.3f})<extra></extra>"
                                     if hover is None else "%{customdata}<extra></extra>"),
                      selected=_KEEP, unselected=_KEEP)


def _patterns(coords: np.ndarray, names: list[str]) -> go.Scatter:
    return go.Scatter(x=coords[:, 0], y=coords[:, 1], mode="markers+text", name="stored patterns",
                      text=names, textposition="bottom center",
                      textfont=dict(color="white", size=14),
                      marker=dict(symbol="star", size=18, color=RED, line=dict(color="white", width=1.5)),
                      hovertemplate="%{text}: (%{x:.3f}, %{y:.3f})<extra></extra>",
                      selected=_KEEP, unselected=_KEEP)


def _square(us, vs, x_title: str | None, y_title: str | None, compact: bool = False) -> dict:
    """Layout of a square contour map whose points can be clicked. compact: no room kept
    above the plot or under it for a colour bar (the bar stands beside it: _contour)."""
    return dict(xaxis=dict(range=[float(us[0]), float(us[-1])], constrain="domain", showgrid=False,
                           title=x_title, constraintoward="right" if compact else "center"),
                yaxis=dict(range=[float(vs[0]), float(vs[-1])], scaleanchor="x", scaleratio=1,
                           constrain="domain", showgrid=False, title=y_title),
                clickmode="event+select", dragmode=False,
                margin=dict(l=10, r=10, t=14 if compact else 40, b=10 if compact else BAR_UNDER_MARGIN))  # 14: a whole top tick


def world(us, vs, E, patterns: np.ndarray, traj: np.ndarray, click_axis: np.ndarray,
          title: str, height: int = 560, compact: bool = False) -> go.Figure:
    """The 2-D world: contour of E, the patterns (stars), the trajectory (numbered steps) and
    a faint grid of square markers (click_axis x click_axis) to click on.
    compact (presenter mode, on a short projector screen): no title, no axis titles and no
    legend (the page shows the title and the key beside the chart: KEY), the colour bar beside
    the plot: the plot keeps most of the height."""
    click_x, click_y = (a.ravel() for a in np.meshgrid(click_axis, click_axis))
    grid = go.Scatter(x=click_x, y=click_y, mode="markers", name="click to move the query",
                      marker=dict(symbol="square", size=9, color="white", opacity=0.12),
                      selected=dict(marker=dict(opacity=0.5)),
                      unselected=dict(marker=dict(opacity=0.12)),
                      hovertemplate="move the query to (%{x:.2f}, %{y:.2f})<extra></extra>",
                      showlegend=False)
    names = [f"x{i + 1}" for i in range(len(patterns))]
    data = [_contour(us, vs, E, beside=compact), grid, _patterns(patterns, names),
            _trajectory(traj, 0.05 * float(us[-1] - us[0]))]
    if compact:
        return figure(data, None, height, width_px=COMPACT_PX, showlegend=False,  # the key: beside it
                      **_square(us, vs, None, None, compact=True))
    return figure(data, title, height, **_square(us, vs, "first coordinate", "second coordinate"))


def plane(us, vs, E, pattern_coords: np.ndarray, names: list[str], traj_coords: np.ndarray,
          traj_hover: list[str], title: str, axis_titles=("u", "v"), height: int = 560) -> go.Figure:
    """E on a plane through pattern space with the patterns and the projected trajectory."""
    data = [_contour(us, vs, E), _patterns(pattern_coords, names),
            _trajectory(traj_coords, 0.05 * float(us[-1] - us[0]),
                        "query's trajectory (projected)", hover=traj_hover)]
    return figure(data, title, height, **_square(us, vs, *axis_titles))


def slice_chart(ts: np.ndarray, E: np.ndarray, betas, barriers, name_a: str, name_b: str,
                height: int = 420) -> go.Figure:
    """E((1 - t) x_a + t x_b) for each beta (rows of E); the top of each barrier marked."""
    palette = [BLUE, ORANGE, PURPLE, GREEN, RED, GREY]
    data = []
    for k, (beta, row, bar) in enumerate(zip(betas, E, barriers)):
        c = palette[k % len(palette)]
        data.append(go.Scatter(x=ts, y=row, mode="lines", name=f"β = {beta:g}",
                               line=dict(color=c, width=3),
                               hovertemplate=f"β = {beta:g}<br>t = %{{x:.3f}}<br>E = %{{y:.5g}}<extra></extra>"))
        if bar.height > 0:
            data.append(go.Scatter(x=[bar.t_max], y=[bar.e_max], mode="markers", showlegend=False,
                                   marker=dict(size=11, color=c, symbol="triangle-down",
                                               line=dict(color="white", width=1)),
                                   hovertemplate=f"β = {beta:g}: top of the barrier<br>t = %{{x:.3f}}, "
                                                 f"E = %{{y:.5g}}<br>height {bar.height:.4g}<extra></extra>"))
    band = dict(type="rect", x0=0, x1=1, xref="x", y0=0, y1=1, yref="paper",
                fillcolor="rgba(140,149,159,0.10)", line=dict(width=0), layer="below")
    shapes = [band] + [vline(t, color=GREY, dash="dot") for t in (0, 1)]
    notes = [note(t, 1.0, f"<b>{name}</b>", yref="paper", yanchor="bottom")
             for t, name in ((0, name_a), (1, name_b))]
    return figure(data, None, height, xaxis=dict(title="t   (0: first pattern, 1: second)"),
                  yaxis=dict(title="E"), shapes=shapes, annotations=notes, width_px=540,
                  margin=dict(l=10, r=10, t=30, b=10))  # room for the two names above the plot


def state_cloud(x: np.ndarray, E: np.ndarray, counts: np.ndarray, min_x: np.ndarray,
                min_E: np.ndarray, min_kinds, min_labels: list[str], x_title: str,
                height: int = 480) -> go.Figure:
    """Every state as (x, E) (identical pairs drawn once, the dot growing with their number,
    which the hover gives), the local minima on top, coloured by class."""
    data = [go.Scattergl(
        x=x, y=E, mode="markers", name="all states",
        marker=dict(size=5 + 3 * np.log10(np.maximum(counts, 1)), color=GREY, opacity=0.45),
        customdata=counts,
        hovertemplate=f"{x_title} %{{x:.3g}}<br>E = %{{y:.5g}}<br>%{{customdata}} state(s)<extra></extra>")]
    kinds = np.asarray(min_kinds)
    labels = np.asarray(min_labels, dtype=object)
    for kind, (colour, symbol) in KIND_STYLE.items():
        sel = kinds == kind
        if not sel.any():
            continue
        data.append(go.Scatter(
            x=min_x[sel], y=min_E[sel], mode="markers", name=f"{kind} minima ({int(sel.sum())})",
            marker=dict(size=15, color=colour, symbol=symbol, line=dict(color="white", width=1.5)),
            customdata=labels[sel],
            hovertemplate="%{customdata}<br>E = %{y:.5g}<extra></extra>"))
    return figure(data, None, height, xaxis=dict(title=x_title), yaxis=dict(title="E"),
                  width_px=540)  # the page's whole width

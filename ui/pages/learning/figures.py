"""The learning page's figures: arrays in, go.Figure out (no Streamlit)."""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui.charts import style
from ui.charts.figures import (
    BAR_UNDER,
    BAR_UNDER_MARGIN,
    BLUE,
    GREY,
    RED,
    figure,
    vline,
)

from .settings import LIMIT

GRID = 61   # contour points a side (61 x 61 values x 61 frames: 1.3 MB of the player's payload)
CLICK = 33  # clickable squares a side (my points)
PICK = "add a point"  # the clickable squares' trace name: a click on one adds a point (the player's pick)
SPAN = 15.0  # the log density is shown down to this far below its peak
_KEEP = dict(marker=dict(opacity=1))
HELD = "#fb8500"   # held-out points: orange rings, seen on the dark and the light colours
EMPTY = "#440154"  # the darkest colour of the background's scale: white points show on it
PLANE_HEIGHT = 560  # px
COMPACT_PX = 300  # the compact plane's legend is laid out for this width: 460 px in presenter
# mode, whose fonts are 1.5 times larger (ui.charts.charts.for_projector)


def grid_axis(n: int) -> np.ndarray:
    return np.linspace(-LIMIT, LIMIT, n)


def _background(grid: tuple[np.ndarray, np.ndarray], kind: str, beside: bool = False) -> go.Contour:
    """beside: the colour bar beside the plot (presenter mode's compact plane), else under it."""
    g, Z = grid  # (GRID,), (GRID, GRID)
    top = float(Z.max())
    zrange = dict(zmin=max(float(Z.min()), top - SPAN), zmax=top) if kind == "density" else {}
    name = "log p" if kind == "density" else "E"
    bar = (dict(thickness=12, nticks=5, x=1, xpad=6, title=dict(text=name)) if beside
           else BAR_UNDER | dict(title=dict(text=name, side="top")))
    return go.Contour(x=g, y=g, z=Z, colorscale="Viridis" if kind == "density" else "Viridis_r",
                      ncontours=24, contours=dict(coloring="heatmap", showlines=False),
                      colorbar=bar,
                      hovertemplate="(%{x:.2f}, %{y:.2f})<br>%{z:.3g}<extra></extra>", **zrange)


KEY = "White dots: training data; orange rings: held out; stars: the patterns x_μ."  # compact plane's legend


def plane(X_path: np.ndarray | None, t: int, grid: tuple[np.ndarray, np.ndarray] | None,
          kind: str, train: np.ndarray, held: np.ndarray, clickable: bool, title: str,
          height: int = PLANE_HEIGHT, compact: bool = False) -> go.Figure:
    """The background at frame t (grid: the axis and log p or E of frame t's patterns on it,
    ebm.plane_grid), the data, and each pattern's path up to t (a star at t).
    X_path None: no model yet (only the data, and the squares to click).
    compact (presenter mode, beside the player on a short projector screen): no title, no axis
    titles and no legend (the page shows the title and KEY beside the chart), the colour bar
    beside the plot: the plot keeps most of the height."""
    data = [] if grid is None else [_background(grid, kind, beside=compact)]
    if clickable:
        c = grid_axis(CLICK)
        cx, cy = (a.ravel() for a in np.meshgrid(c, c))
        data.append(go.Scatter(x=cx, y=cy, mode="markers", showlegend=False, name=PICK,
                               marker=dict(symbol="square", size=9, color="white", opacity=0.1),
                               selected=dict(marker=dict(opacity=0.5)),
                               unselected=dict(marker=dict(opacity=0.1)),
                               hovertemplate="add a point at (%{x:.2f}, %{y:.2f})<extra></extra>"))
    data += [go.Scatter(x=train[:, 0], y=train[:, 1], mode="markers", name="training data",
                        marker=dict(size=5, color="white", line=dict(color="black", width=0.5)),
                        hoverinfo="skip", selected=_KEEP, unselected=_KEEP),
             go.Scatter(x=held[:, 0], y=held[:, 1], mode="markers", name="held out",
                        marker=dict(size=7, color="rgba(0,0,0,0)", line=dict(color=HELD,
                                                                             width=1.5)),
                        hoverinfo="skip", selected=_KEEP, unselected=_KEEP)]
    for mu in range(0 if X_path is None else X_path.shape[1]):  # each pattern's path so far
        data.append(go.Scatter(x=X_path[: t + 1, mu, 0], y=X_path[: t + 1, mu, 1], mode="lines",
                               line=dict(color=RED, width=1.5), showlegend=False,
                               hoverinfo="skip"))
    if X_path is not None:
        X = X_path[t]
        data.append(go.Scatter(x=X[:, 0], y=X[:, 1], mode="markers+text", name="patterns x_μ",
                               text=[str(i + 1) for i in range(len(X))],
                               textposition="top right", textfont=dict(color="white", size=13),
                               marker=dict(symbol="star", size=17, color=RED,
                                           line=dict(color="white", width=1.5)),
                               hovertemplate="x%{text}: (%{x:.3f}, %{y:.3f})<extra></extra>",
                               selected=_KEEP, unselected=_KEEP))
    box = [-LIMIT, LIMIT]
    under = grid is not None and not compact  # the colour bar's band under the plot
    return figure(data, None if compact else title, height,
                  dict(range=box, constrain="domain", showgrid=False,
                       title=None if compact else "first coordinate",
                       constraintoward="right" if compact else "center"),  # by its colour bar
                  dict(range=box, scaleanchor="x", scaleratio=1, constrain="domain",
                       showgrid=False, title=None if compact else "second coordinate"),
                  clickmode="event+select" if clickable else None, dragmode=False,
                  showlegend=not compact,  # compact: KEY beside it
                  margin=dict(l=10, r=10, t=14 if compact else 40,  # 14: the top tick label whole
                              b=BAR_UNDER_MARGIN if under else 10),
                  width_px=COMPACT_PX if compact else style.NARROW_PX,
                  shapes=[] if X_path is not None else [dict(
                      type="rect", xref="x", yref="y", x0=-LIMIT, x1=LIMIT, y0=-LIMIT, y1=LIMIT,
                      fillcolor=EMPTY, line=dict(width=0), layer="below")])


def nll_curves(steps: np.ndarray, train: np.ndarray, held: np.ndarray | None, t_steps: int,
               title: str = "Negative log-likelihood", height: int = 300) -> go.Figure:
    """Training (and held-out) NLL against Adam steps, the current step marked."""
    data = [go.Scatter(x=steps, y=train, mode="lines", name="training data",
                       line=dict(color=BLUE, width=2.5),
                       hovertemplate="step %{x}: %{y:.4f}<extra></extra>")]
    if held is not None:
        data.append(go.Scatter(x=steps, y=held, mode="lines", name="held out",
                               line=dict(color=RED, width=2.5, dash="dash"),
                               hovertemplate="step %{x}: %{y:.4f}<extra></extra>"))
    return figure(data, title, height, style.integer_axis(0, int(np.max(steps)), "Adam steps"),
                  dict(title="mean −log p"), shapes=[vline(t_steps, color=GREY, dash="dot")])


def samples(points: np.ndarray, train: np.ndarray, height: int = 300) -> go.Figure:
    """Draws from the model beside the data, on the same box."""
    box = [-LIMIT, LIMIT]
    return figure([go.Scatter(x=train[:, 0], y=train[:, 1], mode="markers", name="data",
                              marker=dict(size=4, color=GREY), hoverinfo="skip"),
                   go.Scatter(x=points[:, 0], y=points[:, 1], mode="markers",
                              name="samples from p", marker=dict(size=4, color=RED),
                              hoverinfo="skip")],
                  "Samples from the model", height,
                  dict(range=box, constrain="domain", showgrid=False),
                  dict(range=box, scaleanchor="x", scaleratio=1, constrain="domain",
                       showgrid=False))

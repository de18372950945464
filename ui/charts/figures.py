"""Pure Plotly figure builders: arrays in, go.Figure out. No Streamlit, no dynamics.

Figures are built from layout dicts passed to the constructor (`figure`), with the "none"
template: Plotly's named templates, its update_* and add_* methods and make_subplots cost
tens of milliseconds a figure (about 16 ms against 2 ms for the constructor), which every
new set of patterns pays again.
"""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from . import style
from .style import NARROW_PX

pio.templates.default = "none"

BLUE, RED, GREY, GREEN = "#1f6feb", "#d1242f", "#8c959f", "#1a7f37"
# a colour bar under a square plot, centred, 60 % of the plot area's width at most: beside the
# plot it took a phone's width from the plot and stood taller than it, and on a wide screen
# stood far from the plot it explains (issue 30). The figure's bottom margin holds it.
BAR_UNDER = dict(orientation="h", x=0.5, xanchor="center", y=0, yref="container",
                 yanchor="bottom", len=0.6, thickness=12, ypad=6, tickangle=0, nticks=5,
                 title=dict(side="top"))
BAR_UNDER_MARGIN = 62  # px under the x axis for BAR_UNDER
FONT = dict(family="Inter, Segoe UI, sans-serif", size=14)
AXIS = dict(gridcolor="#e5e7eb", zerolinecolor="#d0d7de", linecolor="#d0d7de", showgrid=True)


def layout(title: str | None, height: int, xaxis: dict | None = None, yaxis: dict | None = None,
           **extra) -> dict:
    """A light layout as a plain dict: white, thin grey grid, a small left-aligned title."""
    return {**dict(
        title=dict(text=title, x=0.02, font=dict(size=16)) if title else None,
        height=height, margin=dict(l=10, r=10, t=40 if title else 10, b=10), font=FONT,
        template="none", plot_bgcolor="white", paper_bgcolor="white",
        xaxis={**AXIS, **(xaxis or {})}, yaxis={**AXIS, **(yaxis or {})}), **extra}


def image(img: np.ndarray, title: str | None = None, height: int = 300) -> go.Figure:
    """An (H, W, 3) image in [0, 1], pixels crisp, no axes."""
    z = uint8(img)
    return figure(go.Image(z=z, hovertemplate="row %{y}, col %{x}<extra></extra>"), title, height,
                  xaxis=dict(visible=False), yaxis=dict(visible=False, scaleanchor="x"))


def energy_curve(energies: np.ndarray, t: int, rises: np.ndarray | None = None,
                 title: str = "Energy", height: int = 300) -> go.Figure:
    """E(0..t), the current step marked; steps where E rose marked in red. The step axis spans
    the whole run (0 .. T), so it stays put while the run is played."""
    E = np.asarray(energies)[: t + 1]
    steps = np.arange(len(E))
    data = [go.Scatter(x=steps, y=E, mode="lines+markers", line=dict(color=BLUE, width=3),
                       marker=dict(size=7), name="E(t)",
                       hovertemplate="step %{x}: E = %{y:.6g}<extra></extra>"),
            go.Scatter(x=[t], y=[E[-1]], mode="markers", showlegend=False, hoverinfo="skip",
                       marker=dict(size=14, color=BLUE, line=dict(color="white", width=2)))]
    shown = [int(i) for i in (rises if rises is not None else []) if i <= t]
    if shown:
        data.append(go.Scatter(x=shown, y=E[shown], mode="markers", name="energy rose",
                               marker=dict(symbol="x", size=14, color=RED)))
    return figure(data, title, height, xaxis=style.step_axis(len(energies) - 1),
                  yaxis=dict(title="E", exponentformat="power", range=style.padded(energies)))


def _bars(values: np.ndarray, names: list[str], colours, title: str, height: int, y_title: str,
          y_range: list[float], symbol: str, digits: str) -> go.Figure:
    """One bar per named pattern, each named: numbered short labels under the bars, or, where
    the names would get no room under them, the bars turned, one row per pattern with its name
    beside it, the chart growing with their number (see style.runs_down); the full name on
    hover."""
    labels = style.numbered(names)
    if style.runs_down(labels):
        bar = go.Bar(y=labels, x=values, orientation="h", marker_color=colours,
                     hovertemplate=f"%{{y}}: {symbol} = %{{x:{digits}}}<extra></extra>")
        return figure(bar, title, style.rows_height(len(labels), height), yaxis=style.row_axis(labels),
                      xaxis=dict(range=y_range, title=y_title))
    bar = go.Bar(x=labels, y=values, marker_color=colours,
                 hovertemplate=f"%{{x}}: {symbol} = %{{y:{digits}}}<extra></extra>")
    return figure(bar, title, height, xaxis=style.category_axis(labels),
                  yaxis=dict(range=y_range, title=y_title))


def overlap_bars(m: np.ndarray, names: list[str], title: str = "Overlap m per pattern",
                 height: int = 300) -> go.Figure:
    """m_mu in [-1, 1]: +1 is the pattern itself, -1 its mirror image."""
    colours = [GREEN if v > 0.99 else RED if v < -0.99 else BLUE for v in m]
    return _bars(m, names, colours, title, height, "m", [-1.05, 1.05], "m", ".3f")


def weight_bars(p: np.ndarray, names: list[str], title: str = "Softmax weights",
                height: int = 300) -> go.Figure:
    return _bars(p, names, BLUE, title, height, "weight", [0, 1.02], "p", ".4f")


def matrix_heatmap(W: np.ndarray, title: str, height: int = 380, symmetric: bool = True,
                   x_title: str = "neuron j", y_title: str = "neuron i") -> go.Figure:
    """A matrix (n, m) cell by cell: row i down, column j across, both counted from 0, square
    cells. The axis titles are words: a lone letter "i" turned on its side reads as a dash."""
    W = np.asarray(W)
    lim = float(np.max(np.abs(W))) or 1.0
    rows, cols = W.shape
    heat = go.Heatmap(z=W, x=np.arange(cols), y=np.arange(rows), colorscale="RdBu_r",
                      zmin=-lim if symmetric else None, zmax=lim if symmetric else None,
                      colorbar=dict(thickness=14),
                      hovertemplate=f"{y_title} = %{{y}}, {x_title} = %{{x}}: %{{z:.4g}}<extra></extra>")
    return figure(heat, title, height, xaxis=style.index_axis(cols, x_title),
                  yaxis=style.index_axis(rows, y_title, reverse=True, scaleanchor="x"))


def figure(data, title: str | None, height: int, xaxis: dict | None = None,
           yaxis: dict | None = None, width_px: float = NARROW_PX, **extra) -> go.Figure:
    """One constructor call with the whole layout: the cheap way to build a Plotly figure."""
    return make(data, layout(title, height, xaxis, yaxis, **extra), width_px)


# the "none" template as Plotly writes it into a figure's JSON
TEMPLATE_NONE = pio.templates["none"].to_plotly_json()
_DROPPED_WHEN_EMPTY = ("annotations", "shapes", "images")  # layout lists Plotly leaves out when empty


def _plain(v):
    """A layout value as Plotly's validation would write it: no None anywhere (a value not set)."""
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [_plain(x) for x in v]
    return v


def make(data, lay: dict, width_px: float = NARROW_PX) -> go.Figure:
    """go.Figure(data, lay) in the house style (chart_style.finish): every builder ends here.
    width_px: the narrowest the chart is drawn at (a legend's rows are counted for it).

    The layout is not run through Plotly's validators (about 7 ms a figure, most of a figure's
    cost: the players build one per step of a run); it is written as validation would write it
    (the "none" template resolved, no None, no empty lists of annotations or shapes).
    tests/ui/charts/test_unvalidated_layout.py holds every builder's figure equal, byte for byte,
    to the validated one, and a layout key Plotly does not know fails that test."""
    lay = _plain(style.finish(data, lay, width_px))
    if lay.get("template") == "none":
        lay["template"] = TEMPLATE_NONE
    for key in _DROPPED_WHEN_EMPTY:
        if lay.get(key) == []:
            del lay[key]
    return go.Figure(data, lay, _validate=False)


def vline(x: float, **line) -> dict:
    """A vertical line across the plot, as a layout shape."""
    return dict(type="line", x0=x, x1=x, xref="x", y0=0, y1=1, yref="paper", line=line)


def hline(y: float, layer: str = "above", **line) -> dict:
    return dict(type="line", y0=y, y1=y, yref="y", x0=0, x1=1, xref="paper", line=line,
                layer=layer)


def note(x, y, text: str, **kw) -> dict:
    """A text annotation without an arrow."""
    return dict(x=x, y=y, text=text, showarrow=False, **kw)


def domains(n: int, spacing: float) -> list[list[float]]:
    """The horizontal extents of n side-by-side panels separated by `spacing` (paper units)."""
    width = (1 - spacing * (n - 1)) / n
    return [[i * (width + spacing), i * (width + spacing) + width] for i in range(n)]


def two_lines(title: str, limit: int = 12) -> str:
    """A panel title longer than `limit` characters broken at its middlemost space (panels
    sit side by side: one long title would run into the next)."""
    if len(title) <= limit or " " not in title:
        return title
    spaces = [i for i, ch in enumerate(title) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - len(title) / 2))
    return title[:cut] + "<br>" + title[cut + 1:]


def panel_axes(n: int, spacing: float, x: dict | None = None, y: dict | None = None,
               titles: list[str] | None = None) -> dict:
    """Layout entries for n panels in one row: xaxis, xaxis2, ... each with its domain, and
    a title above each panel (as make_subplots would, without its cost)."""
    out, notes = {}, []
    for i, dom in enumerate(domains(n, spacing), start=1):
        sfx = "" if i == 1 else str(i)
        out[f"xaxis{sfx}"] = {**AXIS, **(x or {}), "domain": dom, "anchor": f"y{sfx}"}
        out[f"yaxis{sfx}"] = {**AXIS, **(y or {}), "anchor": f"x{sfx}"}
        if titles:
            notes.append(note((dom[0] + dom[1]) / 2, 1.0, two_lines(titles[i - 1]), xref="paper",
                              yref="paper", xanchor="center", yanchor="bottom",
                              font=dict(size=15)))
    out["annotations"] = notes
    return out


def uint8(img: np.ndarray) -> np.ndarray:
    """An image in [0, 1] as bytes 0..255, for go.Image."""
    return np.round(np.clip(img, 0, 1) * 255).astype(np.uint8)


def axis_names(i: int) -> dict:
    """The axes of panel i (1-based) of panel_axes, as a trace names them."""
    return dict(xaxis=f"x{'' if i == 1 else i}", yaxis=f"y{'' if i == 1 else i}")


SERIES_COLOURS = [BLUE, "#bf8700", "#8250df", "#1a7f37", RED, GREY]  # one line per panel

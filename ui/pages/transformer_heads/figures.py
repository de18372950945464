"""Plotly builders for "Inside a trained Transformer": arrays in, go.Figure out. No Streamlit.

# L layers, H heads, N tokens
"""
from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from hopfield_core.heads import kinds
from ui.charts import style
from ui.charts.figures import BLUE, GREEN, GREY, RED, figure

AMBER = "#bf8700"
KIND_COLOURS = {"global": RED, "metastable": AMBER, "retrieval": GREEN}  # the modern page's hues
COLOUR_WORDS = {RED: "red", AMBER: "amber", GREEN: "green"}
_SCALE = [[0.0, RED], [1 / 3, RED], [1 / 3, AMBER], [2 / 3, AMBER], [2 / 3, GREEN], [1.0, GREEN]]


def kind_words() -> str:
    """The head map's colours in words: "red global, amber metastable, green retrieval"."""
    return ", ".join(f"{COLOUR_WORDS[c]} {k}" for k, c in KIND_COLOURS.items())


def head_map(codes: np.ndarray, median_k90: np.ndarray, N: int, title: str,
             height: int = 300) -> go.Figure:
    """codes (L, H) kind codes (kinds.GLOBAL, METASTABLE, RETRIEVAL), median_k90 (L, H): one
    cell per head, coloured by its kind, its median k90 written in it; layer 0 on top."""
    codes, med = np.asarray(codes), np.asarray(median_k90, dtype=float)
    L, H = codes.shape
    names = np.array(kinds.KINDS)[codes]
    text = np.vectorize(lambda v: f"{v:g}")(med)
    heat = go.Heatmap(z=codes, x=np.arange(H), y=np.arange(L), zmin=0, zmax=2, colorscale=_SCALE,
                      showscale=False, xgap=2, ygap=2, text=text, customdata=names,
                      texttemplate="%{text}", textfont=dict(color="white", size=13),
                      hovertemplate=("layer %{y}, head %{x}: %{customdata}, median k90 = "
                                     f"%{{text}} of {N} tokens<extra></extra>"))
    return figure(heat, title, height,
                  xaxis=style.index_axis(H, "head"), yaxis=style.index_axis(L, "layer", reverse=True))


def k90_set(weights: np.ndarray) -> np.ndarray:
    """(N,) bool: the k90 tokens, the fewest largest weights holding 90 % of the attention."""
    w = np.asarray(weights, dtype=float)
    k = kinds.k90(w)
    top = np.argsort(-w, kind="stable")[:k]
    mark = np.zeros(w.shape, dtype=bool)
    mark[top] = True
    return mark


def attention_bars(weights: np.ndarray, tokens: list[str], title: str,
                   height: int = 320) -> go.Figure:
    """One bar per token (labelled by position from 0, the full token on hover): blue for the k90 set,
    grey for the rest."""
    w = np.asarray(weights, dtype=float)
    mark = k90_set(w)
    labels = [f"{i}. {t}" for i, t in enumerate(tokens)]  # by position from 0, as the picker
    bar = go.Bar(x=labels, y=w, marker_color=[BLUE if m else GREY for m in mark],
                 customdata=np.where(mark, "in the k90 set", "outside it"),
                 hovertemplate="%{x}: weight %{y:.4f}, %{customdata}<extra></extra>")
    return figure(bar, title, height, xaxis=style.category_axis(labels),
                  yaxis=dict(range=[0, 1.02], title="attention weight"))


def classes_rows(one_step: np.ndarray, fixed: np.ndarray) -> dict:
    """The paper's four classes as columns: per layer, heads of each class one step and at the
    fixed point (kinds.PAPER_CLASSES; one_step, fixed (L, 4))."""
    out = {"layer": list(range(len(one_step)))}
    for when, counts in (("one step", one_step), ("fixed point", fixed)):
        for j, c in enumerate(kinds.PAPER_CLASSES):
            out[f"class {c}, {when}"] = [int(v) for v in counts[:, j]]
    return out


def kinds_rows(one_step: np.ndarray, fixed: np.ndarray, changed: np.ndarray) -> dict:
    """The kinds table as columns: per layer, heads of each kind one step and at the fixed
    point, and the share of (token, head) pairs whose kind changed (in %)."""
    out = {"layer": list(range(len(one_step)))}
    for j, k in enumerate(kinds.KINDS):
        out[f"{k}, one step"] = [int(v) for v in one_step[:, j]]
    for j, k in enumerate(kinds.KINDS):
        out[f"{k}, fixed point"] = [int(v) for v in fixed[:, j]]
    out["pairs changing kind (%)"] = [round(100 * float(v), 1) for v in changed]
    return out

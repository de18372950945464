"""What the token-cloud section's player shows at each layer, as the browser player's payload
(ui/player/frames.py): the spread after the layer with and without layer norm, the two clouds,
and the spread and largest-singular-value curves with the layer marked. Built once per run and
look, shared by every session. No Streamlit here."""
from __future__ import annotations

import numpy as np

from ui.charts import charts, figures
from ui.player import frames

from . import figures as figs

LAYOUT = [[[frames.CONTROLS, 1]], [["spread_plain", 1], ["spread_normed", 1]], [["plain", 1], ["normed", 1]],
          [["spread", 1], ["sv", 1]]]


def payload(page: str, run_key: str, plain: list, normed: list, s_plain: np.ndarray, s_normed: np.ndarray,
            sv: dict, presenter: bool = False, projector: bool = False) -> dict:
    """plain, normed: the clouds after each layer (L+1 of them), without and with layer norm;
    s_plain, s_normed: their spreads; sv: the largest singular value per case, per layer."""
    L = len(plain) - 1
    layers = frames.frame_steps(L)
    look = lambda fig: charts.for_mode(fig, presenter, projector)  # noqa: E731
    n = len(layers)
    panels = {
        "spread_plain": frames.metric([f"Spread after layer {t}, attention + residual" for t in layers],
                                      [f"{s_plain[t]:.4g}" for t in layers], [""] * n, ["off"] * n),
        "spread_normed": frames.metric([f"Spread after layer {t}, then layer norm" for t in layers],
                                       [f"{s_normed[t]:.4g}" for t in layers], [""] * n, ["off"] * n),
        "plain": frames.chart([look(figs.cloud(plain[t], "Attention + residual", figures.RED)) for t in layers]),
        "normed": frames.chart([look(figs.cloud(normed[t], "… then layer norm", figures.BLUE)) for t in layers]),
        "spread": frames.chart([look(figs.spread_curves({"without layer norm": s_plain, "with layer norm": s_normed},
                                                        t, "Spread", "mean distance to centroid")) for t in layers],
                               whole_run=True),
        "sv": frames.chart([look(figs.spread_curves(sv, t, "Largest singular value", "σ₁ of the centred cloud"))
                            for t in layers], whole_run=True),
    }
    p = frames.payload(page, run_key, L, panels, LAYOUT, steps=layers)
    p["mode"] = " ".join(m for m, on in (("presenter", presenter), ("projector", projector)) if on)
    p["unit"] = "layer"
    return p

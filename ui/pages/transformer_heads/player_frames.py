"""What the heads page's player shows at each step of one head's settling query, as the browser
player's payload (ui/player/frames.py): the attention bars (the k90 set in blue), the energy
curve up to the step, and the step's sentence. Built once per query and look, shared by every
session. No Streamlit here."""
from __future__ import annotations

import numpy as np

from hopfield_core.heads import kinds
from ui.charts import charts
from ui.charts.figures import energy_curve
from ui.player import frames

from . import figures

LAYOUT = [[[frames.CONTROLS, 1]], [["bars", 3], ["energy", 2]], [["describe", 1]]]


def step_sentence(N: int, weights: np.ndarray, t: int, T: int, E: float) -> str:
    """What the bars show at step t, in words (plain text)."""
    k = kinds.k90(weights)
    where = "the real attention" if t == 0 else ("the fixed point" if t == T else f"step {t} of {T}")
    return f"At {where}: k90 = {k} of {N} tokens, so this query is {kinds.kind_name(k, N)}; energy {E:.6g}."


def start_frame(steps: list[int], step: int) -> int:
    """The frame that shows `step`, or the last before it (a long run shows every k-th step)."""
    return max(i for i, s in enumerate(steps) if s <= step)


def payload(page: str, run_key: str, weights: np.ndarray, energies: np.ndarray, tokens: list[str],
            layer: int, head: int, token: int, start: int = 0, presenter: bool = False,
            projector: bool = False) -> dict:
    """weights (T+1, N): the query's attention at each step; energies (T+1,); start: the step a
    link opens at (0 .. T)."""
    T = len(energies) - 1
    steps = frames.frame_steps(T)
    look = lambda fig: charts.for_mode(fig, presenter, projector)  # noqa: E731
    N = weights.shape[1]
    panels = {
        "bars": frames.chart([look(figures.attention_bars(
            weights[t], tokens, f"Attention of token {token}, layer {layer}, head {head}, step {t}"))
            for t in steps]),
        "energy": frames.chart([look(energy_curve(energies, t, title="Energy of the head's network"))
                                for t in steps], whole_run=True),
        "describe": frames.live([step_sentence(N, weights[t], t, T, float(energies[t])) for t in steps]),
    }
    p = frames.payload(page, run_key, T, panels, LAYOUT, start=start_frame(steps, start), steps=steps)
    p["mode"] = " ".join(m for m, on in (("presenter", presenter), ("projector", projector)) if on)
    return p

"""What the learning page's player shows at each frame of a training run, as the browser player's
payload (ui/player/frames.py): the plane (log p or E of the frame's patterns on a grid, the data,
each pattern's path so far), the training and held-out NLL with their change since the start,
the NLL curves with the frame marked, draws from the model, and a sentence per frame. Built once
per run and look, shared by every session. No Streamlit here."""
from __future__ import annotations

import numpy as np

from hopfield_core import ebm
from ui.charts import charts
from ui.player import frames

from . import figures
from .settings import LIMIT

SAMPLES = 200  # draws shown at least (as many as the training points when there are more)
PRESENTER_PLANE = 400  # px before ui.charts.charts' presenter copy (x 1.2): beside the player, the
# plane fits under presenter mode's header, title and section switcher on a 768 px screen, its
# square plot 40 % of the screen's 1024 px
CURVES_PX = 300


def title(steps: int, beta: float) -> str:
    """The plane's title ("β = 2" kept on one line where the title wraps)."""
    return f"After {steps} Adam steps, β\u00a0=\u00a0{beta:g}"


def nll_metric(label: str, nll: np.ndarray, since: str) -> dict:
    """An NLL per frame with its change since frame 0 (a fall is good), grey at frame 0."""
    deltas = [frames.START] + [f"{v - nll[0]:.3f}{since}" for v in nll[1:]]
    tones = ["off"] + ["good" if v < nll[0] else "bad" if v > nll[0] else "off" for v in nll[1:]]
    return frames.metric(label, [f"{v:.4f}" for v in nll], deltas, tones)


def sentence(steps: int, frame: int, last: int, nll: float, held: float) -> str:
    return (f"Step {frame} of {last}, after {steps} Adam steps: training NLL {nll:.4f}, "
            f"held-out NLL {held:.4f}.")


def layout(presenter: bool) -> list[list]:
    """Presenter mode: the plane beside the player and the numbers (both on a 768 px projector's
    first screen), the curves under them; else the player, then the plane beside the numbers and
    the curves (the plane on a 1024 x 768 projector's first screen; stacked on a narrow screen)."""
    if presenter:
        return [[["plane", 3], [["describe", frames.CONTROLS, "nll_train", "nll_held"], 2]],
                [["curves", 1], ["samples", 1]]]
    return [[[frames.CONTROLS, 1]], [["plane", 3], [["nll_train", "nll_held", "curves", "samples"], 2]],
            [["describe", 1]]]


def payload(page: str, run_key: str, run, beta: float, kind: str, seed: int, clickable: bool,
            presenter: bool = False, projector: bool = False) -> dict:
    """The player's payload of one training run (cache.Run): run.path has a frame per
    run.per_frame Adam steps. clickable: the plane's squares add points (data "mine")."""
    T = len(run.path) - 1
    look = lambda fig: charts.for_mode(fig, presenter, projector)  # noqa: E731
    planes, draws = [], []
    steps = np.arange(T + 1) * run.per_frame
    for t in range(T + 1):
        g, Z = ebm.plane_grid(run.path[t], beta, kind, LIMIT, figures.GRID)
        fig = figures.plane(run.path, t, (g, Z.astype(np.float32)), kind, run.train, run.held, clickable,
                            title(int(steps[t]), beta), compact=presenter,
                            height=PRESENTER_PLANE if presenter else figures.PLANE_HEIGHT)
        planes.append(look(fig))
        drawn, _ = ebm.sample(run.path[t], beta, max(SAMPLES, len(run.train)), rng=[seed, t])
        draws.append(look(figures.samples(drawn.astype(np.float32), run.train, height=CURVES_PX)))
    plane = frames.chart(planes)
    if clickable:
        plane["pick"] = figures.PICK  # a click on a square adds a point there
    panels = {
        "plane": plane,
        "nll_train": nll_metric("Training NLL", run.nll, " since step 0"),
        "nll_held": nll_metric("Held-out NLL", run.held_nll, ""),
        "curves": frames.chart([look(figures.nll_curves(steps, run.nll, run.held_nll, int(s), height=CURVES_PX))
                                for s in steps], whole_run=True),
        "samples": frames.chart(draws),
        "describe": frames.live([(f"{title(int(steps[t]), beta)}. {figures.KEY}" if presenter else
                                  sentence(int(steps[t]), t, T, run.nll[t], run.held_nll[t]))
                                 for t in range(T + 1)]),
    }
    p = frames.payload(page, run_key, T, panels, layout(presenter))
    p["mode"] = " ".join(m for m, on in (("presenter", presenter), ("projector", projector)) if on)
    return p

"""The modern page's settings: declared once, bound to widgets, the link and messages by
ui.settings.layer."""
from __future__ import annotations

from hopfield_core.metastable import log_grid
from ui.settings.fields import Choice, Float, Int, Steps
from ui.settings.layer import Settings

BETAS = tuple(float(b) for b in log_grid(0.1, 1e4))  # 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1, ... 1e4
MAX_STEPS = 2000
TOL = 1e-6                     # a run stops when no coordinate moves more than this
COMPARE_GAMMAS = (1.0, 0.5, 0.2, 0.1)
COMPARE_STEPS = 500            # the step-size comparison gets room to converge
SECTIONS = {"sweep": "Sweeping beta", "bound": "The separation bound", "step": "Step size"}


def fmt_beta(b: float) -> str:
    return f"{b:g}"


SETTINGS = Settings("modern", [
    Steps("beta", "Inverse temperature beta (log scale)", 10.0, BETAS,
          help="Small beta: every pattern gets weight (global average). Large beta: the most "
               "similar pattern takes it all. The grid is 1, 1.5, 2, 3, 5, 7 per decade."),
    Float("gamma", "Step size gamma", 1.0, 0.01, 1.0, step=0.01,
          help="1: jump straight to the weighted average (CCCP). "
               "Below 1: gradient descent on E with this step size."),
    Int("steps", "Step limit", 100, 1, MAX_STEPS, widget="number",
        help=f"A run stops at a fixed point (no coordinate moves more than {TOL:g}) or after "
             "this many steps."),
    Choice("view", "Section", "sweep", tuple(SECTIONS), widget="segmented", names=SECTIONS),
])

"""The side-by-side page's settings: declared once, bound to widgets, the link and messages by
ui.settings."""
from __future__ import annotations

from ..settings import Choice, Float, Int, Settings

VIEWS = ("own scales", "normalised")

SETTINGS = Settings("side_by_side", [
    Choice("sb_mode", "Update (binary networks)", "async", ("async", "sync"), state="sb_mode",
           help="async: one neuron at a time in a random order (the energy never rises); sync: "
                "all neurons at once (may oscillate)."),
    Int("sb_degree", "Degree n (polynomial)", 3, 2, 10, widget="number", state="sb_degree",
        help="n = 2 is the classical network again."),
    Float("sb_exp_beta", "β (exponential)", 1.0, 0.05, 10.0, widget="number", step=0.05,
          state="sb_exp_beta"),
    Float("sb_beta", "β (modern)", 20.0, 0.1, 500.0, widget="number", step=1.0, state="sb_beta",
          help="Patterns have unit length, so x·ξ ≤ 1: β sets how sharp the softmax is. Small β "
               "averages patterns."),
    Int("sb_steps", "Step limit", 30, 1, 200, widget="number", state="sb_steps"),
    Choice("sb_view", "Energy curves", "own scales", VIEWS, state="sb_view",
           help="own scales: one panel per network, each with its own y axis (the energies have "
                "different units); normalised: (E(t) − E(end)) / (E(0) − E(end)) on one axis."),
])

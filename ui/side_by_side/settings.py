"""The side-by-side page's settings: declared once, bound to widgets, the link and messages by
ui.settings."""
from __future__ import annotations

from ..setting_fields import Choice, Float, Int
from ..settings import Settings

VIEWS = ("own scales", "normalised")

SETTINGS = Settings("side_by_side", [
    Choice("sb_mode", "Update (binary networks)", "async", ("async", "sync"),
           help="async: one neuron at a time in a random order (the energy never rises); sync: "
                "all neurons at once (may oscillate)."),
    Int("sb_degree", "Degree n (polynomial)", 3, 2, 10, widget="number",
        help="n = 2 is the classical network again."),
    Float("sb_exp_beta", "β (exponential)", 1.0, 0.05, 10.0, widget="number", step=0.05),
    Float("sb_beta", "β (modern)", 20.0, 0.1, 500.0, widget="number", step=1.0,
          help="Patterns have unit length, so x·ξ ≤ |ξ|, which is 1 for a query with flipped "
               "pixels (up to about 1.6 with the strongest noise): β sets how sharp the "
               "softmax is. Small β blends patterns."),
    Int("sb_steps", "Step limit", 30, 1, 200, widget="number"),
    Choice("sb_view", "Energy curves", "own scales", VIEWS,
           help="own scales: one panel per network, each with its own y axis (the energies have "
                "different units); normalised: (E(t) − E(end)) / (E(0) − E(end)) on one axis."),
])

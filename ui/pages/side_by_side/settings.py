"""The side-by-side page's settings: declared once, bound to widgets, the link and messages by
ui.settings.layer."""
from __future__ import annotations

from ui.settings.fields import Choice, Float, Int
from ui.settings.layer import Settings

VIEWS = ("own scales", "normalised")

SETTINGS = Settings("side_by_side", [
    Choice("mode", "Update (binary networks)", "async", ("async", "sync"), aliases=("sb_mode",),
           help="async: one neuron at a time in a random order (the energy never rises); sync: "
                "all neurons at once (may oscillate)."),
    Int("degree", "Degree n (polynomial)", 3, 2, 10, widget="number", aliases=("sb_degree",),
        help="n = 2 is the classical network again."),
    Float("exp_beta", "β (exponential)", 1.0, 0.05, 10.0, widget="number", step=0.05,
          aliases=("sb_exp_beta",)),
    Float("beta", "β (modern)", 20.0, 0.1, 500.0, widget="number", step=1.0, aliases=("sb_beta",),
          help="Patterns have unit length, so x·ξ ≤ |ξ|, which is 1 for a query with flipped "
               "pixels (up to about 1.6 with the strongest noise): β sets how sharp the "
               "softmax is. Small β blends patterns."),
    Int("steps", "Step limit", 30, 1, 200, widget="number", aliases=("sb_steps",)),
    Choice("view", "Energy curves", "own scales", VIEWS, aliases=("sb_view",),
           help="own scales: one panel per network, each with its own y axis (the energies have "
                "different units); normalised: (E(t) − E(end)) / (E(0) − E(end)) on one axis."),
])

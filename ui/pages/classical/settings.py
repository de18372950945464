"""The classical page's settings: declared once, bound to widgets, the link and messages by
ui.settings.layer."""
from __future__ import annotations

from ui.settings.fields import Choice, Flag, Float, Int
from ui.settings.layer import Settings

RULES = ("hebbian", "storkey", "pseudoinverse")
RULE_NAMES = {"hebbian": "Hebbian", "storkey": "Storkey", "pseudoinverse": "pseudo-inverse"}
W_SHOWN = 256  # a larger heatmap is too big to send to the browser on every rerun

SETTINGS = Settings("classical", [
    Choice("mode", "Update", "async", ("async", "sync"),
           help="async: one neuron at a time, random order; sync: all at once."),
    Float("T", "Temperature T", 0.0, 0.0, 1.0, step=0.05,
          help="0: every neuron follows its field. Above 0: a neuron may go against it, the "
               "more often the higher T."),
    Choice("rule", "Learning rule", "hebbian", RULES, widget="select", names=RULE_NAMES,
           help="Hebbian is Hopfield's; Storkey and the pseudo-inverse store correlated "
                "patterns better."),
    Int("steps", "Step limit", 30, 5, 200, widget="number"),
    Flag("W", "Show the weight matrix W"),
])

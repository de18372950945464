"""The exponential-family page's settings: declared once, bound to widgets, the link and
messages by ui.settings.layer."""
from __future__ import annotations

from hopfield_core import expfamily
from ui.settings.fields import Choice, Int, Steps
from ui.settings.layer import Settings

VIEWS = {"family": "Attention is a gradient", "cloud": "Expansion and contraction",
         "descent": "A step down an energy"}
CLOUDS = {"blob": "a blob", "two clusters": "two clusters", "ring": "a ring",
          "offset blob": "a blob off the origin"}
DIMS = {2: "2-D", 3: "3-D"}

SETTINGS = Settings("attention_family", [
    Choice("view", "Section", "family", tuple(VIEWS), widget="segmented", names=VIEWS),
    Steps("beta", "β", 8.0, (1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0),
          help="The stored patterns have length 1, so their scores K q lie in [-1, 1]: "
               "attention needs a large β to pick one."),
    Choice("cloud", "Token cloud", "blob", tuple(CLOUDS), widget="select", names=CLOUDS),
    Choice("dim", "Dimensions", 3, tuple(DIMS), widget="segmented", names=DIMS),
    Int("n", "Tokens n", 32, 4, 200),
    Steps("cbeta", "β", 1.0, (0.001, 0.01, 0.1, 0.5, 1.0, 2.0)),
    Int("layers", "Layers L", 10, 1, expfamily.MAX_LAYERS),
    Int("seed", "Seed", 0, 0, 9999, widget="number"),
    Steps("dbeta", "β", 1.0, (0.25, 0.5, 1.0, 2.0, 4.0)),
    Steps("scale", "How far W_Q, W_K, W_V are from I", 1.0, (0.25, 0.5, 1.0, 2.0)),
    Int("wseed", "Seed of the random weights", 0, 0, 9999, widget="number"),
])

"""The attention page's settings: declared once, bound to widgets, the link and messages by
ui.settings.layer."""
from __future__ import annotations

from ui.settings.fields import Choice, Flag, Float, Int
from ui.settings.layer import Settings

PROJECTIONS = ("identity", "tied", "random")
PROJECTION_LABELS = {"identity": "identity", "tied": "random, W_K = W_Q",
                     "random": "random, independent"}
MAX_D_K = 64  # W_Q, W_K, W_V hold 3 x d x 4 d_k floats: 42 MB at d = 48 x 48 x 3
RUN_MAX_STEPS = 500  # ModernHopfield.run's budget when it finds the fixed point to compare with
RUN_TOL = 1e-12

SETTINGS = Settings("attention", [
    Choice("proj", "Projections W_Q, W_K, W_V", "identity", PROJECTIONS, names=PROJECTION_LABELS,
           aliases=("at_proj",),
           help="identity: Q, K, V are the patterns themselves (the Hopfield step). Random: "
                "Gaussian matrices from a seed, entries N(0, 1/d_k). With W_K = W_Q the scores "
                "are a noisy copy of x·ξ; independent W_Q, W_K score at random, like an "
                "untrained Transformer layer."),
    Int("dk", "d_k (size of each head)", 16, 1, MAX_D_K, widget="number", aliases=("at_dk",),
        needs=("proj", ("tied", "random"))),
    Int("heads", "Heads", 1, 1, 4, aliases=("at_heads",)),
    Int("seed", "Projection seed", 0, 0, 2 ** 31 - 1, widget="number", aliases=("at_seed",),
        needs=("proj", ("tied", "random"))),
    Flag("bhand", "Set β by hand", aliases=("at_bhand",),
         help="Off: β = 1/√d_k, the Transformer's choice."),
    Float("beta", "β", 20.0, 0.001, 1000.0, widget="number", step=1.0, aliases=("at_beta",),
          needs=("bhand", (True,))),
    Flag("all", "Also query every stored pattern", aliases=("at_all",),
         help="Add one query row per stored pattern, corrupted by the sidebar's settings."),
    Int("T", "Iteration steps T", 10, 1, 50, aliases=("at_T",)),
])

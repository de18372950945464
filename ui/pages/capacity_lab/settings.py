"""The capacity lab's settings: declared once, bound to widgets, the link and messages by
ui.settings.layer."""
from __future__ import annotations

from hopfield_core.capacity import curves, phase
from ui.settings.fields import Choice, Flag, Float, Int, Steps
from ui.settings.layer import Settings

VIEWS = {"curves": "Success against load", "basins": "Basins of attraction",
         "phase": "Phase diagram"}
VARIANT_FLAGS = {  # link key -> variant
    "v_sync": "classical-sync", "v_async": "classical-async", "v_dense": "dense",
    "v_exp": "exponential", "v_modern": "modern"}
VARIANT_NAMES = {"classical-sync": "Classical, sync", "classical-async": "Classical, async",
                 "dense": "Dense, F(z) = zⁿ", "exponential": "Exponential, F(z) = e^(βz)",
                 "modern": "Modern, continuous"}
BETAS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0)
MAX_N = 100_000

SETTINGS = Settings("capacity_lab", [
    Choice("view", "Experiment", "curves", tuple(VIEWS), widget="segmented", names=VIEWS),
    *[Flag(key, VARIANT_NAMES[v], default=v.startswith("classical"))
      for key, v in VARIANT_FLAGS.items()],
    Int("d", "Neurons d", 100, curves.MIN_D, 1000, widget="number",
        help=f"Whole number from {curves.MIN_D} to 1000."),
    Int("n_lo", "Fewest patterns N", 2, 1, MAX_N, widget="number"),
    Int("n_hi", "Most patterns N", 30, 1, MAX_N, widget="number"),
    Int("points", "Points", 15, 2, 40),
    Int("trials", "Trials per point", 20, 1, 200,
        help="Each trial stores a fresh set of random patterns."),
    Float("flip", "Query: fraction of bits flipped", 0.0, 0.0, 0.45, step=0.05,
          help="0: start at the stored pattern itself (is it stable?); more: how wide its basin is."),
    Int("degree", "Degree n (dense)", 3, curves.MIN_DEGREE, curves.MAX_DEGREE),
    Steps("beta", "β (exponential, modern)", 1.0, BETAS),
    Int("seed", "Seed", 0, 0, 9999, widget="number"),
    Int("ph_d", "Neurons d", 100, phase.MIN_D, 400, widget="number",
        help="Whole number from 16 to 400."),
    Float("ph_load", "Largest load N/d", 0.24, 0.05, 0.5, step=0.01),
    Float("ph_tmax", "Highest temperature T", 1.2, 0.2, 2.0, step=0.1),
    Int("ph_grid", "Grid points per axis", 12, 4, 20),
    Int("ph_trials", "Trials per cell", 4, 1, 16),
    Int("ph_sweeps", "Sweeps", 30, 10, 100, step=10),
])

"""The dense page's settings: declared once, bound to widgets, the link and messages by
ui.settings.layer."""
from __future__ import annotations

from ui.settings.fields import Choice, Flag, Int, Steps
from ui.settings.layer import Settings
from ui.store.shared_settings import LINK, SIDEBAR

INTERACTIONS = ("polynomial", "exponential")
MODES = ("async", "sync")
MIN_DEGREE, MAX_DEGREE = 2, 10
BETAS = (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0)
SECTIONS = {"compare": "Classical vs dense", "capacity": "How many patterns each network holds"}

SETTINGS = Settings("dense", [
    Choice("interaction", "Interaction F", "polynomial", INTERACTIONS,
           help="polynomial: F(z) = z^n; exponential: F(z) = e^(beta (z - d))."),
    Int("n", "Degree n", 3, MIN_DEGREE, MAX_DEGREE,
        help="n = 2 is the classical Hopfield network.", needs=("interaction", ("polynomial",))),
    Flag("rect", "Rectified",
         help="F(z) = max(z, 0)^n: patterns the state disagrees with count for nothing "
              "(Krotov & Hopfield's rectified polynomial).", needs=("interaction", ("polynomial",))),
    Steps("beta", "Sharpness beta (exponential)", 1.0, BETAS,
          help="Logarithmic steps. Small beta: F is nearly linear and forgets which pattern is "
               "near; large beta: only the nearest pattern counts."),
    Choice("mode", "Update", "async", MODES,
           help="async: one neuron at a time, random order; sync: all at once."),
    Int("steps", "Step limit", 30, 5, 200, widget="number",
        help="Whole number from 5 to 200."),
    Choice("view", "Section", "compare", tuple(SECTIONS), widget="segmented", names=SECTIONS),
])

# "Load this demo": 10 letters at 8 x 8 pixels (d = 64, so N = 10 > 0.138 d = 8.83), query H
# with 20 % of its pixels flipped. Checked with the core (tests/app/test_dense_page.py):
# the classical network ends in a mixture state, degree 3 retrieves H.
DEMO_LETTERS = "HOPFIELDKX"
DEMO_SIZE = 8
DEMO_LINK = {"presets": tuple(f"letters/{c}" for c in DEMO_LETTERS),  # LINK's: the store,
             "q_image": None}  # and the query is a stored letter, not an uploaded image
DEMO_SIDEBAR = {"size": DEMO_SIZE, "colour": False, "binarize": "threshold",  # SIDEBAR's
                "q_index": 0, "q_corruption": "flip", "q_amount": 0.2, "q_seed": 0, "q_flip": ()}
DEMO_MODEL = {key: SETTINGS.fields[key].default for key in ("interaction", "n", "rect", "mode", "steps")}


def load_demo() -> None:
    """on_click of "Load this demo": the store, the representation, the query and the model,
    each value assigned through the settings layer (beta and the section stay as they are)."""
    for settings, demo in ((LINK, DEMO_LINK), (SIDEBAR, DEMO_SIDEBAR), (SETTINGS, DEMO_MODEL)):
        for key, value in demo.items():
            settings.assign(key, value)

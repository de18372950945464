"""The landscape page's settings: declared once, bound to widgets, the link and messages by
ui.settings."""
from __future__ import annotations

from hopfield_core import landscape as core

from ..settings import Choice, Custom, Float, Int, Multi, Pick, Settings, Steps
from ..state import MAX_PATTERNS

BETAS = (0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0)
DEFAULT_POINTS = ((1.0, 0.0), (-0.5, 0.866), (-0.5, -0.866))  # a triangle on the unit circle
QUERY_LIMIT = 10.0
SECTIONS = {"world": "2-D world", "plane": "A plane through image space",
            "slice": "A line between two patterns", "states": "Every state of a small network"}
PLANES = {"pca": "PCA plane of all patterns", "three": "through three patterns"}
MODELS = {"classical": "classical (Hebb)", "dense": "dense, degree 3"}
SOURCES = {"random": "random ±1 patterns from the seed",
           "store": "the first stored images, shrunk to 4 x 4 (d = 16 only)"}
AXES = {"overlap": "overlap m with a pattern", "hamming": "Hamming distance to it"}


def read_points(text: str) -> tuple:
    """The link's `pts`: "x,y;x,y;..." (2 to 6 points), checked by the core."""
    cells = [row.split(",") for row in text.split(";") if row.strip()]
    return tuple(tuple(p) for p in core.parse_points(cells).tolist())


def write_points(points) -> str:
    return ";".join(f"{x:g},{y:g}" for x, y in points)


SETTINGS = Settings("landscape", [
    Choice("view", "Section", "world", tuple(SECTIONS), widget="segmented", names=SECTIONS,
           state="ls_tab"),
    # (a) the 2-D world
    Custom("pts", "the stored patterns of the 2-D world", DEFAULT_POINTS, read_points,
           write_points, max_len=200, state="_ls_pts"),
    Float("qx", "Query ξ, first coordinate", 0.3, -QUERY_LIMIT, QUERY_LIMIT, widget="number",
          step=0.05, state="ls_qx"),
    Float("qy", "Query ξ, second coordinate", 0.2, -QUERY_LIMIT, QUERY_LIMIT, widget="number",
          step=0.05, state="ls_qy"),
    Steps("beta", "Inverse temperature β (log scale)", 5.0, BETAS, state="ls_beta",
          help="Large β: sharp softmax, one valley per pattern. Small β: the valleys merge "
               "into one at the patterns' mean."),
    Int("steps", "Step limit", 50, 1, 500, widget="number", state="ls_steps"),
    # (b) a plane through image space
    Choice("plane", "Plane", "pca", tuple(PLANES), names=PLANES, state="ls_plane"),
    Pick("p1", "Pattern 1", 0, MAX_PATTERNS, state="ls_p1"),
    Pick("p2", "Pattern 2", 1, MAX_PATTERNS, state="ls_p2"),
    Pick("p3", "Pattern 3", 2, MAX_PATTERNS, state="ls_p3"),
    Steps("pbeta", "β (log scale)", 10.0, BETAS, state="ls_pbeta",
          help="The inverse temperature of the continuous network."),
    Int("psteps", "Step limit", 30, 1, 200, widget="number", state="ls_psteps"),
    # (c) a line between two patterns
    Pick("sa", "From pattern x_a (t = 0)", 0, MAX_PATTERNS, state="ls_sa"),
    Pick("sb", "To pattern x_b (t = 1)", 1, MAX_PATTERNS, state="ls_sb"),
    Multi("betas", "Values of β (up to 4)", (2.0, 5.0, 20.0), BETAS, 4, state="ls_sbetas"),
    # (d) every state of a small network
    Int("bd", "Neurons d", 16, 6, 16, state="ls_bd"),
    Int("bn", "Patterns N", 3, 1, 5, state="ls_bn"),
    Int("bseed", "Seed", 0, 0, 2 ** 31 - 1, widget="number", state="ls_bseed"),
    Choice("bmodel", "Network", "classical", tuple(MODELS), names=MODELS, state="ls_bmodel"),
    Choice("bsrc", "Patterns", "random", tuple(SOURCES), names=SOURCES, state="ls_bsrc"),
    Choice("bx", "Horizontal axis", "overlap", tuple(AXES), names=AXES, state="ls_bx"),
    Pick("bref", "Reference pattern", 0, 5, state="ls_bref"),
])

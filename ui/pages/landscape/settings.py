"""The landscape page's settings: declared once, bound to widgets, the link and messages by
ui.settings.layer."""
from __future__ import annotations

from hopfield_core import landscape as core
from ui.settings.fields import Choice, Custom, Float, Int, LinkValueError, Multi, Pick, Steps
from ui.settings.layer import Settings
from ui.store.store import MAX_PATTERNS

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
    try:
        return tuple(tuple(p) for p in core.parse_points(cells).tolist())
    except ValueError as e:  # the core's own sentence, naming the bad cell
        raise LinkValueError(str(e)) from None


def write_points(points) -> str:
    return ";".join(f"{x:g},{y:g}" for x, y in points)


SETTINGS = Settings("landscape", [
    Choice("view", "Section", "world", tuple(SECTIONS), widget="segmented", names=SECTIONS),
    # (a) the 2-D world
    Custom("pts", "the stored patterns of the 2-D world", DEFAULT_POINTS, read_points,
           write_points, max_len=200),
    Float("qx", "Query ξ, first coordinate", 0.3, -QUERY_LIMIT, QUERY_LIMIT, widget="number",
          step=0.05),
    Float("qy", "Query ξ, second coordinate", 0.2, -QUERY_LIMIT, QUERY_LIMIT, widget="number",
          step=0.05),
    Steps("beta", "Inverse temperature β (log scale)", 5.0, BETAS,
          help="Large β: sharp softmax, one valley per pattern. Small β: the valleys merge "
               "into one at the patterns' mean."),
    Int("steps", "Step limit", 50, 1, 500, widget="number"),
    # (b) a plane through image space
    Choice("plane", "Plane", "pca", tuple(PLANES), names=PLANES),
    Pick("p1", "Pattern 1", 0, MAX_PATTERNS),
    Pick("p2", "Pattern 2", 1, MAX_PATTERNS),
    Pick("p3", "Pattern 3", 2, MAX_PATTERNS),
    Steps("pbeta", "β (log scale)", 10.0, BETAS,
          help="The inverse temperature of the continuous network."),
    Int("psteps", "Step limit", 30, 1, 200, widget="number"),
    # (c) a line between two patterns
    Pick("sa", "From pattern x_a (t = 0)", 0, MAX_PATTERNS),
    Pick("sb", "To pattern x_b (t = 1)", 1, MAX_PATTERNS),
    Multi("betas", "Values of β (up to 4)", (2.0, 5.0, 20.0), BETAS, 4),
    # (d) every state of a small network
    Int("bd", "Neurons d", 16, 6, 16),
    Int("bn", "Patterns N", 3, 1, 5),
    Int("bseed", "Seed", 0, 0, 2 ** 31 - 1, widget="number"),
    Choice("bmodel", "Network", "classical", tuple(MODELS), names=MODELS),
    Choice("bsrc", "Patterns", "random", tuple(SOURCES), names=SOURCES),
    Choice("bx", "Horizontal axis", "overlap", tuple(AXES), names=AXES),
    Pick("bref", "Reference pattern", 0, 5),
])

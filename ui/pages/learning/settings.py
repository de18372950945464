"""The learning page's settings: declared once, bound to widgets, the link and messages by
ui.settings.layer."""
from __future__ import annotations

import math

from ui.settings.fields import Choice, Custom, Int, LinkValueError, Steps
from ui.settings.layer import Settings

VIEWS = {"plane": "Points in the plane", "images": "Your images"}
DATA = {"clusters": "four clusters", "moons": "two moons", "ring": "a ring",
        "spiral": "a spiral", "mine": "my points"}
CONTOURS = {"density": "log density log p", "energy": "energy E"}
BETAS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
RATES = (0.01, 0.02, 0.05, 0.1, 0.2)
PER_FRAME = (1, 2, 5, 10)
FRAMES = 60            # the player's steps; each is PER_FRAME Adam steps
IMAGE_STEPS = (0, 25, 50, 100, 200, 400)
MAX_MY_POINTS = 200
MAX_DATA = 1000       # with N = 16 and 10 Adam steps a frame: about 0.5 s to train, once
LIMIT = 4.0            # clicked points lie in [-LIMIT, LIMIT]^2


def read_points(text: str) -> tuple:
    """The link's `pts`: "x,y;x,y;..." (up to MAX_MY_POINTS finite points in the box)."""
    rows = [r.split(",") for r in text.split(";") if r.strip()]
    if len(rows) > MAX_MY_POINTS:
        raise LinkValueError(f"at most {MAX_MY_POINTS} points")
    out = []
    for r in rows:
        if len(r) != 2:
            raise LinkValueError("each point is two numbers, x,y")
        try:
            x, y = float(r[0]), float(r[1])
        except ValueError:
            raise LinkValueError("each point is two numbers, x,y") from None
        if not (math.isfinite(x) and math.isfinite(y)) or max(abs(x), abs(y)) > LIMIT:
            raise LinkValueError(f"each coordinate must be a number from -{LIMIT:g} to {LIMIT:g}")
        out.append((round(x, 2), round(y, 2)))
    return tuple(out)


def write_points(points) -> str:
    return ";".join(f"{x:g},{y:g}" for x, y in points)


SETTINGS = Settings("learning", [
    Choice("view", "Section", "plane", tuple(VIEWS), widget="segmented", names=VIEWS),
    Choice("data", "Data", "clusters", tuple(DATA), widget="select", names=DATA),
    Int("n", "Data points", 300, 20, MAX_DATA, widget="number",
        help=f"Whole number from 20 to {MAX_DATA}; a quarter of them are held out."),
    Int("N", "Patterns N", 6, 1, 16),
    Steps("beta", "β (widths 1/√β)", 2.0, BETAS),
    Steps("lr", "Learning rate (Adam)", 0.05, RATES),
    Steps("per_frame", "Adam steps per player step", 5, PER_FRAME),
    Choice("contour", "Background", "density", tuple(CONTOURS), widget="radio", names=CONTOURS),
    Int("seed", "Seed", 0, 0, 9999, widget="number"),
    Custom("pts", "my points", (), read_points, write_points, max_len=12 * MAX_MY_POINTS),
    Int("img_N", "Patterns N", 3, 1, 40),
    Steps("img_beta", "β (widths 1/√β)", 1.0, BETAS),
    Steps("img_steps", "Adam steps", 100, IMAGE_STEPS, log=False),
])

"""Patterns drawn by hand: a grid of cells (True = ink, shown black, the pattern's -1, as the
letters are dark on white), edited by clicks and drags on an enlarged picture of it, written
as hexadecimal text so that a link can carry a drawing."""
from __future__ import annotations

import re

import numpy as np

PREFIX = "drawn/"                 # a drawing's key in the pattern store: drawn/<size>/<hex>
SIZES = (8, 12, 16, 20, 24, 32)   # the sizes patterns are made at (the app's sidebar offers these)


def cell(x: float, y: float, shown_width: float, shown_height: float, size: int) -> tuple[int, int]:
    """(row, column) of the cell under the point (x, y) of a size x size grid shown at the given
    size in pixels; points outside are clipped to the nearest cell."""
    col = int(np.clip(x / shown_width * size, 0, size - 1))
    row = int(np.clip(y / shown_height * size, 0, size - 1))
    return row, col


def paint(grid: np.ndarray, start: tuple[float, float], end: tuple[float, float],
          shown_width: float, shown_height: float) -> np.ndarray:
    """A click (start == end, or both in one cell) toggles that cell; a drag paints every cell
    of the rectangle it spans with the opposite of the first cell's value (so a drag that
    starts on ink erases). Returns a new grid."""
    size = grid.shape[0]
    r0, c0 = cell(*start, shown_width, shown_height, size)
    r1, c1 = cell(*end, shown_width, shown_height, size)
    out = np.array(grid, dtype=bool, copy=True)
    out[min(r0, r1):max(r0, r1) + 1, min(c0, c1):max(c0, c1) + 1] = not grid[r0, c0]
    return out


def to_text(grid: np.ndarray) -> str:
    """A square grid as hexadecimal digits, row by row (1 = ink), padded to whole digits."""
    bits = "".join("1" if v else "0" for v in np.asarray(grid, dtype=bool).ravel())
    bits += "0" * (-len(bits) % 4)
    return "".join(f"{int(bits[i:i + 4], 2):x}" for i in range(0, len(bits), 4))


def from_text(text: str, size: int) -> np.ndarray:
    """The inverse of to_text; ValueError for text that is not a size x size drawing."""
    if size not in SIZES:
        raise ValueError(f"a drawing is {', '.join(map(str, SIZES))} cells a side, not {size}")
    digits = -(-size * size // 4)
    if not re.fullmatch(r"[0-9a-fA-F]{%d}" % digits, text or ""):
        raise ValueError(f"a {size} x {size} drawing is {digits} hexadecimal digits")
    bits = "".join(f"{int(ch, 16):04b}" for ch in text)[: size * size]
    return np.array([b == "1" for b in bits]).reshape(size, size)


def key(grid: np.ndarray) -> str:
    return f"{PREFIX}{grid.shape[0]}/{to_text(grid)}"


def parse_key(k: str) -> np.ndarray:
    """The grid of a store key drawn/<size>/<hex>; ValueError for anything else."""
    m = re.fullmatch(re.escape(PREFIX) + r"(\d{1,2})/([0-9a-fA-F]+)", k or "")
    if not m:
        raise ValueError("not a drawing")
    return from_text(m.group(2), int(m.group(1)))


def to_image(grid: np.ndarray, side: int) -> np.ndarray:
    """The drawing as a side x side RGB image in [0, 1] (ink black, paper white), each cell
    a block of whole pixels where side is a multiple of the grid's size."""
    size = grid.shape[0]
    rows = (np.arange(side) * size // side)
    img = np.where(np.asarray(grid, dtype=bool)[np.ix_(rows, rows)], 0.0, 1.0)
    return np.repeat(img[:, :, None], 3, axis=2)


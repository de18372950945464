"""The settings every page shares, shown in the sidebar: how images become patterns and how
the query is made. Declared once, bound to widgets, the link and messages by ui.settings (the
store itself, the uploaded query image and presenter mode are read by ui.state)."""
from __future__ import annotations

from hopfield_core.drawing import SIZES
from hopfield_core.images import CORRUPTIONS

from .settings import Choice, Custom, Flag, Float, Int, Pick, Settings

# SIZES: pixels a side (32 in colour is d = 3072 neurons), the sizes a drawing can have too
MAX_PATTERNS = 40                # the store's cap: beyond it the pages stop being instant
CORRUPTION_LABELS = {"none": "none", "flip": "flip pixels", "noise": "Gaussian noise",
                     "mask": "mask a square", "half": "hide the bottom half", "invert": "invert"}
BINARIZE = {"threshold": "threshold", "dither": "dither"}
MAX_FLIPS = 256  # pixels of the query flipped by hand that a link can carry


def read_flips(text: str) -> tuple[int, ...]:
    """The link's q_flip: pixel indices (row * size + column), comma-separated."""
    if not text:
        return ()
    try:
        pixels = sorted({int(p) for p in text.split(",")})
    except ValueError:
        raise ValueError("it should be whole numbers separated by commas") from None
    if pixels[0] < 0 or pixels[-1] >= max(SIZES) ** 2:
        raise ValueError(f"a pixel index runs from 0 to {max(SIZES) ** 2 - 1}")
    if len(pixels) > MAX_FLIPS:
        raise ValueError(f"at most {MAX_FLIPS} pixels can be flipped by hand")
    return tuple(pixels)

SIDEBAR = Settings("sidebar", [
    Choice("size", "Size (pixels a side)", 16, SIZES, widget="select_slider", state="size"),
    Flag("colour", "Colour", state="colour", help="One neuron per channel: d = 3 x size^2."),
    Choice("binarize", "Binary by", "threshold", tuple(BINARIZE), names=BINARIZE, state="binarize",
           help="threshold: brighter than the image's mean is +1; dither: Floyd-Steinberg dots."),
    Pick("q_index", "Start from pattern", 0, MAX_PATTERNS, state="q_index"),
    Choice("q_corruption", "Corruption", "flip", tuple(CORRUPTIONS), widget="select",
           names=CORRUPTION_LABELS, state="q_corruption"),
    Float("q_amount", "Amount", 0.2, 0.0, 1.0, step=0.05, state="q_amount",
          help="flip: the fraction of pixels flipped; noise: its strength; mask: the area hidden."),
    Int("q_seed", "Seed", 0, 0, 2 ** 31 - 1, widget="number", state="q_seed",
        help="The same seed gives every student the same corrupted query."),
    Custom("q_flip", "the query's pixels flipped by hand", (), read_flips,
           lambda v: ",".join(map(str, v)), max_len=MAX_FLIPS * 5, state="_q_flip"),
])

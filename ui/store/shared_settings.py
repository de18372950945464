"""The settings every page shares, declared once and bound to widgets, the link and messages by
ui.settings.layer: the sidebar's (how images become patterns, how the query is made) and the
link's others (the pattern store, the uploaded query image, and presenter and projector mode
from ui.settings.modes), which the app keeps elsewhere (ui.store.store, the sidebar's toggles). `bind()`
reads them from the link once per session; streamlit_app.py writes them back to the address bar after the page ran."""
from __future__ import annotations

from hopfield_core.drawing import SIZES
from hopfield_core.images import CORRUPTIONS
from ui.settings import layer, modes
from ui.settings.fields import Choice, Custom, Flag, Float, Int, Kept, LinkValueError, Pick
from ui.settings.layer import Settings

from . import store
from .store import MAX_PATTERNS

# SIZES: pixels a side (32 in colour is d = 3072 neurons), the sizes a drawing can have too
CORRUPTION_LABELS = {"none": "none", "flip": "flip pixels", "noise": "Gaussian noise",
                     "mask": "mask a square", "half": "hide the bottom half", "invert": "invert"}
BINARIZE = {"threshold": "threshold", "dither": "dither"}
MAX_FLIPS = 256  # pixels of the query flipped by hand that a link can carry
STORE_KEPT = ("This link keeps the pattern store as it was set: its patterns cannot be added, "
              "cleared or removed here.")  # a link's presets_hide=1
USES_AMOUNT = ("flip", "noise", "mask")  # the corruptions that read q_amount (images.corrupt)
USES_SEED = ("flip", "noise")            # ... and those that draw random numbers from q_seed


def read_flips(text: str) -> tuple[int, ...]:
    """The link's q_flip: pixel indices (row * size + column), comma-separated."""
    if not text:
        return ()
    try:
        pixels = sorted({int(p) for p in text.split(",")})
    except ValueError:
        raise LinkValueError("it should be whole numbers separated by commas") from None
    if pixels[0] < 0 or pixels[-1] >= max(SIZES) ** 2:
        raise LinkValueError(f"a pixel index runs from 0 to {max(SIZES) ** 2 - 1}")
    if len(pixels) > MAX_FLIPS:
        raise LinkValueError(f"at most {MAX_FLIPS} pixels can be flipped by hand")
    return tuple(pixels)

SIDEBAR = Settings("sidebar", [
    Choice("size", "Size (pixels a side)", 16, SIZES, widget="select_slider"),
    Flag("colour", "Colour", help="One neuron per channel: d = 3 x size^2."),
    Choice("binarize", "Binary by", "threshold", tuple(BINARIZE), names=BINARIZE,
           help="threshold: brighter than the image's mean is +1; dither: Floyd-Steinberg dots."),
    Pick("q_index", "Start from pattern", 0, MAX_PATTERNS),
    Choice("q_corruption", "Corruption", "flip", tuple(CORRUPTIONS), widget="select",
           names=CORRUPTION_LABELS),
    Float("q_amount", "Amount", 0.2, 0.0, 1.0, step=0.05, needs=("q_corruption", USES_AMOUNT),
          help="flip: the fraction of pixels flipped; noise: its strength; mask: the area hidden."),
    Int("q_seed", "Seed", 0, 0, 2 ** 31 - 1, widget="number", needs=("q_corruption", USES_SEED),
        help="The same seed gives every student the same corrupted query."),
    Custom("q_flip", "the query's pixels flipped by hand", (), read_flips,
           lambda v: ",".join(map(str, v)), max_len=MAX_FLIPS * 5),
])


LINK = Settings("link", [
    Kept("presets", "the pattern store", store.DEFAULT_PRESETS, store.read_presets,
         ",".join, store.stored_keys, store.put_presets, hides=True),  # presets_hide=1: no editing
    Kept("q_image", "the uploaded query image", None, store.read_query_image,
         lambda key: key, store.query_key, store.use_query_upload),
    *modes.FIELDS,
], prefix="")


def bind() -> None:
    """Every run, before the widgets exist: the shared settings (read from the link once per
    session, every value that cannot be used named in `link_messages`)."""
    store.opened_tab()
    layer.opened()
    SIDEBAR.bind()
    LINK.bind()

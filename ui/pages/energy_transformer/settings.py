"""The Energy Transformer page's settings: declared once, bound to widgets, the link and
messages by ui.settings.layer. The device is among them; a link that names a device this machine
lacks (a link from a GPU machine opened on a laptop) runs on the best one it has, and says so."""
from __future__ import annotations

import re

from hopfield_core.et.checkpoint import MODELS, shipped_config, shipped_eval
from hopfield_core.et.masks import random_mask
from hopfield_core.et.photos import held_out
from hopfield_core.presets import photo_names
from ui.settings.fields import Choice, Custom, Float, Int, LinkValueError, Range
from ui.settings.layer import Settings
from ui.store import uploads

SHIPPED = shipped_config()  # the models' sizes and trained steps (both alike), from assets/et/config.json
CONFIGS = {name: shipped_config(folder) for name, folder in MODELS.items()}
EVALS = {name: shipped_eval(folder) for name, folder in MODELS.items()}  # the cards' held-out figures
BENCH_EVALS = {name: shipped_eval(folder, "eval_bench") for name, folder in MODELS.items()}  # bench_et's 240 crops
# the page opens on the paper's model, whose descent draws the hole; the other starts from a classical
# inpainting and refines it
MODEL_NAMES = {"paper": "the paper's: the descent draws the hole",
               "harmonic": "start from classical inpainting (harmonic fill)"}


def start_help(evals: dict) -> str:
    """What each model does, with its card's held-out figures (the error of the hidden patches at
    step 0 and after the trained steps)."""
    paper, harmonic = evals.get("paper", {}), evals.get("harmonic", {})
    if not all(isinstance(e.get(k), float) for e in (paper, harmonic) for k in ("start_mse", "et_mse")):
        return "Where the hidden patches start: from the mask token (the paper) or from a smooth harmonic fill."
    return (f"The paper's model: every hidden patch starts as the mask token and the descent draws it; on "
            f"its card's held-out crops the hidden patches' error falls from {paper['start_mse']:.4f} at "
            f"step 0 to {paper['et_mse']:.4f}. Start from classical inpainting: the hidden patches start "
            f"from their harmonic fill, already at {harmonic['start_mse']:.4f}, and the descent refines it "
            f"a little, to {harmonic['et_mse']:.4f} (a second trained model).")


SIZE, PATCH = SHIPPED.image_size, SHIPPED.patch_size  # pixels a side, pixels a patch
GRID = SIZE // PATCH  # patches a side
MAX_STEPS = 100
DEVICES = ("auto", "cuda", "mps", "cpu")
SOURCES = {"photo": "preset photo", "upload": "upload"}
MASKS = {"random": "random", "rectangle": "rectangle", "click": "click patches"}
PHOTOS = tuple(photo_names())
PHOTO_NAMES = {n: f"{n} (never seen in training)" if held_out(n) else f"{n} (a training photo)"
               for n in PHOTOS}
DEFAULT_PHOTO = "coffee"


def mask_text(mask) -> str:
    """A GRID x GRID mask as hexadecimal digits, row by row (1 = hidden)."""
    bits = "".join("1" if v else "0" for v in mask.ravel())
    return f"{int(bits, 2):0{GRID * GRID // 4}x}"


def read_mask(text: str) -> str:
    if not re.fullmatch(r"[0-9a-fA-F]{%d}" % (GRID * GRID // 4), text):
        raise LinkValueError(f"it should be {GRID * GRID // 4} hexadecimal digits, one bit a patch")
    return text.lower()


def read_device(text: str) -> str:
    if text.lower() not in DEVICES:
        raise LinkValueError(f"it should be one of {', '.join(DEVICES)}")
    return text.lower()


def read_upload(text: str) -> str:
    """The link's `img`: an upload's key (empty: none). One this server lacks is not used (the
    link's messages name it, the address bar drops it); one it has is kept over anonymous
    uploads, as a link names it (ui.store.uploads)."""
    if not text:
        return text
    if not uploads.is_key(text):
        raise LinkValueError("it does not name an uploaded image")
    if not uploads.default_store().open_link(text):
        raise LinkValueError(f"this server does not have that image: uploads are kept for "
                         f"{uploads.MAX_AGE_S // 86400} days, on the server they were uploaded "
                         "to; upload it again")
    return text


SETTINGS = Settings("energy_transformer", [
    Choice("src", "Image", "photo", tuple(SOURCES), names=SOURCES),
    Choice("photo", "Photo", DEFAULT_PHOTO, PHOTOS, widget="select", names=PHOTO_NAMES,
           needs=("src", ("photo",))),
    Custom("img", "the uploaded photo", "", read_upload, str, max_len=80,
           names={"": "no uploaded photo"}, needs=("src", ("upload",))),
    Choice("mask", "Mask", "random", tuple(MASKS), names=MASKS),
    Float("ratio", "Hidden share", 0.5, 0.05, 0.95, step=0.05, needs=("mask", ("random",))),
    Int("seed", "Seed", 0, 0, 10_000, widget="number", needs=("mask", ("random",))),
    Range("rows", "Rows", (2, 6), 0, GRID, needs=("mask", ("rectangle",))),
    Range("cols", "Columns", (2, 6), 0, GRID, needs=("mask", ("rectangle",))),
    Custom("hide", "the patches clicked hidden", mask_text(random_mask(GRID, 0.5, 0)),
           read_mask, str, needs=("mask", ("click",))),
    Int("steps", "Steps T", SHIPPED.steps, 1, MAX_STEPS,
        help=f"The model was trained to be read after {SHIPPED.steps} steps: run it longer (up "
             f"to {MAX_STEPS}) to see whether the picture holds while the energy falls."),
    Choice("start", "Model", "paper", tuple(MODEL_NAMES), names=MODEL_NAMES, widget="select",
           help=start_help(EVALS)),
    Custom("device", "Device", "auto", read_device, str, max_len=8),
    Int("query", "Patch to look from", GRID * (GRID // 2 - 1) + GRID // 2 - 1, 0, GRID * GRID - 1,
        widget="number", help="The patch whose attention the page draws, counted row by row "
                              "from 0 at the top left: click one on the picture to choose it."),
])

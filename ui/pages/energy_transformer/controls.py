"""The Energy Transformer page's controls: which image, which patches are hidden, how many
steps, which model, which device."""
from __future__ import annotations

from typing import NamedTuple

import numpy as np
import streamlit as st

from hopfield_core import image_files, images
from hopfield_core.et.masks import random_mask, rectangle_mask, show_masked
from hopfield_core.presets import preset_image
from ui.charts import pictures
from ui.serving.text import quoted
from ui.store import store
from ui.store.grid_editor import cell_grid, new_edits
from ui.store.uploads import UPLOAD_TYPES

from . import cache
from .settings import GRID, PATCH, SETTINGS, SIZE, mask_text

CLICK_WIDTH = 320  # px: the picture of the patches to click
MASK_GRID = "energy_transformer_mask_grid"  # the grid over the picture (ui/store/grid_editor.py)
MASK_WORDS = ("hidden", "partly hidden", "shown")  # a patch for a screen reader (never grey)


def pick_image() -> tuple[np.ndarray | None, str]:
    """The image to complete and its cache key, or (None, "") with a message."""
    if SETTINGS.show("src", horizontal=True) == "photo":
        name = SETTINGS.show("photo")
        return preset_image("photos", name, SIZE), f"preset/{name}"
    up = st.file_uploader("Upload a photo", type=UPLOAD_TYPES, key="energy_transformer_upload",
                          help=f"Any size, colour or greyscale: it is centre-cropped and resized "
                               f"to {SIZE} x {SIZE} pixels. " + store.KEPT_WORDS)
    if up is not None:
        try:
            SETTINGS.assign("img", store.upload_key(up))
        except image_files.ImageError as e:
            st.error(f"{quoted(up.name)}: {e}")
            return None, ""
    key = SETTINGS["img"]
    if not key:
        return None, ""
    found = store.stored_upload(key)
    if found is None:  # the link's was checked when read: this one was removed since
        st.error(store.removed_upload("this page was completing"))
        SETTINGS.assign("img", "")
        return None, ""
    shown = f"Completing the photo uploaded as {quoted(found[0])}"
    st.caption(f"{shown}, centre-cropped to a square and resized to {SIZE} x {SIZE} pixels "
               "(the size the model works at)" + ("; upload another to replace it." if up is None else "."))
    return images.resize(found[1], (SIZE, SIZE)), key


def _clicked() -> np.ndarray:
    bits = bin(int(SETTINGS["hide"], 16))[2:].zfill(GRID * GRID)
    return np.array([b == "1" for b in bits]).reshape(GRID, GRID)


def _set_clicked(mask: np.ndarray) -> None:
    SETTINGS.assign("hide", mask_text(mask))


def _hide_none() -> None:
    _set_clicked(np.zeros((GRID, GRID), dtype=bool))


def _hide_random() -> None:
    _set_clicked(random_mask(GRID, 0.5, int(np.random.default_rng().integers(1e6))))


def apply_mask_edits() -> None:
    """Hide or show the patches clicked (or toggled from the keyboard) on the grid since the
    last run, in order, before the picture is drawn."""
    edits = new_edits(MASK_GRID, GRID)
    if edits:
        mask = _clicked()
        for r, c, _, _ in edits:
            mask[r, c] = not mask[r, c]
        _set_clicked(mask)


def pick_mask(image: np.ndarray) -> np.ndarray:
    how = SETTINGS.show("mask", horizontal=True)
    if how == "random":
        c1, c2 = st.columns(2)
        ratio = SETTINGS.show("ratio", c1)
        seed = SETTINGS.show("seed", c2)
        return random_mask(GRID, float(ratio), int(seed))
    if how == "rectangle":
        c1, c2 = st.columns(2)
        rows, cols = SETTINGS.show("rows", c1), SETTINGS.show("cols", c2)
        return rectangle_mask(GRID, rows[0], cols[0], rows[1] - rows[0], cols[1] - cols[0])
    apply_mask_edits()
    mask = _clicked()
    st.caption("Click a patch to hide or show it. Keyboard: Tab to the picture, the arrow keys "
               "move the cursor, Space or Enter hides or shows its patch.")
    cell_grid(MASK_GRID, (~mask).astype(float), "flip",
              f"Patches to hide, {GRID} by {GRID}: {int(mask.sum())} hidden",
              picture=pictures.image_png(show_masked(image, mask, PATCH), CLICK_WIDTH),
              words=MASK_WORDS, cell_px=CLICK_WIDTH // GRID)
    c1, c2 = st.columns(2)
    c1.button("Hide none", key="energy_transformer_clear_mask", on_click=_hide_none)
    c2.button("Hide half at random", key="energy_transformer_random_mask", on_click=_hide_random)
    return mask


def pick_device(options: list[str]) -> str:
    """The device to run on: the link's or the user's choice if this machine has it, else the
    best it has (with a sentence). A radio only where there is a choice."""
    want = SETTINGS["device"]
    if want not in ("auto", *options):
        st.info(f"The link asks for {want.upper()}, which this machine does not have: "
                f"running on {options[0].upper()}.")
        SETTINGS.assign("device", "auto")
    if len(options) > 1:
        st.radio("Device", ["auto", *options], key="energy_transformer_device", horizontal=True,
                 format_func=lambda d: f"auto ({options[0].upper()})" if d == "auto" else d.upper(),
                 help="CUDA or Apple MPS when this machine has one, else the CPU.")
    chosen = SETTINGS["device"]
    return options[0] if chosen == "auto" else chosen


class Choices(NamedTuple):
    image: np.ndarray | None  # (SIZE, SIZE, 3), or None: no image to complete
    image_key: str
    mask: np.ndarray | None   # (GRID, GRID) bool, True = hidden; None without an image
    steps: int
    name: str                 # the model (checkpoint.MODELS)
    device: str


def panel() -> Choices:
    """The page's controls, side by side: the image, the steps, the model and the device on
    the left, the mask on the right."""
    with st.container(key="controls_energy_transformer"):
        left, right = st.columns([1, 1], gap="large")
        with left:
            image, image_key = pick_image()
            steps = SETTINGS.show("steps")
            name = SETTINGS.show("start")
            device = pick_device(cache.devices())
        with right:
            mask = pick_mask(image) if image is not None else None
    return Choices(image, image_key, mask, int(steps), name, device)

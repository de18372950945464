"""Pictures as PNG bytes, encoded once per content for every session: a pattern (values from
lo to hi) or an image in [0, 1]."""
from __future__ import annotations

import hashlib

import numpy as np
import streamlit as st

from hopfield_core import images

from . import exports


def picture_png(pattern: np.ndarray, shape: tuple, lo: float = -1.0, hi: float = 1.0,
                width: int = 256) -> bytes:
    """A pattern (values from lo to hi) as PNG bytes: see image_png."""
    return image_png(images.to_image(pattern, shape, lo, hi), width)


def image_png(img: np.ndarray, width: int = 256) -> bytes:
    """An (H, W, 3) image in [0, 1] as PNG bytes, pixels enlarged by a whole factor to at
    most `width` px, encoded once per content for every session. Show it with
    `st.image(..., output_format="PNG")` at `width` or "stretch": Streamlit then sends the
    bytes as they are, where an array (or output_format "auto", which turns RGB into JPEG)
    would be encoded again on every rerun."""
    a = np.ascontiguousarray(img, dtype=np.float64)
    return _png(hashlib.sha1(a.tobytes()).hexdigest(), a.shape, width, a)


@st.cache_resource(max_entries=2048, show_spinner=False)
def _png(digest: str, shape: tuple, width: int, _img: np.ndarray) -> bytes:
    """Keyed by the image's content (its bytes' digest and its shape) and the width."""
    return exports.png_bytes(_img, width)  # a few kB each

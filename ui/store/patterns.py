"""The stored images as the networks see them: patterns in the representation chosen in the
sidebar (size, colour, how to binarise), made once per (items, representation) for every
session."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core import drawing, images

from . import store
from .shared_settings import SIDEBAR


@dataclass(frozen=True)
class PatternSet:
    X: np.ndarray      # (N, d) one pattern a row
    shape: tuple       # how a pattern is shown: (H, W) or (H, W, 3)
    names: tuple
    binary: bool
    fingerprint: str   # a short hash that identifies X for caches

    @property
    def N(self) -> int:
        return self.X.shape[0]

    @property
    def d(self) -> int:
        return self.X.shape[1]


def representation() -> tuple[int, bool, str]:
    """(size, colour, binarize) as chosen in the sidebar."""
    return int(SIDEBAR["size"]), bool(SIDEBAR["colour"]), str(SIDEBAR["binarize"])


def to_pattern(img: np.ndarray, binary: bool) -> np.ndarray:
    size, colour, binarize = representation()
    return _to_pattern(img, binary, size, colour, binarize)


def _to_pattern(img: np.ndarray, binary: bool, size: int, colour: bool, binarize: str) -> np.ndarray:
    small = images.resize(img, (size, size))
    if binary:
        return images.to_bipolar(small, colour=colour, dither=binarize == "dither")
    return images.to_continuous(small, colour=colour, unit_norm=True)


def _source(key: str, img: np.ndarray, size: int) -> np.ndarray:
    """The image a pattern is made from: a drawing at its own size exactly, cell for cell
    (resampling would blur its edges); anything else as stored."""
    if key.startswith(drawing.PREFIX) and key.split("/")[1] == str(size):
        return drawing.to_image(drawing.parse_key(key), size)
    return img


@st.cache_resource(max_entries=64, show_spinner=False)
def _pattern_set(keys: tuple, names: tuple, size: int, colour: bool, binarize: str, binary: bool,
                 _images: tuple) -> PatternSet:
    """The patterns of stored items, once per (items, representation) for every session:
    an item's key names its image (a preset's name, an upload's hash), so the keys and the
    representation determine X. Read-only: X is shared by every rerun that asks."""
    shape = (size, size, 3) if colour else (size, size)
    d = int(np.prod(shape))
    X = (np.stack([_to_pattern(_source(k, img, size), binary, size, colour, binarize)
                   for k, img in zip(keys, _images)])
         if _images else np.zeros((0, d)))
    X.flags.writeable = False
    fp = hashlib.sha1(X.tobytes() + str(shape).encode()).hexdigest()[:16]
    return PatternSet(X, shape, tuple(names), binary, fp)


def from_store(binary: bool = True) -> PatternSet:
    """The stored images as patterns, in the representation chosen in the sidebar."""
    size, colour, binarize = representation()
    items = store.items()
    return _pattern_set(tuple(s.key for s in items), tuple(s.name for s in items), size, colour,
                        binarize, binary, tuple(s.image for s in items))

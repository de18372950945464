"""The Energy Transformer, loaded once per process and per device, and cached completions."""
from __future__ import annotations

import time

import numpy as np
import streamlit as st


@st.cache_resource(show_spinner="Loading the Energy Transformer...")
def load_et(device: str):
    """The shipped model on `device`, or the sentence that says why it cannot load.
    Shared by every session, read-only (complete() never changes its weights)."""
    from hopfield_core.et import CheckpointError, load_pretrained

    try:
        return load_pretrained(device), None
    except CheckpointError as e:
        return None, str(e)


def devices() -> list[str]:
    from hopfield_core.et.complete import available_devices

    return available_devices()


@st.cache_data(max_entries=64, show_spinner=False)
def complete(device: str, image_key: str, mask_key: str, steps: int, _image: np.ndarray,
             _mask: np.ndarray):
    """(Completion, seconds it took): keyed by small strings, arrays not hashed."""
    model, error = load_et(device)
    if model is None:
        raise RuntimeError(error)
    t0 = time.perf_counter()
    out = model.complete(_image, _mask, steps=steps)
    return out, time.perf_counter() - t0

"""The Energy Transformer page's caches: the model, loaded once per process and per device, the
completions, the eigenvalue spectra and the look inside the model at a step."""
from __future__ import annotations

import time

import numpy as np
import streamlit as st

from ui.serving import memory_gate, memory_plan
from ui.serving.byte_cache import ByteCache


@st.cache_resource(show_spinner="Loading the Energy Transformer...")
def _load(device: str, name: str = "harmonic"):
    """The shipped model `name` (checkpoint.MODELS) on `device`, shared read-only by every
    session (complete() never changes its weights). A load that fails raises, and Streamlit
    caches no exception: the next rerun (the page's Retry button) tries again."""
    from hopfield_core.et import load_pretrained
    from hopfield_core.et.checkpoint import MODELS

    return load_pretrained(device, MODELS[name])


def load_et(device: str, name: str = "harmonic"):
    """(model, None), or (None, the sentence that says why it cannot load)."""
    from hopfield_core.et import CheckpointError

    try:
        return _load(device, name), None
    except CheckpointError as e:
        return None, str(e)


def devices() -> list[str]:
    from hopfield_core.et.complete import available_devices

    return available_devices()


def warm() -> None:
    """The start-up's part for this page (ui.pages.warm_up, run by ui.serving.boot.warm): each
    shipped model loaded (cached for the process, if it loads) and run once, one completion and
    one eigenvalue spectrum, so that no student pays for torch's first use of them (measured
    after the imports: 0.3 s for the first model, 0.06 s for the second; the spectrum alone
    then costs about 30 ms)."""
    from hopfield_core.et.checkpoint import MODELS
    from hopfield_core.et.descent import spectrum as eigenvalues
    from hopfield_core.et.masks import random_mask

    for name in MODELS:
        model, _ = load_et(devices()[0], name)
        if model is None:
            continue
        cfg = model.cfg
        image = np.full((cfg.image_size, cfg.image_size, 3), 0.5)
        out = model.complete(image, random_mask(cfg.grid, 0.5, 0), steps=1)
        eigenvalues(model.model, out.tokens[-1])


# the completions of every session, bounded by bytes (ui/serving/memory_plan.py): 4.6 MB at T = 100
COMPLETIONS = ByteCache("completions", memory_plan.COMPLETIONS_BYTES)


def complete(device: str, name: str, image_key: str, mask_key: str, steps: int,
             _image: np.ndarray, _mask: np.ndarray):
    """(Completion, seconds it took) of model `name`: keyed by small strings, arrays not hashed;
    kept in COMPLETIONS, shared read-only."""
    def make():
        from hopfield_core.et.complete import complete_bytes

        model, error = load_et(device, name)
        if model is None:
            raise RuntimeError(error)
        with memory_gate.reserve(complete_bytes(model.cfg, steps)):  # ui/serving/memory_gate.py
            t0 = time.perf_counter()  # the wait for memory is not the completion's time
            out = model.complete(_image, _mask, steps=steps)
            return out, time.perf_counter() - t0
    return COMPLETIONS.get((device, name, image_key, mask_key, steps), make)


@st.cache_data(max_entries=256, show_spinner=False)
def spectrum(device: str, name: str, run_key: tuple, t: int, _tokens: np.ndarray) -> dict:
    """The eigenvalues of M (model `name`) on the tokens of step t of a run
    (hopfield_core.et.descent), keyed by the run and the step: each frame's costs about 30 ms once."""
    from hopfield_core.et.descent import spectrum as eigenvalues
    from hopfield_core.et.descent import spectrum_bytes

    model, error = load_et(device, name)
    if model is None:
        raise RuntimeError(error)
    with memory_gate.reserve(spectrum_bytes(*np.shape(_tokens))):  # ui/serving/memory_gate.py
        return eigenvalues(model.model, np.array(_tokens))  # writable, as torch needs


@st.cache_data(max_entries=512, show_spinner=False)
def attention(device: str, name: str, run_key: tuple, t: int, q: int, _tokens: np.ndarray) -> np.ndarray:
    """Patch q's attention in every head (H, N) on the tokens of step t of a run, keyed by the
    run, the step and the patch: a class on one link computes each once, not once a student."""
    from hopfield_core.et.inspect import attention as weights
    from hopfield_core.et.inspect import inspect_bytes

    model, error = load_et(device, name)
    if model is None:
        raise RuntimeError(error)
    with memory_gate.reserve(inspect_bytes(model.cfg, 1)):  # ui/serving/memory_gate.py
        return weights(model.model, np.array(_tokens)[None], q)[0]


@st.cache_data(max_entries=128, show_spinner=False)
def memories(device: str, name: str, run_key: tuple, t: int, top: int, _tokens: np.ndarray) -> dict:
    """What the look inside shows of the memories at step t of a run, keyed by the run and the
    step: each memory's use (K,), the `top` most used (order, shares), how many hold half the
    use, their drawings as patches, and the roughness of those drawings beside random
    directions and the image's own tokens drawn the same way (hopfield_core.et.inspect)."""
    from hopfield_core.et import inspect

    model, error = load_et(device, name)
    if model is None:
        raise RuntimeError(error)
    tokens = np.array(_tokens)
    with memory_gate.reserve(inspect.inspect_bytes(model.cfg, 1)):  # ui/serving/memory_gate.py
        use = inspect.memory_use(model.model, tokens[None])[0]
    order, shares = inspect.top_memories(use, top)
    patches = inspect.memory_patches(model.model, order)
    return {"use": use, "order": order, "shares": shares,
            "half": int(np.searchsorted(np.cumsum(np.sort(use)[::-1]), use.sum() / 2) + 1),
            "patches": patches,
            "rough": (inspect.roughness(patches),
                      inspect.roughness(inspect.drawn(model.model, inspect.random_directions(model.model, len(order)))),
                      inspect.roughness(inspect.drawn(model.model, tokens)))}

"""Cached computations of the exponential-family page, keyed by their parameters (small values
only), shared by every session."""
from __future__ import annotations

import numpy as np
import streamlit as st

from hopfield_core import expfamily as ef
from ui.serving import memory_gate


def cloud_bytes(n: int, d: int, layers: int) -> int:
    """Peak bytes of cloud_layers: the layers of n tokens in d dimensions, twice."""
    return 2 * ef.layers_bytes(n, d, layers)


@st.cache_data(max_entries=64, show_spinner=False)
def cloud_layers(name: str, n: int, d: int, seed: int, beta: float, layers: int):
    """The token cloud `name` (n tokens in d dimensions) before the first of `layers` attention
    layers and after each, without and with layer norm: two arrays (layers + 1, n, d)."""
    with memory_gate.reserve(cloud_bytes(n, d, layers)):  # ui/serving/memory_gate.py
        Z = ef.token_cloud(name, n, d, seed)
        return ef.token_layers(Z, layers, beta), ef.token_layers(Z, layers, beta, layer_norm=True)


@st.cache_data(max_entries=64, show_spinner=False)
def descent(seed: int, wseed: int, scale: float, beta: float, layers: int):
    """The tied energy after each layer ((layers + 1,) twice): of the layers with tied weights,
    and of the layers with independent weights (random, `scale` from I)."""
    K = ef.token_cloud("two clusters", 8, 3, seed)
    Z = ef.token_cloud("blob", 16, 3, seed + 1)
    tied = ef.attention_layers(K, Z, beta, layers)
    untied = ef.attention_layers(K, Z, beta, layers, ef.random_weights(3, wseed, scale))
    return (np.array([ef.tied_energy(K, Y, beta).sum() for Y in tied]),
            np.array([ef.tied_energy(K, Y, beta).sum() for Y in untied]))

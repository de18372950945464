"""The models of "Inside a trained Transformer", loaded once per process (st.cache_resource,
shared read-only by every session), and each input's analysis kept in a ByteCache.

# L layers, H heads, N tokens, d = d_head; per layer Q, K (H, N, d)
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np
import streamlit as st

from hopfield_core.heads import analysis, fixed_point, heldout
from hopfield_core.heads.analysis import KindsTable
from ui.serving import memory_gate
from ui.serving.byte_cache import ByteCache
from ui.serving.memory_plan import (
    HEADS_BYTES,  # each input: Q, K of every layer and its k90s, 2.3 MB at 128 tokens
)


@st.cache_resource(max_entries=1, show_spinner="Loading the MiniLM...")  # 86 MB of weights
def _minilm():
    from hopfield_core.heads import minilm

    return minilm.load()


@st.cache_resource(max_entries=1, show_spinner="Loading the digits ViT...")  # 0.6 MB
def _vit():
    from hopfield_core.heads import vit_checkpoint

    model = vit_checkpoint.load()
    images, labels, _ = vit_checkpoint.load_heldout()
    return model, images, labels


def load_minilm():
    """(the MiniLM, None), or (None, the sentence that says why it cannot be used). A failed load
    is not cached: the next run tries again."""
    from hopfield_core.heads.minilm import MiniLMUnavailable

    try:
        return _minilm(), None
    except MiniLMUnavailable as e:
        return None, str(e)


def load_vit():
    """((model, images (M, 8, 8), labels (M,)), None) or (None, why it cannot be used)."""
    from hopfield_core.checkpoints import CheckpointError

    try:
        return _vit(), None
    except (CheckpointError, OSError, ValueError) as e:
        return None, f"The digits ViT could not be loaded: {e}"


@dataclass(frozen=True)
class Input:
    """One input through one model, its heads analysed."""

    model: str                  # "minilm" or "vit"
    tokens: tuple               # (N,) what each token is, as plain text
    layers: tuple               # L pairs (Q, K), each (H, N, d) float32
    heads: tuple                # L LayerHeads (hopfield_core.heads.analysis)
    key: str                    # what identifies the input: model and text hash, or digit
    note: str = ""              # a truncation's sentence, else ""

    @property
    def N(self) -> int:
        return len(self.tokens)

    @property
    def L(self) -> int:
        return len(self.layers)

    @property
    def H(self) -> int:
        return self.layers[0][0].shape[0]

    @property
    def d(self) -> int:
        return self.layers[0][0].shape[2]


INPUTS = ByteCache("transformer heads", HEADS_BYTES)


def _analysed(key: str, model: str, tokens, layers, note: str = "") -> Input:
    L, (H, N, d) = len(layers), layers[0][0].shape
    with memory_gate.reserve(analysis.analyse_model_bytes(L, H, N, d)):  # ui/serving/memory_gate.py
        heads = analysis.analyse_model(layers)
    return Input(model, tuple(tokens), tuple(layers), tuple(heads), key, note)


def text_input(text: str) -> Input:
    """A sentence through the MiniLM (which must have loaded): kept by the text's hash."""
    key = "minilm " + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]

    def make():
        reading = _minilm().read(text)
        return _analysed(key, "minilm", reading.encoded.tokens, reading.layer_heads(),
                         reading.encoded.message)
    return INPUTS.get(key, make)


def patch_names(n: int = 4) -> list[str]:
    """The ViT's tokens: CLS, then its 2 x 2 patches row by row, named by row and column."""
    return ["CLS"] + [f"patch r{r + 1} c{c + 1}" for r in range(n) for c in range(n)]


def digit_input(index: int) -> Input:
    """A held-out digit through the ViT (which must have loaded)."""
    def make():
        from hopfield_core.heads import vit

        model, images, _ = _vit()
        return _analysed(key, "vit", patch_names(), vit.layer_heads(model, images[index]))
    key = f"vit {int(index)}"
    return INPUTS.get(key, make)


def settle(inp: Input, layer: int, head: int, token: int):
    """The chosen head's iteration from the chosen token's query, every state kept
    (fixed_point.settle): a Trajectory with extras["weights"] (T+1, N)."""
    Q, K = inp.layers[layer]
    beta = analysis.default_beta(inp.d)
    return fixed_point.settle(Q[head, token], K[head], beta)


@st.cache_data(max_entries=64, show_spinner=False)  # two (N,) int arrays: 2 KB at 128 tokens
def landing(input_key: str, layer: int, head: int, _inp: Input) -> tuple[np.ndarray, np.ndarray]:
    """Where each of a head's queries puts its most weight after one step and at the fixed
    point (analysis.top_keys), keyed by the input, the layer and the head: every query's
    iteration runs once, not on every rerun of the head view."""
    Q, K = _inp.layers[layer]
    return analysis.top_keys(Q[head], K[head], analysis.default_beta(_inp.d))


@st.cache_resource(max_entries=2, show_spinner="Analysing the held-out set...")  # 2 KB each
def heldout_table(model: str) -> tuple[KindsTable, float, int, int]:
    """(kinds table, share of pairs that change kind, inputs, tokens each) of the shipped
    held-out set of `model`, computed once per process."""
    if model == "minilm":
        m = _minilm()
        windows = heldout.text_windows(m.tokenizer)
        per_input = heldout.minilm_layers(m, windows)
        n = len(windows[0])
    else:
        vit_model, images, _ = _vit()
        per_input = heldout.vit_layers(vit_model, images)
        n = per_input[0][0].N
    table, changed = heldout.table(per_input)
    return table, changed, len(per_input), n


def shapes() -> tuple:
    """(L, H, d) of the MiniLM and (L, H, d, N) of the ViT, None for one that does not load."""
    mini, _ = load_minilm()
    vit_loaded, _ = load_vit()
    a = (mini.cfg.num_hidden_layers, mini.cfg.num_attention_heads, mini.cfg.d_head) if mini else None
    if vit_loaded is None:
        return a, None
    cfg = vit_loaded[0].cfg
    return a, (cfg.layers, cfg.heads, cfg.d_head, cfg.tokens)


def tables() -> dict:
    """model -> heldout_table(model), for each model that loads."""
    mini, vit_loaded = load_minilm()[0], load_vit()[0]
    return {m: heldout_table(m) for m, ok in (("minilm", mini), ("vit", vit_loaded)) if ok}

"""The shipped held-out inputs of both models, and their kinds table.

# W windows of WINDOW tokens ([CLS] + WINDOW - 2 word pieces + [SEP]); M held-out digits

MiniLM: assets/heads/heldout_text.txt (sentences written for this project, so none is in the
model's training data) cut into consecutive windows of WINDOW tokens, the last partial window
dropped, so that every window has one length N and a head's median k90 is taken over all of
them (analysis.pooled). ViT: its held-out digits (assets/vit_digits/heldout.safetensors), N = 17.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from . import analysis, vit
from .analysis import KindsTable, LayerHeads

REPO = Path(__file__).resolve().parents[2]
TEXT = REPO / "assets" / "heads" / "heldout_text.txt"
WINDOW = 64


def text_windows(tokenizer, text: str | None = None, size: int = WINDOW) -> list[list[int]]:
    """Consecutive windows of `size` token ids, each [CLS] ... [SEP]."""
    text = TEXT.read_text(encoding="utf-8") if text is None else text
    ids = tokenizer.pieces(text)
    step = size - 2
    return [[tokenizer.cls_id] + ids[i:i + step] + [tokenizer.sep_id]
            for i in range(0, len(ids) - step + 1, step)]


def minilm_layers(model, windows: list[list[int]]) -> list[list[LayerHeads]]:
    """Every window's layers analysed (one batch through the forward)."""
    out = model.bert.forward(torch.tensor(windows))
    return [analysis.analyse_model([(q[w].numpy(), k[w].numpy())
                                    for q, k in zip(out.queries, out.keys)])
            for w in range(len(windows))]


def vit_layers(model: vit.DigitsViT, images: np.ndarray) -> list[list[LayerHeads]]:
    """Every image's layers analysed: one batch through the forward, and each layer's heads of
    every image as one batch of (B H) heads, split back per image (twice as fast as a call per
    image on the 360 digits; the same numbers, tested)."""
    with torch.no_grad():
        _, views = model(torch.as_tensor(np.asarray(images), dtype=torch.float32), inspect=True)
    B = len(images)
    per_layer = []
    for v in views:
        q, k = v.q.numpy(), v.k.numpy()  # (B, H, N, d)
        stacked = analysis.analyse_layer(q.reshape(-1, *q.shape[2:]), k.reshape(-1, *k.shape[2:]))
        per_layer.append(analysis.split_inputs(stacked, B))
    return [list(layers) for layers in zip(*per_layer)]


def table(per_input: list[list[LayerHeads]]) -> tuple[KindsTable, float]:
    """The kinds table of a set of inputs of one length, pooled, and the share of all (token,
    head) pairs whose kind changed."""
    pooled = analysis.pooled(per_input)
    return analysis.kinds_table(pooled), analysis.changed_share(pooled)

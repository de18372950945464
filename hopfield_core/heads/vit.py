"""A small Vision Transformer for scikit-learn's 8 x 8 digits, whose every head can be read.

# B images, P = 16 patches of 2 x 2 pixels (+ 1 CLS token: N = 17 tokens), D model width,
# H heads, d = D / H per head, L layers

Pre-LayerNorm blocks: h <- h + Attn(LN(h)), h <- h + MLP(LN(h)); the class from LN(h_CLS).
Attention of head j: softmax(beta q k^T), q = LN(h) W_Q^j + b_Q^j, k = LN(h) W_K^j + b_K^j,
beta = 1/sqrt(d): `forward(..., inspect=True)` returns every layer's q, k (B, H, N, d) and the
attention (B, H, N, N), the inputs of hopfield_core.heads.analysis.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields

import numpy as np
import torch
from torch import nn

PIXEL_MAX = 16.0  # the digits' grey levels run 0..16
POS_STD = 0.02    # the position embeddings are drawn from N(0, POS_STD^2)


@dataclass(frozen=True)
class ViTConfig:
    image: int = 8
    patch: int = 2
    dim: int = 64
    heads: int = 4
    layers: int = 4
    mlp: int = 128
    classes: int = 10

    @property
    def n_patches(self) -> int:
        return (self.image // self.patch) ** 2

    @property
    def tokens(self) -> int:
        return self.n_patches + 1

    @property
    def d_head(self) -> int:
        return self.dim // self.heads

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "ViTConfig":
        names = {f.name for f in fields(cls)}
        unknown = set(d) - names
        if unknown:
            raise ValueError(f"unknown ViT config fields {sorted(unknown)}")
        cfg = cls(**{k: int(v) for k, v in d.items()})
        if cfg.image % cfg.patch or cfg.dim % cfg.heads or min(asdict(cfg).values()) < 1:
            raise ValueError(f"inconsistent ViT config {asdict(cfg)}")
        return cfg


@dataclass(frozen=True)
class LayerView:
    """One layer's heads on a batch."""

    q: torch.Tensor          # (B, H, N, d)
    k: torch.Tensor          # (B, H, N, d)
    attention: torch.Tensor  # (B, H, N, N)


class Block(nn.Module):
    def __init__(self, cfg: ViTConfig):
        super().__init__()
        self.cfg = cfg
        self.ln1 = nn.LayerNorm(cfg.dim)
        self.qkv = nn.Linear(cfg.dim, 3 * cfg.dim)
        self.proj = nn.Linear(cfg.dim, cfg.dim)
        self.ln2 = nn.LayerNorm(cfg.dim)
        self.fc1 = nn.Linear(cfg.dim, cfg.mlp)
        self.fc2 = nn.Linear(cfg.mlp, cfg.dim)

    def forward(self, h: torch.Tensor) -> tuple[torch.Tensor, LayerView]:
        B, N, D = h.shape
        H, d = self.cfg.heads, self.cfg.d_head
        q, k, v = self.qkv(self.ln1(h)).view(B, N, 3, H, d).permute(2, 0, 3, 1, 4)  # (B, H, N, d)
        att = torch.softmax((q @ k.transpose(-1, -2)) / math.sqrt(d), dim=-1)         # (B, H, N, N)
        h = h + self.proj((att @ v).transpose(1, 2).reshape(B, N, D))
        h = h + self.fc2(nn.functional.gelu(self.fc1(self.ln2(h))))
        return h, LayerView(q=q, k=k, attention=att)


class DigitsViT(nn.Module):
    def __init__(self, cfg: ViTConfig = ViTConfig()):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Linear(cfg.patch ** 2, cfg.dim)
        self.cls = nn.Parameter(torch.zeros(1, 1, cfg.dim))
        self.pos = nn.Parameter(torch.randn(1, cfg.tokens, cfg.dim) * POS_STD)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.layers))
        self.norm = nn.LayerNorm(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.classes)

    def patches(self, images: torch.Tensor) -> torch.Tensor:
        """(B, 8, 8) grey levels 0..16 -> (B, P, 4) patches scaled to 0..1, row by row."""
        p, n = self.cfg.patch, self.cfg.image // self.cfg.patch
        x = images.reshape(-1, n, p, n, p).permute(0, 1, 3, 2, 4)
        return x.reshape(-1, n * n, p * p) / PIXEL_MAX

    def forward(self, images: torch.Tensor, inspect: bool = False):
        """Logits (B, classes); with inspect=True also a list of L LayerViews."""
        x = self.embed(self.patches(images.float()))
        h = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        views = []
        for block in self.blocks:
            h, view = block(h)
            views.append(view)
        logits = self.head(self.norm(h[:, 0]))
        return (logits, views) if inspect else logits


def n_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())


@torch.no_grad()
def predict(model: DigitsViT, images, batch: int = 512) -> np.ndarray:
    """Predicted classes (B,) of images (B, 8, 8)."""
    x = torch.as_tensor(np.asarray(images), dtype=torch.float32)
    return np.concatenate([model(x[i:i + batch]).argmax(-1).numpy()
                           for i in range(0, len(x), batch)]) if len(x) else np.zeros(0, int)


@torch.no_grad()
def layer_heads(model: DigitsViT, image) -> list[tuple[np.ndarray, np.ndarray]]:
    """Every layer's (Q, K), each (H, N, d) float32, for one image (8, 8): analysis's input."""
    x = torch.as_tensor(np.asarray(image), dtype=torch.float32).reshape(1, 8, 8)
    _, views = model(x, inspect=True)
    return [(v.q[0].numpy(), v.k[0].numpy()) for v in views]

"""A small BERT encoder forward over safetensors weights, every head's queries and keys returned.

# B texts, N tokens, D hidden width, H heads, d = D / H per head, L layers, V vocabulary

BERT (Devlin et al. 2019) as in transformers' BertModel, post-LayerNorm:
    h0 = LN(word[ids] + position[0..N-1] + token_type[0])
    per layer: a = LN(h + Attn(h)), h = LN(a + W2 gelu(W1 a)),
    Attn: head j's softmax(beta q k^T) v, q = h W_Q^j + b_Q^j, k = h W_K^j + b_K^j, beta = 1/sqrt(d)
The weights' names are BertModel's (embeddings.*, encoder.layer.i.*); the pooler is not used.
tests/core/test_heads_bert.py checks this forward against transformers' BertModel.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class BertConfig:
    vocab_size: int
    hidden_size: int
    num_hidden_layers: int
    num_attention_heads: int
    intermediate_size: int
    max_position_embeddings: int
    type_vocab_size: int
    layer_norm_eps: float

    @classmethod
    def from_dict(cls, d: dict) -> "BertConfig":
        if d.get("hidden_act", "gelu") != "gelu" or d.get("position_embedding_type",
                                                           "absolute") != "absolute":
            raise ValueError("only BERT with gelu and absolute positions is supported")
        cfg = cls(**{f: d[f] for f in cls.__dataclass_fields__})
        if cfg.hidden_size % cfg.num_attention_heads:
            raise ValueError("hidden_size must be a multiple of num_attention_heads")
        return cfg

    @property
    def d_head(self) -> int:
        return self.hidden_size // self.num_attention_heads

    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Every weight this forward reads, with its shape."""
        D, I = self.hidden_size, self.intermediate_size
        out = {"embeddings.word_embeddings.weight": (self.vocab_size, D),
               "embeddings.position_embeddings.weight": (self.max_position_embeddings, D),
               "embeddings.token_type_embeddings.weight": (self.type_vocab_size, D),
               "embeddings.LayerNorm.weight": (D,), "embeddings.LayerNorm.bias": (D,)}
        for i in range(self.num_hidden_layers):
            p = f"encoder.layer.{i}."
            for name in ("attention.self.query", "attention.self.key", "attention.self.value",
                         "attention.output.dense"):
                out[p + name + ".weight"], out[p + name + ".bias"] = (D, D), (D,)
            out[p + "intermediate.dense.weight"], out[p + "intermediate.dense.bias"] = (I, D), (I,)
            out[p + "output.dense.weight"], out[p + "output.dense.bias"] = (D, I), (D,)
            for ln in ("attention.output.LayerNorm", "output.LayerNorm"):
                out[p + ln + ".weight"], out[p + ln + ".bias"] = (D,), (D,)
        return out


@dataclass(frozen=True)
class BertOutput:
    hidden_states: list[torch.Tensor]  # L + 1 tensors (B, N, D): the embeddings, then each layer
    attentions: list[torch.Tensor]     # L (B, H, N, N)
    queries: list[torch.Tensor]        # L (B, H, N, d)
    keys: list[torch.Tensor]           # L (B, H, N, d)

    @property
    def last(self) -> torch.Tensor:
        return self.hidden_states[-1]


class Bert:
    """The forward over a dict of weights (float32 tensors, BertModel's names)."""

    def __init__(self, cfg: BertConfig, weights: dict[str, torch.Tensor]):
        want = cfg.shapes()
        bad = sorted(k for k, s in want.items() if k not in weights or tuple(weights[k].shape) != s)
        if bad:
            raise ValueError(f"the weights do not fit the config: {bad[:5]} missing or misshapen")
        self.cfg = cfg
        self.w = {k: weights[k].float() for k in want}

    def _ln(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return torch.nn.functional.layer_norm(x, (self.cfg.hidden_size,), self.w[name + ".weight"],
                                              self.w[name + ".bias"], self.cfg.layer_norm_eps)

    def _lin(self, x: torch.Tensor, name: str) -> torch.Tensor:
        return torch.nn.functional.linear(x, self.w[name + ".weight"], self.w[name + ".bias"])

    @torch.no_grad()
    def forward(self, ids: torch.Tensor, mask: torch.Tensor | None = None) -> BertOutput:
        """ids (B, N) or (N,) token ids; mask (B, N) 1 for real tokens, 0 for padding."""
        ids = torch.as_tensor(ids, dtype=torch.long)
        if ids.ndim == 1:
            ids = ids[None]
        B, N = ids.shape
        c = self.cfg
        if N > c.max_position_embeddings:
            raise ValueError(f"at most {c.max_position_embeddings} tokens, got {N}")
        if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= c.vocab_size):
            raise ValueError("a token id lies outside the vocabulary")
        H, d = c.num_attention_heads, c.d_head
        w = self.w
        h = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:N]
             + w["embeddings.token_type_embeddings.weight"][0])
        h = self._ln(h, "embeddings.LayerNorm")
        bias = None
        if mask is not None:
            bias = (1.0 - torch.as_tensor(mask, dtype=h.dtype).reshape(B, 1, 1, N)) \
                * torch.finfo(h.dtype).min
        out = BertOutput([h], [], [], [])
        for i in range(c.num_hidden_layers):
            p = f"encoder.layer.{i}."
            split = lambda x: x.view(B, N, H, d).transpose(1, 2)  # noqa: E731  (B, H, N, d)
            q = split(self._lin(h, p + "attention.self.query"))
            k = split(self._lin(h, p + "attention.self.key"))
            v = split(self._lin(h, p + "attention.self.value"))
            scores = (q @ k.transpose(-1, -2)) / math.sqrt(d)  # (B, H, N, N)
            if bias is not None:
                scores = scores + bias
            att = torch.softmax(scores, dim=-1)
            ctx = (att @ v).transpose(1, 2).reshape(B, N, c.hidden_size)
            a = self._ln(h + self._lin(ctx, p + "attention.output.dense"),
                         p + "attention.output.LayerNorm")
            m = torch.nn.functional.gelu(self._lin(a, p + "intermediate.dense"))
            h = self._ln(a + self._lin(m, p + "output.dense"), p + "output.LayerNorm")
            out.hidden_states.append(h)
            out.attentions.append(att)
            out.queries.append(q)
            out.keys.append(k)
        return out


def mean_pooled(hidden: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
    """Sentence embeddings (B, D): the mean over real tokens, scaled to length 1."""
    if mask is None:
        mask = torch.ones(hidden.shape[:2])
    m = torch.as_tensor(mask, dtype=hidden.dtype)[..., None]  # (B, N, 1)
    mean = (hidden * m).sum(1) / m.sum(1).clamp(min=1e-9)
    return torch.nn.functional.normalize(mean, dim=-1)

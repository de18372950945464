"""The Energy Transformer's configuration: one dataclass, saved beside the weights."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields


STARTS = ("mask_token", "harmonic")
READOUTS = ("tokens", "change")


@dataclass(frozen=True)
class ETConfig:
    image_size: int = 32      # H = W, pixels
    patch_size: int = 4       # p: the mask grid is (H // p, W // p)
    channels: int = 3
    dim: int = 128            # D, token features
    heads: int = 4            # H, attention heads
    head_dim: int = 32        # Y, key/query size per head
    memories: int = 512       # K, Hopfield memories
    steps: int = 8            # T, energy-descent steps
    alpha: float = 0.1        # step size of x <- x - alpha dE/dg
    eps: float = 1e-5         # energy layer norm epsilon
    attend_to_self: bool = False  # False: sum over keys B != C, as in the paper
    project: bool = False     # step along the part of dE/dg that moves g (see EnergyTransformer.step)
    clamp_visible: bool = False # only the hidden patches' tokens move; the visible ones stay as encoded
    energy_positions: bool = False  # keys and queries see g + p, p a learned table per position
    start: str = "mask_token"  # hidden patches start as the mask token, or "harmonic": their
                               # harmonic fill from the visible pixels, encoded, plus the mask token
    readout: str = "tokens"    # the picture is the decoded tokens, or "change": the start's
                               # harmonic fill plus the decoded change of the tokens since step 0

    def __post_init__(self):
        if self.start not in STARTS:
            raise ValueError(f"start must be one of {STARTS}, got {self.start!r}")
        if self.readout not in READOUTS:
            raise ValueError(f"readout must be one of {READOUTS}, got {self.readout!r}")
        if self.readout == "change" and self.start != "harmonic":
            raise ValueError('readout "change" adds to the harmonic fill: it needs start "harmonic"')

    @property
    def grid(self) -> int:
        return self.image_size // self.patch_size

    @property
    def n_patches(self) -> int:
        return self.grid ** 2

    @property
    def patch_dim(self) -> int:
        return self.patch_size ** 2 * self.channels

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True)

    @classmethod
    def from_dict(cls, d: dict) -> "ETConfig":
        known = {f.name for f in fields(cls)}
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown config fields {sorted(unknown)}")
        return cls(**d)

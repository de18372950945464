"""The digits ViT on disk, through the core's one checkpoint loader (hopfield_core.checkpoints:
safetensors only, the sha256 and every shape checked, nothing unpickled).

# M held-out digits, 8 x 8 grey levels 0..16

assets/vit_digits/ holds model.safetensors, config.json (the ViTConfig, the weights' sha256,
the held-out evaluation and how it was trained), heldout.safetensors (the held-out digits and
labels, so that no page needs scikit-learn) and MODEL_CARD.md.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

from .. import checkpoints
from ..checkpoints import CheckpointError
from .vit import DigitsViT, ViTConfig

REPO = Path(__file__).resolve().parents[2]
ASSET_DIR = REPO / "assets" / "vit_digits"
WEIGHTS, CONFIG, CARD, HELDOUT = "model.safetensors", "config.json", "MODEL_CARD.md", \
    "heldout.safetensors"
RETRAIN = "python -m hopfield_core.heads.train_vit"

__all__ = ["CheckpointError", "save", "load", "load_heldout", "shipped_meta", "ASSET_DIR"]


def save(model: DigitsViT, directory: Path, heldout: tuple[np.ndarray, np.ndarray, np.ndarray],
         extra: dict) -> str:
    """Write the weights, the held-out digits (images, labels, indices) and config.json;
    returns the weights' sha256."""
    directory = Path(directory)
    digest = checkpoints.write(model.state_dict(), directory / WEIGHTS)
    images, labels, indices = heldout
    heldout_digest = checkpoints.write(
        {"images": torch.as_tensor(np.asarray(images, dtype=np.uint8)),
         "labels": torch.as_tensor(np.asarray(labels, dtype=np.uint8)),
         "indices": torch.as_tensor(np.asarray(indices, dtype=np.int64))}, directory / HELDOUT)
    meta = {"config": model.cfg.to_dict(), "sha256": digest, "heldout_sha256": heldout_digest,
            **extra}
    (directory / CONFIG).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return digest


def shipped_meta(directory: Path = ASSET_DIR) -> dict:
    """config.json as a dict ({} when missing or damaged; `load` then says why)."""
    try:
        meta = json.loads((Path(directory) / CONFIG).read_text())
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _read(path: Path, expected, what: str) -> dict:
    return checkpoints.read(path, expected, f"the {what}", f" Retrain with `{RETRAIN}`.")


def _meta(directory: Path) -> dict:
    directory = Path(directory)
    if not (directory / CONFIG).is_file() or not (directory / WEIGHTS).is_file():
        raise CheckpointError(f"The digits ViT is missing from {checkpoints.shown(directory)} (need "
                              f"{WEIGHTS} and {CONFIG}). Retrain it with `{RETRAIN}`.")
    meta = shipped_meta(directory)
    if not all(k in meta for k in ("config", "sha256")):
        raise CheckpointError(f"{CONFIG} in {checkpoints.shown(directory)} is damaged or not a ViT config.")
    return meta


def load(directory: Path = ASSET_DIR) -> DigitsViT:
    """The verified ViT on the CPU, in eval mode; raises CheckpointError with a clear message."""
    directory = Path(directory)
    meta = _meta(directory)
    try:
        cfg = ViTConfig.from_dict(meta["config"])
    except (ValueError, TypeError, AttributeError) as e:
        raise CheckpointError(f"{CONFIG} holds no usable ViT config ({e}).") from e
    state = _read(directory / WEIGHTS, meta["sha256"], "weights")
    return checkpoints.fit(DigitsViT(cfg), state, WEIGHTS)


def load_heldout(directory: Path = ASSET_DIR) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The verified held-out digits: images (M, 8, 8) uint8, labels (M,), their indices in
    scikit-learn's load_digits()."""
    directory = Path(directory)
    meta = _meta(directory)
    path = directory / HELDOUT
    if not path.is_file() or "heldout_sha256" not in meta:
        raise CheckpointError(f"The held-out digits are missing from {checkpoints.shown(directory)}. "
                              f"Retrain with `{RETRAIN}`.")
    t = _read(path, meta["heldout_sha256"], "held-out digits")
    if set(t) != {"images", "labels", "indices"} or t["images"].ndim != 3 \
            or tuple(t["images"].shape[1:]) != (8, 8) or len({len(v) for v in t.values()}) != 1:
        raise CheckpointError(f"{HELDOUT} does not hold (M, 8, 8) images with M labels.")
    return t["images"].numpy(), t["labels"].numpy(), t["indices"].numpy()

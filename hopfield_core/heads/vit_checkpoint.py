"""The digits ViT on disk: safetensors only, the sha256 and every shape checked, nothing unpickled.

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

from ..et.checkpoint import CheckpointError, sha256_file, verify_weights
from .vit import DigitsViT, ViTConfig

REPO = Path(__file__).resolve().parents[2]
ASSET_DIR = REPO / "assets" / "vit_digits"
WEIGHTS, CONFIG, CARD, HELDOUT = "model.safetensors", "config.json", "MODEL_CARD.md", \
    "heldout.safetensors"
RETRAIN = "python -m hopfield_core.heads.train_vit"

__all__ = ["CheckpointError", "save", "load", "load_heldout", "shipped_meta", "ASSET_DIR"]


def _shown(directory: Path) -> str:
    try:
        return str(Path(directory).resolve().relative_to(REPO))
    except ValueError:
        return Path(directory).name


def save(model: DigitsViT, directory: Path, heldout: tuple[np.ndarray, np.ndarray, np.ndarray],
         extra: dict) -> str:
    """Write the weights, the held-out digits (images, labels, indices) and config.json;
    returns the weights' sha256."""
    from safetensors.torch import save_file

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().cpu().contiguous() for k, v in model.state_dict().items()}
    save_file(state, str(directory / WEIGHTS), metadata={"format": "pt"})
    images, labels, indices = heldout
    save_file({"images": torch.as_tensor(np.asarray(images, dtype=np.uint8)),
               "labels": torch.as_tensor(np.asarray(labels, dtype=np.uint8)),
               "indices": torch.as_tensor(np.asarray(indices, dtype=np.int64))},
              str(directory / HELDOUT), metadata={"format": "pt"})
    digest = sha256_file(directory / WEIGHTS)
    meta = {"config": model.cfg.to_dict(), "sha256": digest,
            "heldout_sha256": sha256_file(directory / HELDOUT), **extra}
    (directory / CONFIG).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return digest


def shipped_meta(directory: Path = ASSET_DIR) -> dict:
    """config.json as a dict ({} when missing or damaged; `load` then says why)."""
    try:
        meta = json.loads((Path(directory) / CONFIG).read_text())
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _verified(path: Path, expected, what: str) -> None:
    verify_weights(path, expected, f"the {what}", f" Retrain with `{RETRAIN}`.")


def _read(path: Path) -> dict:
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    try:
        return load_file(str(path), device="cpu")
    except (SafetensorError, OSError, ValueError) as e:
        raise CheckpointError(f"{path.name} could not be read as safetensors "
                              f"({type(e).__name__}).") from e


def _meta(directory: Path) -> dict:
    directory = Path(directory)
    if not (directory / CONFIG).is_file() or not (directory / WEIGHTS).is_file():
        raise CheckpointError(f"The digits ViT is missing from {_shown(directory)} (need "
                              f"{WEIGHTS} and {CONFIG}). Retrain it with `{RETRAIN}`.")
    meta = shipped_meta(directory)
    if not all(k in meta for k in ("config", "sha256")):
        raise CheckpointError(f"{CONFIG} in {_shown(directory)} is damaged or not a ViT config.")
    return meta


def load(directory: Path = ASSET_DIR) -> DigitsViT:
    """The verified ViT on the CPU, in eval mode; raises CheckpointError with a clear message."""
    directory = Path(directory)
    meta = _meta(directory)
    try:
        cfg = ViTConfig.from_dict(meta["config"])
    except (ValueError, TypeError, AttributeError) as e:
        raise CheckpointError(f"{CONFIG} holds no usable ViT config ({e}).") from e
    _verified(directory / WEIGHTS, meta["sha256"], "weights")
    state = _read(directory / WEIGHTS)
    model = DigitsViT(cfg)
    want = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    got = {k: tuple(v.shape) for k, v in state.items()}
    if want != got:
        missing = sorted(set(want) - set(got))
        wrong = sorted(k for k in set(want) & set(got) if want[k] != got[k])
        raise CheckpointError(f"{WEIGHTS} does not fit the config: missing {missing}, wrong "
                              f"shape {[(k, got[k], want[k]) for k in wrong]}, unexpected "
                              f"{sorted(set(got) - set(want))}.")
    model.load_state_dict(state)
    return model.eval().requires_grad_(False)


def load_heldout(directory: Path = ASSET_DIR) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The verified held-out digits: images (M, 8, 8) uint8, labels (M,), their indices in
    scikit-learn's load_digits()."""
    directory = Path(directory)
    meta = _meta(directory)
    path = directory / HELDOUT
    if not path.is_file() or "heldout_sha256" not in meta:
        raise CheckpointError(f"The held-out digits are missing from {_shown(directory)}. "
                              f"Retrain with `{RETRAIN}`.")
    _verified(path, meta["heldout_sha256"], "held-out digits")
    t = _read(path)
    if set(t) != {"images", "labels", "indices"} or t["images"].ndim != 3 \
            or tuple(t["images"].shape[1:]) != (8, 8) or len({len(v) for v in t.values()}) != 1:
        raise CheckpointError(f"{HELDOUT} does not hold (M, 8, 8) images with M labels.")
    return t["images"].numpy(), t["labels"].numpy(), t["indices"].numpy()

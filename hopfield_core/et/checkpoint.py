"""Saving and loading the ET: safetensors only, the sha256 and every shape checked.

assets/et/ holds model.safetensors, config.json (the ETConfig plus the weights' sha256)
and MODEL_CARD.md. Nothing is ever unpickled.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path

import torch

from .config import ETConfig
from ..safefiles import looks_like_pickle
from .model import EnergyTransformer

REPO = Path(__file__).resolve().parents[2]
ASSET_DIR = REPO / "assets" / "et"
# the shipped models: the default starts from the harmonic fill; "paper" starts from the mask
# token alone, as in the paper, and draws the whole hole (each folder has its own card)
MODELS = {"harmonic": ASSET_DIR, "paper": ASSET_DIR / "paper"}
WEIGHTS, CONFIG, CARD = "model.safetensors", "config.json", "MODEL_CARD.md"


class CheckpointError(ValueError):
    """A checkpoint that is missing, damaged or not ours, with a sentence that says which."""


def _shown(directory: Path) -> str:
    """A folder as messages name it: relative to the project, never the server's full path."""
    try:
        return str(Path(directory).resolve().relative_to(REPO))
    except ValueError:
        return Path(directory).name


def _reason(e: Exception) -> str:
    """An exception's gist without file paths (OSError's str() names the full path)."""
    if isinstance(e, OSError):
        return e.strerror or type(e).__name__
    return str(e).replace(str(REPO), ".")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def save(model: EnergyTransformer, directory: Path = ASSET_DIR, extra: dict | None = None) -> str:
    """Write the weights and the config; returns the weights' sha256."""
    from safetensors.torch import save_file

    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().cpu().contiguous() for k, v in model.state_dict().items()}
    save_file(state, str(directory / WEIGHTS), metadata={"format": "pt"})
    digest = sha256_file(directory / WEIGHTS)
    config = {"config": asdict(model.cfg), "sha256": digest, **(extra or {})}
    (directory / CONFIG).write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
    return digest


def shipped_config(directory: Path = ASSET_DIR) -> ETConfig:
    """The configuration a checkpoint was trained with, from its config.json alone (no weights
    read); ETConfig() when that file is missing or damaged (`load` then says why)."""
    try:
        return ETConfig.from_dict(json.loads((Path(directory) / CONFIG).read_text())["config"])
    except (OSError, ValueError, KeyError, TypeError):
        return ETConfig()


def verify_weights(path: Path, expected, what: str = "the", advice: str = "") -> None:
    """Refuse a weights file that is shaped as a pickle or whose sha256 is not `expected`
    (CheckpointError, naming the file; `what` names its kind, `advice` what to do), before
    anything reads it. Shared by every checkpoint of the core (the ET's, the digits ViT's)."""
    path = Path(path)
    if looks_like_pickle(path):  # a safetensors header's length may start with 0x80 too
        raise CheckpointError(f"{path.name} looks like a pickle (torch.save) file. Only "
                              "safetensors files are accepted: pickles can run code.")
    actual = sha256_file(path)
    if actual != expected:
        raise CheckpointError(f"{path.name} does not match its recorded sha256 (expected "
                              f"{str(expected)[:12]}..., found {actual[:12]}...): {what} file "
                              f"is truncated, damaged or replaced.{advice}")


def shipped_eval(directory: Path = ASSET_DIR) -> dict:
    """The held-out evaluation a checkpoint's card reports (config.json's "eval": masked-patch
    MSE of the ET, its start and the baselines; tests/core/test_et_shipped.py re-measures it),
    or {} when the file is missing or damaged."""
    try:
        found = json.loads((Path(directory) / CONFIG).read_text())["eval"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return found if isinstance(found, dict) else {}


def load(directory: Path = ASSET_DIR, device: str | torch.device = "cpu") -> EnergyTransformer:
    """Load and verify a checkpoint; raises CheckpointError with a clear message."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    directory = Path(directory)
    cfg_path, w_path = directory / CONFIG, directory / WEIGHTS
    if not cfg_path.is_file() or not w_path.is_file():
        raise CheckpointError(f"The Energy Transformer's weights are missing from {_shown(directory)} "
                              f"(need {WEIGHTS} and {CONFIG}). Retrain with "
                              "`python -m hopfield_core.et.train`.")
    try:
        meta = json.loads(cfg_path.read_text())
        cfg = ETConfig.from_dict(meta["config"])
        expected = meta["sha256"]
    except (ValueError, KeyError, TypeError) as e:
        raise CheckpointError(f"{CONFIG} is damaged or not an ET config ({_reason(e)}).") from e
    verify_weights(w_path, expected)
    try:
        state = load_file(str(w_path), device="cpu")
    except (SafetensorError, OSError, ValueError) as e:
        raise CheckpointError(f"{WEIGHTS} could not be read as safetensors ({_reason(e)}).") from e
    model = EnergyTransformer(cfg)
    want = {k: tuple(v.shape) for k, v in model.state_dict().items()}
    got = {k: tuple(v.shape) for k, v in state.items()}
    if want != got:
        missing = sorted(set(want) - set(got))
        wrong = sorted(k for k in set(want) & set(got) if want[k] != got[k])
        extra = sorted(set(got) - set(want))
        raise CheckpointError(f"{WEIGHTS} does not fit the config: missing {missing}, "
                              f"wrong shape {[(k, got[k], want[k]) for k in wrong]}, "
                              f"unexpected {extra}.")
    model.load_state_dict(state)
    return model.to(device).eval().requires_grad_(False)

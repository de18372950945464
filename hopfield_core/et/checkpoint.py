"""Saving and loading the ET through the core's one checkpoint loader (hopfield_core.checkpoints:
safetensors only, the sha256 and every shape checked, nothing ever unpickled).

assets/et/ holds model.safetensors, config.json (the ETConfig plus the weights' sha256)
and MODEL_CARD.md.
"""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import torch

from .. import checkpoints
from ..checkpoints import CheckpointError, sha256_file
from .config import ETConfig
from .model import EnergyTransformer

__all__ = ["CheckpointError", "sha256_file", "save", "load", "shipped_config", "shipped_eval",
           "ASSET_DIR", "MODELS"]

REPO = Path(__file__).resolve().parents[2]
ASSET_DIR = REPO / "assets" / "et"
# the shipped models: the default starts from the harmonic fill; "paper" starts from the mask
# token alone, as in the paper, and draws the whole hole (each folder has its own card)
MODELS = {"harmonic": ASSET_DIR, "paper": ASSET_DIR / "paper"}
WEIGHTS, CONFIG, CARD = "model.safetensors", "config.json", "MODEL_CARD.md"


def save(model: EnergyTransformer, directory: Path = ASSET_DIR, extra: dict | None = None) -> str:
    """Write the weights and the config; returns the weights' sha256."""
    directory = Path(directory)
    digest = checkpoints.write(model.state_dict(), directory / WEIGHTS)
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


def shipped_eval(directory: Path = ASSET_DIR, part: str = "eval") -> dict:
    """The held-out evaluation a checkpoint's card reports (config.json's "eval": masked-patch
    MSE of the ET, its start and the baselines on the card's crops; part "eval_bench": on the
    benchmark's; tests/core/test_et_shipped.py re-measures both), or {} when the file is
    missing or damaged."""
    try:
        found = json.loads((Path(directory) / CONFIG).read_text())[part]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    return found if isinstance(found, dict) else {}


def load(directory: Path = ASSET_DIR, device: str | torch.device = "cpu") -> EnergyTransformer:
    """Load and verify a checkpoint; raises CheckpointError with a clear message."""
    directory = Path(directory)
    cfg_path, w_path = directory / CONFIG, directory / WEIGHTS
    if not cfg_path.is_file() or not w_path.is_file():
        raise CheckpointError(f"The Energy Transformer's weights are missing from "
                              f"{checkpoints.shown(directory)} (need {WEIGHTS} and {CONFIG}). "
                              "Retrain with `python -m hopfield_core.et.train`.")
    try:
        meta = json.loads(cfg_path.read_text())
        cfg = ETConfig.from_dict(meta["config"])
        expected = meta["sha256"]
    except (ValueError, KeyError, TypeError) as e:
        raise CheckpointError(f"{CONFIG} is damaged or not an ET config "
                              f"({checkpoints.reason(e)}).") from e
    state = checkpoints.read(w_path, expected)
    return checkpoints.fit(EnergyTransformer(cfg), state, WEIGHTS).to(device)

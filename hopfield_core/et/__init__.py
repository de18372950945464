"""The Energy Transformer: model, checkpoints, and the completion contract used by the app.

    model = load_pretrained(device=None)   # CUDA, else Apple MPS, else CPU
    out = model.complete(image, mask)      # image (H, W, 3) in [0, 1]; mask (H/p, W/p) True = hidden
"""
from .checkpoint import CheckpointError
from .complete import Completion, ETCompleter, load_pretrained
from .config import ETConfig

__all__ = ["CheckpointError", "Completion", "ETCompleter", "ETConfig", "load_pretrained"]

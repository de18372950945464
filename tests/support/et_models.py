"""Energy Transformers for the tests: a small config that trains and runs in a moment, and the
shipped model's card figures."""
from __future__ import annotations

import json

from hopfield_core.et import ETConfig, checkpoint

SMALL_ET = ETConfig(dim=32, heads=2, head_dim=8, memories=24, steps=4)


def shipped_info() -> dict:
    """The shipped config.json with every figure the card prints (older ones lack some)."""
    info = json.loads((checkpoint.ASSET_DIR / checkpoint.CONFIG).read_text())
    return with_eval(info, 0.010, 0.010, 0.010)


def with_eval(info: dict, at_T: float, at_4T: float, at_100: float) -> dict:
    ev = {**info["eval"], "et_mse": at_T, "et_mse_4T": at_4T, "et_mse_100": at_100,
          "last_step_max_pixel_change": 0.001, "mse_by_step": [at_T] * 101}
    return {**info, "eval": ev, "training": {**info["training"], "steps_max": 0}}

"""Measure a shipped model's card figures again, on the held-out photos, and write them down:

    python -m hopfield_core.et.rescore [model folder ...]   (default: every shipped model)

config.json's "eval" gets the card's crops (as many per held-out photo as training scored,
masks of seed MASK_SEED; what training recorded of the run, its batch and minutes, is kept) and
"eval_bench" the 240 crops benchmarks/bench_et.py scores (the same photos, the same mask seed),
each with the share of crops biharmonic inpainting fills better than the ET; then the model card
is written again from them. tests/core/test_et_shipped.py measures both afresh.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import torch

from . import checkpoint
from .data import HELD_OUT_PHOTOS, held_out_set, random_masks
from .evaluation import BENCH_PER_PHOTO, EVAL_RATIO, MASK_SEED, report
from .model import EnergyTransformer

# what "eval_bench" keeps of report(): the errors beside one another and the crop-by-crop count
BENCH_KEYS = ("et_mse", "start_mse", "mean_fill_mse", "biharmonic_mse", "harmonic_mse",
              "biharmonic_better_share", "descent_share")


def card_per_photo(info: dict) -> int:
    """How many crops of each held-out photo the card scores: as many as training did."""
    return int(info["training"]["held_out_crops"]) // len(HELD_OUT_PHOTOS)


def held_out_scores(model: EnergyTransformer, per_photo: int) -> dict:
    """report() on `per_photo` fixed crops of each held-out photo, half their patches hidden at
    random (seed MASK_SEED), with the number of crops."""
    cfg = model.cfg
    images = held_out_set(cfg.image_size, per_photo)
    masks = random_masks(len(images), cfg.n_patches, EVAL_RATIO, torch.Generator().manual_seed(MASK_SEED))
    return {**report(model, images, masks, torch.device("cpu")), "crops": len(images)}


def rescore(directory: Path) -> dict:
    """Measure the model in `directory` on the card's crops and the benchmark's, write
    config.json and MODEL_CARD.md, and return the new config."""
    from .card import write_model_card

    directory = Path(directory)
    info = json.loads((directory / checkpoint.CONFIG).read_text())
    model = checkpoint.load(directory)
    ev = held_out_scores(model, card_per_photo(info))
    bench = held_out_scores(model, BENCH_PER_PHOTO)
    measured = {k: v for k, v in ev.items() if "_vs_" not in k}  # the ratios are the card's to write
    info["eval"] = {**info["eval"], **measured, "ratio_to_mean_fill": ev["et_mse"] / ev["mean_fill_mse"]}
    info["eval_bench"] = {**{k: bench[k] for k in BENCH_KEYS}, "crops": bench["crops"]}
    (directory / checkpoint.CONFIG).write_text(json.dumps(info, indent=2, sort_keys=True) + "\n")
    write_model_card(directory, info, info["sha256"], info["command"])
    return info


def main(argv=None) -> None:
    folders = [Path(a) for a in (argv if argv is not None else sys.argv[1:])] or list(checkpoint.MODELS.values())
    torch.manual_seed(0)
    for folder in folders:
        info = rescore(folder)
        ev, bench = info["eval"], info["eval_bench"]
        print(f"{folder}: {ev['crops']} crops, ET/biharmonic {ev['et_mse'] / ev['biharmonic_mse']:.3f}, "
              f"biharmonic better on {100 * ev['biharmonic_better_share']:.0f} %; {bench['crops']} crops, "
              f"{bench['et_mse'] / bench['biharmonic_mse']:.3f}, {100 * bench['biharmonic_better_share']:.0f} %")


if __name__ == "__main__":
    main()

"""MODEL_CARD.md for the shipped Energy Transformer, written by the training command."""
from __future__ import annotations

from pathlib import Path


def write_model_card(directory: Path, info: dict, sha256: str, command: str) -> None:
    tr, ev = info["training"], info["eval"]
    ratio = ev["et_mse"] / ev["mean_fill_mse"]
    lines = [
        "# Energy Transformer: masked-image completion (32 x 32 RGB, 4 x 4 patches)",
        "",
        "A small Energy Transformer (Hoover et al., NeurIPS 2023) trained by this project to "
        "fill in hidden patches of small colour images. Architecture and energy: "
        "`hopfield_core/et/model.py`; the configuration is in `config.json`.",
        "",
        "## Data",
        f"- Training: random crops at random scales of the photos bundled in scikit-image and "
        f"scikit-learn ({', '.join(tr['train_photos'])}), with flips, 90-degree rotations, colour-channel "
        "permutations, hue rotations and greyscale, plus 30 % procedural images (smooth noise, "
        "gradients, stripes, shapes, edges).",
        f"- Held out for validation: {', '.join(tr['held_out_photos'])} ({tr['held_out_crops']} fixed crops).",
        "",
        "## Recipe",
        f"- {tr['batches']} batches of {tr['batch_size']} images x {tr['processes']} process(es); "
        f"AdamW (lr {tr['lr']}, weight decay {tr['weight_decay']}), {tr['warmup']} warm-up steps then "
        "cosine decay, gradient clipping 1.0; loss: mean squared error on the hidden patches "
        "(25 % to 75 % of the patches hidden per batch) plus "
        f"{tr['energy_penalty']} x the mean energy rise between steps.",
        f"- Time and hardware: {tr['minutes']} minutes on {tr['hardware']} (device {tr['device']}), "
        f"torch {tr['torch']}.",
        "",
        "## Results on the held-out photos (50 % of the patches hidden at random)",
        "",
        "| method | masked-patch MSE | vs mean fill |",
        "| --- | --- | --- |",
        f"| Energy Transformer | {ev['et_mse']:.5f} | {ratio:.3f} |",
        f"| mean colour of the visible patches | {ev['mean_fill_mse']:.5f} | 1.000 |",
        f"| biharmonic inpainting (scikit-image) | {ev['biharmonic_mse']:.5f} | "
        f"{ev['biharmonic_mse'] / ev['mean_fill_mse']:.3f} |",
        "",
        f"The energy falls at every one of the {tr['steps']} "
        f"steps for {100 * ev['energy_falls_every_step']:.1f} % of the held-out images.",
        "",
        "## Weights",
        f"- `model.safetensors`, sha256 `{sha256}` (checked on every load).",
        "",
        "## Retrain",
        "```bash",
        "python -m pip install -r requirements-dev.txt",
        command,
        "```",
        "`python benchmarks/bench_et.py` re-measures the table above.",
        "",
    ]
    (Path(directory) / "MODEL_CARD.md").write_text("\n".join(lines))

"""Scoring on held-out crops: the Energy Transformer's masked-patch error along its descent
(with whether its energy falls at every step), and the yardsticks' errors on the same masks.

# B images (S, S, 3), N patches, mask (B, N) True = hidden
"""
from __future__ import annotations

import torch

from .baselines import biharmonic, masked_patch_mse, mean_fill
from .descent import ROUNDING
from .fill import harmonic_fill
from .model import EnergyTransformer, patchify, unpatchify

EVAL_RATIO = 0.5
EVAL_STEPS_MAX = 100  # the held-out error is measured at every step up to this many
MASK_SEED = 99  # the held-out crops' masks, for training's evaluations, the cards and the benchmark
BENCH_PER_PHOTO = 48  # benchmarks/bench_et.py's crops: 48 of each held-out photo (240)


@torch.no_grad()
def evaluate(model: EnergyTransformer, images: torch.Tensor, masks: torch.Tensor,
             device: torch.device, steps_max: int = EVAL_STEPS_MAX,
             versus: dict[str, torch.Tensor] | None = None) -> dict:
    """Held-out masked-patch MSE after every step 0..steps_max (et_mse: at the model's T),
    the share of images whose energy falls at every one of those steps (or stays within
    float32 rounding, ROUNDING |E|, once settled), and how much the
    decoded image still moves at the end (largest pixel change between the last two steps).
    versus: a yardstick's error per image ((B,), by name, from baseline_errors), each scored
    crop by crop as `<name>_better_share`: the share of images it fills with a smaller error
    than the ET at T."""
    cfg, T = model.cfg, model.cfg.steps
    curves, monotone, last_move = [], [], []
    for i in range(0, len(images), 64):
        img, m = images[i:i + 64].to(device), masks[i:i + 64].to(device)
        P = patchify(img, cfg.patch_size)
        x0, base = model.start(P, m)
        _, xs, e_att, e_hn = model.evolve(x0, steps=steps_max, record=True, mask=m)
        per_step, decoded = [], []
        for x in xs:
            pred = torch.where(m[..., None], model.read(x, x0, base).clamp(0, 1), P)
            out = unpatchify(pred, cfg.patch_size, cfg.grid)
            per_step.append(masked_patch_mse(out, img, m, cfg.patch_size).cpu())
            decoded.append(out)
        curves.append(torch.stack(per_step))  # (steps_max+1, B)
        last_move.append((decoded[-1] - decoded[-2]).abs().amax(dim=(1, 2, 3)).cpu())
        E = (e_att + e_hn).cpu()  # (steps_max+1, B)
        monotone.append((E[1:] <= E[:-1] + ROUNDING * E[:-1].abs()).all(dim=0))
    per_image = torch.cat(curves, dim=1)  # (steps_max+1, B)
    curve = per_image.mean(dim=1)  # (steps_max+1,)
    return {"et_mse": float(curve[T]), "et_mse_4T": float(curve[min(4 * T, steps_max)]),
            "et_mse_100": float(curve[steps_max]), "mse_by_step": [round(float(v), 6) for v in curve],
            "last_step_max_pixel_change": float(torch.cat(last_move).max()),
            "energy_falls_every_step": float(torch.cat(monotone).float().mean()),
            **descent_share(per_image[0], per_image[T]),
            **{f"{name}_better_share": better_share(err, per_image[T]) for name, err in (versus or {}).items()}}


def better_share(theirs: torch.Tensor, ours: torch.Tensor) -> float:
    """The share of images on which `theirs` ((B,) errors) is strictly below `ours`."""
    return float((theirs < ours).float().mean())


def descent_share(start: torch.Tensor, at_T: torch.Tensor, enough: float = 0.1) -> dict:
    """How much of the completion the descent does, from each image's masked-patch error at
    step 0 (start, (B,): the picture the descent starts from) and at T (at_T, (B,)):
    start_mse (their mean), descent_share = 1 - mean(at_T) / mean(start), the mean of the
    images' own shares, and the share of images whose own share is at least `enough`."""
    own = 1 - at_T / start.clamp_min(1e-12)  # (B,)
    return {"start_mse": float(start.mean()), "descent_share": float(1 - at_T.mean() / start.mean()),
            "image_descent_share_mean": float(own.mean()),
            "images_descent_at_least_10pct": float((own >= enough).float().mean())}


def report(model: EnergyTransformer, images: torch.Tensor, masks: torch.Tensor,
           device: torch.device, errors: dict[str, torch.Tensor] | None = None) -> dict:
    """evaluate() with the yardsticks beside it: the baselines' mean errors (from errors, their
    errors per image, or measured here), the share of crops biharmonic inpainting fills better,
    and the ET's error at T, 4 T and 100 steps as multiples of mean fill and of biharmonic."""
    errors = baseline_errors(images, masks, model.cfg.patch_size) if errors is None else errors
    base = means(errors)
    ev = {**base, **evaluate(model, images, masks, device, versus={"biharmonic": errors["biharmonic_mse"]})}
    for key in ("et_mse", "et_mse_4T", "et_mse_100", "start_mse"):
        ev[f"{key}_vs_mean_fill"] = ev[key] / base["mean_fill_mse"]
    ev["et_vs_biharmonic"] = ev["et_mse"] / base["biharmonic_mse"]
    return ev


def baseline_errors(images: torch.Tensor, masks: torch.Tensor, p: int) -> dict[str, torch.Tensor]:
    """The yardsticks' masked-patch error per image ((B,) each): mean fill, biharmonic and
    harmonic inpainting."""
    def mse(filled):
        return masked_patch_mse(filled, images, masks, p)

    return {"mean_fill_mse": mse(mean_fill(images, masks, p)), "biharmonic_mse": mse(biharmonic(images, masks, p)),
            "harmonic_mse": mse(harmonic_fill(images, masks, p))}


def means(errors: dict[str, torch.Tensor]) -> dict[str, float]:
    """Each yardstick's mean error over the images."""
    return {k: float(v.mean()) for k, v in errors.items()}


def baselines(images: torch.Tensor, masks: torch.Tensor, p: int) -> dict:
    """The yardsticks' mean masked-patch error: mean fill, biharmonic and harmonic inpainting."""
    return means(baseline_errors(images, masks, p))

"""The Energy Transformer: speed, and its error beside the three baselines.

    python benchmarks/bench_et.py

1. One completion of one image at the shipped size (all T steps, frames, energies
   and the energy's rate) on CPU, and on CUDA when present; goal < 20 ms on CPU. The peer:
   one forward pass of torch's own nn.TransformerEncoderLayer of the same width on the same
   64 tokens, same run. Also the 100-step run the page's "Steps T" allows, and M's
   eigenvalues on one step's tokens (what the page computes once per step it shows), and the
   harmonic fill of the same image (where a model with start "harmonic" begins).
2. Images per second when completing a batch of 64.
3. Training time per 1,000 images on this machine (a few optimizer steps).
4. Masked-patch MSE at 50 % random patch masking on 240 held-out crops, for both shipped models
   (both starts): ET at T, 4 T and 100 steps, where its descent starts and the descent's share
   of the work (overall, per image, and on how many images it takes 10 % or more off), beside
   mean fill, biharmonic inpainting and the harmonic fill, as MSE, as a multiple of mean fill's
   and of biharmonic's, and as PSNR (10 log10(1 / MSE), of the mean MSE); and on how many crops
   biharmonic inpainting's error is the smaller (`python -m hopfield_core.et.rescore` writes
   these figures into the cards, "eval_bench").
"""
from __future__ import annotations

import numpy as np
import torch

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import median_time, print_table_head  # noqa: E402
from hopfield_core.et import load_pretrained  # noqa: E402
from hopfield_core.et.card import relative_change  # noqa: E402
from hopfield_core.et.complete import available_devices  # noqa: E402
from hopfield_core.et.descent import spectrum  # noqa: E402
from hopfield_core.et.model import patchify  # noqa: E402


def median_ms(fn, repeat: int = 20, **kw) -> float:
    """median_time in milliseconds, over 20 runs unless told."""
    return median_time(fn, repeat, **kw) * 1e3


def completion_rows(threads: int) -> list[str]:
    torch.set_num_threads(threads)
    rows = []
    rng = np.random.default_rng(0)
    for dev in available_devices():
        et = load_pretrained(dev)
        size, grid, p = et.image_size[0], et.cfg.grid, et.patch_size
        img = rng.random((size, size, 3))
        mask = rng.random((grid, grid)) < 0.5
        sync = torch.cuda.synchronize if dev == "cuda" else None
        t_one = median_ms(lambda: et.complete(img, mask), sync=sync)
        layer = torch.nn.TransformerEncoderLayer(et.cfg.dim, et.cfg.heads, 4 * et.cfg.dim,
                                                 batch_first=True).to(dev).eval()
        tokens = torch.randn(1, et.cfg.n_patches, et.cfg.dim, device=dev)
        with torch.no_grad():
            t_peer = median_ms(lambda: layer(tokens), sync=sync)
        t_long = median_ms(lambda: et.complete(img, mask, steps=100), repeat=5, sync=sync)
        batch = torch.rand(64, size, size, 3, device=dev)
        bmask = torch.rand(64, grid * grid, device=dev) < 0.5
        model = et.model
        with torch.no_grad():
            t_batch = median_ms(lambda: model(patchify(batch, p), bmask), repeat=5, sync=sync)
        rows.append(f"| one completion ({et.cfg.steps} steps), {dev} ({threads} thread(s)) | "
                    f"{t_one:.1f} ms | one TransformerEncoderLayer pass: {t_peer:.2f} ms | "
                    f"{t_one / t_peer:.1f} | < 20 ms on CPU: "
                    f"{'ok' if dev != 'cpu' or t_one < 20 else 'SLOW'} |")
        rows.append(f"| one completion, 100 steps, {dev} ({threads} thread(s)) | {t_long:.0f} ms | | | |")
        if dev == "cpu":
            from hopfield_core.et.fill import harmonic_fill
            one, one_mask = torch.from_numpy(img[None]).float(), torch.from_numpy(mask.reshape(1, -1))
            t_fill = median_ms(lambda: harmonic_fill(one, one_mask, p))
            rows.append(f"| harmonic fill of the same image, cpu ({threads} thread(s)) | {t_fill:.1f} ms | "
                        f"the ET completion | {t_fill / t_one:.2f} | |")
        tokens = et.complete(img, mask).tokens[-1]
        t_spec = median_ms(lambda: spectrum(et.model, tokens), repeat=5, sync=sync)
        rows.append(f"| M's eigenvalues on one step's tokens (the page's first look at a step), "
                    f"{dev} ({threads} thread(s)) | {t_spec:.0f} ms | | | |")
        rows.append(f"| batch of 64, {dev} | {64 / (t_batch / 1e3):.0f} images/s | | | |")
    return rows


def training_row(threads: int) -> str:
    from hopfield_core.et.model import EnergyTransformer

    torch.set_num_threads(threads)
    cfg = load_pretrained("cpu").cfg
    model = EnergyTransformer(cfg)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    imgs = torch.rand(64, cfg.image_size, cfg.image_size, 3)
    mask = torch.rand(64, cfg.n_patches) < 0.5

    def step():
        P = patchify(imgs, cfg.patch_size)
        pred = model(P, mask)
        loss = (((pred - P) ** 2).mean(-1) * mask).sum() / mask.sum()
        opt.zero_grad()
        loss.backward()
        opt.step()

    t = median_ms(step, repeat=3, warmup=1)
    return f"| training, batch of 64, cpu ({threads} thread(s)) | {t / 64:.1f} s per 1,000 images | | | |"


def quality_rows() -> list[str]:
    """Both shipped models (both starts) on the same held-out crops and masks: the card's table
    beside biharmonic inpainting, the descent's share of the work and PSNR."""
    from hopfield_core.et.checkpoint import MODELS
    from hopfield_core.et.data import held_out_set, random_masks
    from hopfield_core.et.evaluation import BENCH_PER_PHOTO, EVAL_RATIO, MASK_SEED, baseline_errors, means, report
    from hopfield_core.et.inspect import psnr

    rows, errors = [], None
    for name, folder in MODELS.items():
        et = load_pretrained("cpu", folder)
        cfg = et.cfg
        val = held_out_set(cfg.image_size, BENCH_PER_PHOTO)
        masks = random_masks(len(val), cfg.n_patches, EVAL_RATIO, torch.Generator().manual_seed(MASK_SEED))
        errors = errors or baseline_errors(val, masks, cfg.patch_size)
        ev = report(et.model, val, masks, torch.device("cpu"), errors)
        mf, T = ev["mean_fill_mse"], cfg.steps
        rows += [
            f"| {name}: Energy Transformer, T = {T} | {ev['et_mse']:.5f} | {ev['et_mse'] / mf:.3f} | "
            f"{ev['et_vs_biharmonic']:.3f} | {psnr(ev['et_mse']):.2f} dB | energy falls at every one of "
            f"100 steps for {100 * ev['energy_falls_every_step']:.1f} %; biharmonic better on "
            f"{round(ev['biharmonic_better_share'] * len(val))} of {len(val)} crops |",
            f"| {name}: 4 T = {4 * T} steps | {ev['et_mse_4T']:.5f} | {ev['et_mse_4T'] / mf:.3f} | | | "
            f"{relative_change(ev['et_mse_4T'] / ev['et_mse'])} against T |",
            f"| {name}: 100 steps | {ev['et_mse_100']:.5f} | {ev['et_mse_100'] / mf:.3f} | | | "
            f"{relative_change(ev['et_mse_100'] / ev['et_mse'])} against T; largest pixel change at "
            f"the last step {ev['last_step_max_pixel_change']:.1e} |",
            f"| {name}: step 0, where the descent starts | {ev['start_mse']:.5f} | "
            f"{ev['start_mse'] / mf:.3f} | | {psnr(ev['start_mse']):.2f} dB | the descent lowers it by "
            f"{100 * ev['descent_share']:.1f} % overall, {100 * ev['image_descent_share_mean']:.1f} % "
            f"per image on average, by 10 % or more on "
            f"{100 * ev['images_descent_at_least_10pct']:.0f} % of the images |"]
    base = means(errors)
    mf, bh, hf = base["mean_fill_mse"], base["biharmonic_mse"], base["harmonic_mse"]
    return rows + [
        f"| mean fill | {mf:.5f} | 1.000 | {mf / bh:.3f} | {psnr(mf):.2f} dB | |",
        f"| biharmonic inpainting | {bh:.5f} | {bh / mf:.3f} | 1.000 | {psnr(bh):.2f} dB | |",
        f"| harmonic fill | {hf:.5f} | {hf / mf:.3f} | {hf / bh:.3f} | {psnr(hf):.2f} dB | each "
        "hidden pixel the mean of its neighbours |"]


def main() -> None:
    print(f"torch {torch.__version__}; devices {available_devices()}\n")
    print_table_head("what", "ours", "peer", "ratio", "goal")
    for threads in sorted({1, torch.get_num_threads()}):
        for row in completion_rows(threads):
            print(row)
    print(training_row(1))
    print("\n## Masked-patch MSE on the held-out photos (50 % of patches hidden)\n")
    print_table_head("method", "MSE", "vs mean fill", "vs biharmonic", "PSNR", "note")
    for row in quality_rows():
        print(row)


if __name__ == "__main__":
    main()

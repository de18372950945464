"""Train the digits ViT and ship it: `python -m hopfield_core.heads.train_vit`.

# B batch, 8 x 8 digits with grey levels 0..16, 10 classes

scikit-learn's bundled 8 x 8 digits (1,797 images, no download), split by a fixed seed into
train and held-out (stratified, 20 % held out), trained with AdamW, a cosine learning rate
and random one-pixel shifts of the training images, on one CPU thread; the held-out accuracy
goes into config.json and MODEL_CARD.md, next to the weights' sha256 and this command.
"""
from __future__ import annotations

import argparse
import math
import platform
import time
from pathlib import Path

import numpy as np
import torch

from . import vit_checkpoint
from .vit import POS_STD, DigitsViT, ViTConfig, n_parameters, predict

HELDOUT_SHARE = 0.2


def cpu_name() -> str:
    """The CPU's model name (Linux), else the machine's architecture."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def digits_split(seed: int) -> tuple[np.ndarray, ...]:
    """(train images, train labels, held-out images, held-out labels, held-out indices):
    images (M, 8, 8) uint8 0..16, from sklearn.datasets.load_digits, stratified by seed."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    data = load_digits()
    images = data.images.astype(np.uint8)  # (1797, 8, 8) whole grey levels 0..16
    idx = np.arange(len(images))
    tr, te = train_test_split(idx, test_size=HELDOUT_SHARE, random_state=seed,
                              stratify=data.target)
    te = np.sort(te)
    return images[tr], data.target[tr], images[te], data.target[te], te


def shifted(x: torch.Tensor, gen: torch.Generator) -> torch.Tensor:
    """Each image (B, 8, 8) moved by -1, 0 or +1 pixel in each direction, zeros coming in."""
    out = torch.zeros_like(x)
    shifts = torch.randint(-1, 2, (len(x), 2), generator=gen)
    for (dy, dx) in shifts.unique(dim=0).tolist():
        sel = (shifts[:, 0] == dy) & (shifts[:, 1] == dx)
        src = x[sel]
        ys, yd = (slice(0, 8 - dy), slice(dy, 8)) if dy >= 0 else (slice(-dy, 8), slice(0, 8 + dy))
        xs, xd = (slice(0, 8 - dx), slice(dx, 8)) if dx >= 0 else (slice(-dx, 8), slice(0, 8 + dx))
        moved = torch.zeros_like(src)
        moved[:, yd, xd] = src[:, ys, xs]
        out[sel] = moved
    return out


def train(epochs: int, seed: int, lr: float, batch: int, shift: bool = True,
          smoothing: float = 0.1, pos_std: float = POS_STD, log=print) -> tuple[DigitsViT, dict]:
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    xtr, ytr, xte, yte, te_idx = digits_split(seed)
    X, Y = torch.as_tensor(xtr, dtype=torch.float32), torch.as_tensor(ytr, dtype=torch.long)
    model = DigitsViT(ViTConfig())
    if pos_std != POS_STD:  # the position embeddings' initial scale (DigitsViT draws POS_STD)
        with torch.no_grad():
            model.pos.normal_(0.0, pos_std)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.05)
    steps_per_epoch = math.ceil(len(X) / batch)
    total, warm = epochs * steps_per_epoch, steps_per_epoch * 2

    def rate(s: int) -> float:  # linear warm-up, then cosine decay to 0
        return min(1.0, (s + 1) / warm) * 0.5 * (1 + math.cos(math.pi * min(s, total) / total))

    sched = torch.optim.lr_scheduler.LambdaLR(opt, rate)
    start, wall = time.process_time(), time.perf_counter()
    for epoch in range(epochs):
        model.train()
        order = torch.randperm(len(X), generator=gen)
        for i in range(0, len(X), batch):
            sel = order[i:i + batch]
            x = shifted(X[sel], gen) if shift else X[sel]
            loss = torch.nn.functional.cross_entropy(model(x), Y[sel], label_smoothing=smoothing)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
        if (epoch + 1) % 20 == 0 or epoch + 1 == epochs:
            model.eval()
            acc = float(np.mean(predict(model, xte) == yte))
            log(f"epoch {epoch + 1}/{epochs}: loss {loss.item():.3f}, held-out accuracy {acc:.4f}")
    cpu_s, wall_s = time.process_time() - start, time.perf_counter() - wall
    model.eval().requires_grad_(False)
    pred = predict(model, xte)
    info = {"eval": {"heldout_accuracy": float(np.mean(pred == yte)),
                     "heldout_correct": int(np.sum(pred == yte)), "heldout_n": int(len(yte)),
                     "train_n": int(len(ytr))},
            "train": {"epochs": epochs, "seed": seed, "lr": lr, "batch": batch,
                      "weight_decay": 0.05, "label_smoothing": smoothing, "pos_std": pos_std,
                      "augment": "one-pixel shifts" if shift else "no shifts",
                      "cpu_seconds": round(cpu_s, 1), "wall_seconds": round(wall_s, 1),
                      "torch_threads": torch.get_num_threads(),
                      "torch": torch.__version__, "machine": platform.machine(),
                      "processor": cpu_name(),
                      "parameters": n_parameters(model)},
            "heldout": (xte, yte, te_idx)}
    return model, info


CARD_TEXT = """# Digits ViT (assets/vit_digits)

A small Vision Transformer trained in this repository, so that the page "Inside a trained
Transformer" can read its attention heads as modern Hopfield networks.

- **Data**: scikit-learn's bundled 8 x 8 digits (`sklearn.datasets.load_digits`, 1,797
  images, grey levels 0..16, no download). Split with `train_test_split(stratify=labels,
  test_size={share}, random_state={seed})`: {train_n} for training, {heldout_n} held out
  (shipped as `heldout.safetensors` with their indices).
- **Model**: 2 x 2 patches -> {patches} tokens + CLS = {tokens} tokens, width {dim},
  {layers} pre-LayerNorm layers x {heads} heads (d_head {d_head}), MLP {mlp};
  {parameters:,} parameters.
- **Recipe**: AdamW (lr {lr}, weight decay {weight_decay}), batch {batch}, {epochs} epochs,
  2 warm-up epochs then cosine decay, label smoothing {label_smoothing}, {augment}
  of the training images, position embeddings drawn with std {pos_std}; seed {seed}.
- **Time and hardware**: {cpu_seconds} s of CPU time ({wall_seconds} s wall, on a shared
  machine) on {torch_threads} torch thread, {processor}, torch {torch}.
- **Held-out accuracy**: {acc:.2%} ({correct} / {heldout_n}).
- **Weights**: `model.safetensors`, sha256 `{sha256}` (checked on every load; anything
  else is refused, nothing is unpickled).
- **Reproduce**: `{command}`
"""


def write_card(directory: Path, meta: dict, command: str) -> None:
    cfg = ViTConfig.from_dict(meta["config"])
    text = CARD_TEXT.format(share=HELDOUT_SHARE, **meta["train"], **meta["eval"],
                            patches=cfg.n_patches, tokens=cfg.tokens, dim=cfg.dim,
                            layers=cfg.layers, heads=cfg.heads, d_head=cfg.d_head, mlp=cfg.mlp,
                            acc=meta["eval"]["heldout_accuracy"],
                            correct=meta["eval"]["heldout_correct"], sha256=meta["sha256"],
                            command=command)
    (Path(directory) / vit_checkpoint.CARD).write_text(text)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description="Train the digits ViT and write assets/vit_digits/.")
    p.add_argument("--epochs", type=int, default=150)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--no-shift", action="store_true", help="no one-pixel shifts of the images")
    p.add_argument("--label-smoothing", type=float, default=0.1)
    p.add_argument("--pos-std", type=float, default=POS_STD,
                   help="initial scale of the position embeddings")
    p.add_argument("--out", type=Path, default=vit_checkpoint.ASSET_DIR)
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    model, info = train(a.epochs, a.seed, a.lr, a.batch, not a.no_shift, a.label_smoothing,
                        a.pos_std)
    heldout = info.pop("heldout")
    command = (f"{vit_checkpoint.RETRAIN} --epochs {a.epochs} --seed {a.seed} --lr {a.lr} "
               f"--batch {a.batch} --label-smoothing {a.label_smoothing} --pos-std {a.pos_std}"
               + (" --no-shift" if a.no_shift else ""))
    digest = vit_checkpoint.save(model, a.out, heldout, {**info, "command": command})
    write_card(a.out, vit_checkpoint.shipped_meta(a.out), command)
    print(f"held-out accuracy {info['eval']['heldout_accuracy']:.4f}; sha256 {digest}; "
          f"wrote {a.out}")


if __name__ == "__main__":
    main()

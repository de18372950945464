"""Speed of the numeric core, each figure beside a peer measured in the same run.

    python benchmarks/bench_core.py

1. One ModernHopfield.step (64 queries, 16,384 patterns of dimension 512, float32)
   against torch.nn.functional.scaled_dot_product_attention on the same tensors.
   Goal: ratio <= 1.1.
2. One asynchronous sweep of the classical network (d = 4096) and of the
   exponential dense memory (d = 1024, 256 patterns). Goal: < 100 ms a sweep, so
   that a page can animate it; the peer is one synchronous step of the same model.
"""
from __future__ import annotations

import numpy as np

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import interleaved  # noqa: E402
from hopfield_core import ClassicalHopfield, DenseAssociativeMemory, ModernHopfield  # noqa: E402


def bench_modern_vs_sdpa() -> list[tuple]:
    import torch
    import torch.nn.functional as F

    rng = np.random.default_rng(0)
    X = rng.standard_normal((16384, 512), dtype=np.float32) / np.float32(np.sqrt(512))
    Q = rng.standard_normal((64, 512), dtype=np.float32)
    beta = float(1 / np.sqrt(512))
    model = ModernHopfield(X, beta=beta)
    q, k = torch.from_numpy(Q), torch.from_numpy(X)

    def ours():
        model.step(Q)

    def sdpa():
        with torch.no_grad():
            F.scaled_dot_product_attention(q, k, k, scale=beta)

    t_ours, t_sdpa = interleaved(ours, sdpa)
    err = float(np.max(np.abs(model.step(Q) - sdpa_out(q, k, beta))))
    return [("ModernHopfield.step 64 x 16384 x 512 f32", t_ours, "torch SDPA", t_sdpa,
             t_ours / t_sdpa, "<= 1.1", f"max |diff| {err:.1e}")]


def sdpa_out(q, k, beta):
    import torch
    import torch.nn.functional as F

    with torch.no_grad():
        return F.scaled_dot_product_attention(q, k, k, scale=beta).numpy()


def bench_sweeps() -> list[tuple]:
    rng = np.random.default_rng(1)
    rows = []
    X = rng.choice([-1.0, 1.0], size=(200, 4096))
    model = ClassicalHopfield(X)
    q = X[0].copy()
    q[rng.choice(4096, 1200, replace=False)] *= -1
    gen = np.random.default_rng(0)
    t_async, t_sync = interleaved(lambda: model.step(q, mode="async", rng=gen),
                                  lambda: model.step(q, mode="sync"), rounds=9)
    rows.append(("classical async sweep d=4096, N=200", t_async, "one sync step", t_sync,
                 t_async / t_sync, "sweep < 100 ms", "ok" if t_async < 0.1 else "SLOW"))
    X = rng.choice([-1.0, 1.0], size=(256, 1024))
    dense = DenseAssociativeMemory(X, interaction="exponential", beta=1.0)
    q = X[0].copy()
    q[rng.choice(1024, 300, replace=False)] *= -1
    t_async, t_sync = interleaved(lambda: dense.step(q, mode="async", rng=gen),
                                  lambda: dense.step(q, mode="sync"), rounds=9)
    rows.append(("exponential dense async sweep d=1024, N=256", t_async, "one sync step", t_sync,
                 t_async / t_sync, "sweep < 100 ms", "ok" if t_async < 0.1 else "SLOW"))
    return rows


def main() -> None:
    import torch

    print(f"numpy {np.__version__}, torch {torch.__version__}, {torch.get_num_threads()} torch threads")
    header = ("what", "ours (ms)", "peer", "peer (ms)", "ratio", "goal", "note")
    rows = bench_modern_vs_sdpa() + bench_sweeps()
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for what, t, peer, tp, ratio, goal, note in rows:
        print(f"{what} | {t * 1e3:.1f} | {peer} | {tp * 1e3:.1f} | {ratio:.2f} | {goal} | {note}")


if __name__ == "__main__":
    main()

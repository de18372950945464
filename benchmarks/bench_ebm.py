"""Speed of learning the memories (hopfield_core.ebm), beside a peer in the same run.

    python benchmarks/bench_ebm.py

One training step (the NLL and its gradient with respect to the patterns) for N = 64
patterns and 10,000 data points, at d = 2 and d = 256: the closed-form gradient of
hopfield_core.ebm.nll_and_grad beside the same loss differentiated by torch autograd (float64,
CPU, the same data), median of repeated runs. The two gradients are checked equal first.
"""
from __future__ import annotations

import math

import numpy as np
import torch

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import median_time, print_table_head  # noqa: E402
from hopfield_core import ebm  # noqa: E402

N, n, BETA = 64, 10_000, 1.0


def torch_step(Xt: torch.Tensor, Dt: torch.Tensor, beta: float) -> torch.Tensor:
    X = Xt.detach().requires_grad_(True)
    d = X.shape[1]
    E = 0.5 * (Dt * Dt).sum(1) - torch.logsumexp(beta * Dt @ X.T, dim=1) / beta
    log_z = 0.5 * d * math.log(2 * math.pi / beta) + torch.logsumexp(0.5 * beta * (X * X).sum(1), 0)
    loss = beta * E.mean() + log_z
    loss.backward()
    return X.grad


def main() -> None:
    print(f"one training step (NLL and gradient), N = {N} patterns, {n:,} data points, "
          f"beta = {BETA:g}, float64 on CPU")
    print_table_head("d", "closed form, NumPy (ms)", "torch autograd (ms)", "autograd / closed form")
    for d in (2, 256):
        rng = np.random.default_rng(0)
        X, D = 0.5 * rng.standard_normal((N, d)), rng.standard_normal((n, d))
        Xt, Dt = torch.tensor(X), torch.tensor(D)
        np.testing.assert_allclose(ebm.nll_grad(X, D, BETA), torch_step(Xt, Dt, BETA).numpy(),
                                   atol=1e-10)
        ours = median_time(lambda: ebm.nll_and_grad(X, D, BETA), warmup=1)
        peer = median_time(lambda: torch_step(Xt, Dt, BETA), warmup=1)
        print(f"| {d} | {ours * 1e3:.2f} | {peer * 1e3:.2f} | {peer / ours:.2f} |")


if __name__ == "__main__":
    main()

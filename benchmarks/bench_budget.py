"""The work budget (ui/serving/budget.py) against the machine: the seconds per unit of work it
assumes beside what the core really takes, and the worst run a student can start at the
largest size (d = 3072 neurons, 40 patterns) with its step limit capped, beside the same
run uncapped (the peer), measured in one process.

    python benchmarks/bench_budget.py

Goal: every capped run within about a second of CPU on this 2-core machine (the budget,
budget.RUN_SECONDS = 0.6 s, leaves room for the figures and for a busy machine).
"""
from __future__ import annotations

import numpy as np

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import cpu_time, print_table_head  # noqa: E402
from hopfield_core import ClassicalHopfield, DenseAssociativeMemory, ModernHopfield  # noqa: E402
from ui.serving import budget  # noqa: E402


def main() -> None:
    rng = np.random.default_rng(0)
    d, N = 3072, 40
    X = rng.choice([-1.0, 1.0], size=(N, d))
    q = X[0].copy()
    q[: d // 4] *= -1
    Xc = X / np.sqrt(d)
    cases = [  # (what, kind, mode, model, run kwargs); the binary ones at T = 1 never settle
        ("classical async, T = 1", "classical", "async", ClassicalHopfield(X),
         dict(mode="async", rng=1, temperature=1.0)),
        ("classical sync, T = 1", "classical", "sync", ClassicalHopfield(X),
         dict(mode="sync", rng=1, temperature=1.0)),
        ("dense n = 3 async", "dense", "async", DenseAssociativeMemory(X, degree=3),
         dict(mode="async", rng=1)),
        ("dense exponential sync", "dense", "sync",
         DenseAssociativeMemory(X, interaction="exponential", beta=0.01), dict(mode="sync")),
        ("modern, gamma = 0.01", "modern", "", ModernHopfield(Xc, beta=3.0),
         dict(gamma=0.01, tol=0.0)),
    ]
    print(f"d = {d}, N = {N}; budget {budget.RUN_SECONDS} s of CPU per run\n")
    print_table_head("run", "assumed s/step", "measured s/step", "cap (steps run)", "capped run CPU (s)",
                     "uncapped, limit 200 (steps run) CPU (s)", "ratio")
    for what, kind, mode, model, kw in cases:
        query = q if kind != "modern" else q / np.sqrt(d)
        steps = budget.max_steps(kind, mode, d, N)
        capped, traj = cpu_time(lambda: model.run(query, max_steps=steps, **kw))
        peer, peer_traj = cpu_time(lambda: model.run(query, max_steps=200, **kw))
        ran, peer_ran = traj.steps, peer_traj.steps
        print(f"| {what} | {budget.step_seconds(kind, mode, d, N):.2e} | {capped / ran:.2e} "
              f"| {steps} ({ran}) | {capped:.2f} | ({peer_ran}) {peer:.2f} | {capped / peer:.2f} |")


if __name__ == "__main__":
    main()

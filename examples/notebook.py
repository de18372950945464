"""hopfield_core in a notebook: store patterns, corrupt a query, run every variant, print the
energies. Needs only NumPy (`pip install .` from the repository root installs hopfield_core);
paste it into Jupyter cell by cell, or run it: `python examples/notebook.py`.

# N patterns, d neurons
"""
import numpy as np

from hopfield_core import (ClassicalHopfield, DenseAssociativeMemory, ModernHopfield,
                           hopfield_attention)

rng = np.random.default_rng(0)
N, d = 5, 100
X = rng.choice([-1.0, 1.0], size=(N, d))  # (N, d) the stored patterns, bipolar

# the query: pattern 0 with 20 of its 100 signs flipped
query = X[0].copy()
flipped = rng.choice(d, size=20, replace=False)
query[flipped] *= -1


def report(name: str, run, target: np.ndarray) -> None:
    """One line: the energy at the start and at the end, steps, and the overlap with the target."""
    overlap = float(run.final @ target) / (np.linalg.norm(run.final) * np.linalg.norm(target))
    print(f"{name:<34} E: {run.energies[0]:>12.6g} -> {run.energies[-1]:>12.6g}   "
          f"steps {run.steps:>3}   overlap with pattern 0 {overlap:.3f}")


print(f"{N} patterns of d = {d}; the query is pattern 0 with 20 signs flipped\n")
report("classical (Hopfield 1982), async", ClassicalHopfield(X).run(query, mode="async", rng=0), X[0])
report("dense, polynomial n = 3", DenseAssociativeMemory(X, degree=3).run(query), X[0])
report("dense, exponential", DenseAssociativeMemory(X, interaction="exponential").run(query), X[0])

# the modern continuous network stores unit-length patterns; beta sets how sharp recall is
U = X / np.sqrt(d)
for beta in (1.0, 8.0, 64.0):
    run = ModernHopfield(U, beta=beta).run(query / np.sqrt(d))
    report(f"modern, beta = {beta:g}", run, U[0])

# one modern Hopfield step is attention: softmax(beta xi K^T) V with the patterns as K and V
beta = 64.0
step = ModernHopfield(U, beta=beta).run(query / np.sqrt(d), max_steps=1).states[1]
attn = hopfield_attention(query[None] / np.sqrt(d), U, U, beta=beta)[0]
print(f"\none modern step == attention with beta = {beta:g}: {np.allclose(step, attn)}")

"""The kinds of the pages beyond a single network's run: learning the memories (the held-out NLL),
attention and layer norm (the clouds' spread), several networks side by side, a trained
Transformer's head, and the capacity lab's measured capacity."""
from __future__ import annotations

import numpy as np

from .base import Kind, Option, Outcome, _falls, with_not_sure

# ------------------------------------------------------------------ learning the memories

HELD_OUT_FALLS = Kind("held_out_falls", "Will the held-out NLL be lower after training than at its start?")


def held_out_falls_options() -> list[Option]:
    return with_not_sure([Option("lower", "lower: the model fits data it never saw better"),
                          Option("same", "about the same (within 1 %)"),
                          Option("higher", "higher: it fits the training data at the held-out data's cost")])


def held_out_falls(held_nll: np.ndarray, train_nll: np.ndarray) -> Outcome:
    """The held-out NLL at the last step against step 0 (within 1 % of its size: the same)."""
    key, rel = _falls(held_nll)
    h, t = np.asarray(held_nll, dtype=np.float64), np.asarray(train_nll, dtype=np.float64)
    return Outcome(key, f"The held-out NLL went from {h[0]:.4f} to {h[-1]:.4f} ({100 * rel:+.1f} % of its "
                        f"start) while the training NLL went from {t[0]:.4f} to {t[-1]:.4f}.")


# ------------------------------------------------------------------ attention and layer norm

SPREAD = Kind("spread", "After all the layers, which cloud of tokens is spread wider: without layer norm or with it?")


def spread_options() -> list[Option]:
    return with_not_sure([Option("without", "without layer norm"), Option("with", "with layer norm"),
                          Option("same", "about the same (within 1 %)")])


def spread(plain: np.ndarray, normed: np.ndarray) -> Outcome:
    """The clouds' spread (mean distance to their centroid) after the last layer, attention and
    residual alone (`plain`) against the same followed by layer norm (`normed`), per layer."""
    a, b = float(np.asarray(plain)[-1]), float(np.asarray(normed)[-1])
    key = "same" if abs(a - b) <= 0.01 * max(a, b) else ("without" if a > b else "with")
    layers = len(np.asarray(plain)) - 1
    return Outcome(key, f"After {layers} layers the spread is {a:.4g} without layer norm and {b:.4g} with it "
                        f"(from {float(np.asarray(plain)[0]):.4g} at the start).")


# ------------------------------------------------------------------ several networks side by side

RETRIEVERS = Kind("retrievers", "How many of these networks will retrieve the pattern the query came from?")


def retrievers_options(n: int) -> list[Option]:
    return with_not_sure([Option(str(k), "none of them" if k == 0 else "all of them" if k == n else
                                 f"{k} of the {n}") for k in range(n + 1)])


def retrievers(verdicts: list, names: list[str], target: int | None, patterns: list[str]) -> Outcome:
    """How many runs (their analysis.verdict, the networks' `names`) ended on pattern `target`
    (None: the query is no stored pattern's, so any pattern retrieved counts)."""
    hit = [n for v, n in zip(verdicts, names)
           if v.kind == "retrieved" and (target is None or v.pattern == target)]
    what = "a stored pattern" if target is None else f"pattern {patterns[target]}"
    who = ", ".join(hit) if hit else "none of them"
    return Outcome(str(len(hit)), f"{len(hit)} of the {len(names)} networks retrieved {what}: {who}.")


# ------------------------------------------------------------------ a trained Transformer's head

HEAD_KIND = Kind("head_kind", "Iterated as a Hopfield network, what kind of state will this query's attention "
                              "settle into?")
HEAD_KIND_LABELS = {"retrieval": "retrieval: one or two tokens hold 90 % of the weight",
                    "metastable": "metastable: a few tokens share it",
                    "global": "global: about half the tokens or more share it"}


def head_kind_options() -> list[Option]:
    return with_not_sure([Option(k, label) for k, label in HEAD_KIND_LABELS.items()])


def head_kind(weights: np.ndarray, converged: bool) -> Outcome:
    """The kind of the last step's attention weights (N,) by k90 among the N tokens
    (heads.kinds: retrieval, metastable, global)."""
    from ..heads import kinds  # the heads' own rule, as the page states it

    p = np.asarray(weights, dtype=np.float64)
    k, n = kinds.k90(p), len(p)
    kind = kinds.kind_name(k, n)
    end = "at its fixed point" if converged else "at the step limit"
    return Outcome(kind, f"{end.capitalize()} k90 = {k} of {n} tokens: a {kind} state.")


# ------------------------------------------------------------------ capacity, measured

CAPACITY = Kind("capacity", "Up to what load N/d does the first classical network measured here still retrieve "
                            "(at least 90 % of its trials)?")
LOAD_BINS = (0.05, 0.10, 0.15, 0.20, 0.30)  # the edges of the bins of N/d
SUCCESS = 0.9


def capacity_options() -> list[Option]:
    edges = (0.0, *LOAD_BINS)
    options = [Option("none", "not even at the smallest load measured")]
    options += [Option(f"{lo:.2f}", f"from {lo:.2f} d to below {hi:.2f} d" if lo else f"below {hi:.2f} d")
                for lo, hi in zip(edges, edges[1:])]
    options += [Option(f"{LOAD_BINS[-1]:.2f}", f"{LOAD_BINS[-1]:.2f} d or more"),
                Option("all", "at every load measured")]
    return with_not_sure(options)


def capacity(n_patterns: np.ndarray, success: np.ndarray, d: int, name: str) -> Outcome:
    """The largest load N/d up to which every measured load retrieved in at least 90 % of the
    trials (success: the share of trials per N), as a bin of capacity_options."""
    n, ok = np.asarray(n_patterns), np.asarray(success) >= SUCCESS
    order = np.argsort(n)
    n, ok = n[order], ok[order]
    held = int(np.argmin(ok)) if not ok.all() else len(ok)  # the loads before the first failure
    rates = ", ".join(f"N = {int(k)}: {100 * r:.0f} %" for k, r in
                      zip(n[max(held - 1, 0):held + 1], np.asarray(success)[order][max(held - 1, 0):held + 1]))
    if held == 0:
        return Outcome("none", f"{name} already fails at the smallest load, N/d = {n[0] / d:.3f} ({rates}).")
    if held == len(ok):
        return Outcome("all", f"{name} retrieves at every load measured, up to N/d = {n[-1] / d:.3f}.")
    load = n[held - 1] / d
    key = next((f"{lo:.2f}" for lo, hi in zip((0.0, *LOAD_BINS), LOAD_BINS) if lo <= load < hi),
               f"{LOAD_BINS[-1]:.2f}")
    return Outcome(key, f"{name} retrieves up to N/d = {load:.3f} and fails from N/d = {n[held] / d:.3f} ({rates}).")



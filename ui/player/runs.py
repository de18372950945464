"""The networks' runs, shared read-only by every session: a network is built once per
(model, settings, patterns) and a run made once per (model, settings, patterns, query, run
options), within the run budgets of ui.serving.budget."""
from __future__ import annotations

import threading

import numpy as np
import streamlit as st

from ui.serving import budget, memory_gate, memory_plan
from ui.serving.byte_cache import ByteCache
from ui.serving.shared_cache import fingerprint
from ui.store.patterns import PatternSet


def build_model(kind: str, X: np.ndarray, cfg: dict):
    from hopfield_core import ClassicalHopfield, DenseAssociativeMemory, ModernHopfield

    if kind == "classical":
        return ClassicalHopfield(X, learning_rule=cfg.get("learning_rule", "hebbian"))
    if kind == "dense":
        return DenseAssociativeMemory(X, interaction=cfg.get("interaction", "polynomial"),
                                      degree=cfg.get("degree", 3), beta=cfg.get("beta", 1.0),
                                      rectified=cfg.get("rectified", False))
    if kind == "modern":
        return ModernHopfield(X, beta=cfg.get("beta", 1.0))
    raise ValueError(f"unknown model {kind!r}")


def _model_bytes(model) -> int:
    own = getattr(model, "nbytes", None)  # the classical and dense networks count their own
    return int(own) if own is not None else int(model.patterns.nbytes)


# the built networks, budget.MODELS_BYTES in all (least recently used out first)
MODELS = ByteCache("models", budget.MODELS_BYTES, size_of=_model_bytes)
_build_lock = threading.Lock()  # one network built at a time: their peaks never add up


def model_for(kind: str, cfg: tuple, fingerprint: str, _X: np.ndarray):
    """A model shared read-only by the runs and reruns that need its weights (never mutated):
    its weights are built once per (model, settings (sorted items), patterns (their
    fingerprint)), not once per query, and by one session at a time (a classical network of
    d = 3072 neurons holds a 38 MB weight matrix, 75 MB for the Storkey and pseudo-inverse
    rules); a network already kept is returned at once, even while another is being built."""
    def build():
        with _build_lock:
            return build_model(kind, _X, dict(cfg))

    key = (kind, cfg, fingerprint)
    # a network not kept yet reserves its peak before it asks the cache (ui/serving/memory_gate.py):
    # whoever builds a network holds its bytes already, so a run waiting for it never waits
    # for a thread that waits for memory; within a run (ui.player.runs.run) this reserves nothing more
    need = 0 if key in MODELS else budget.network_bytes(kind, _X.shape[1], len(_X), dict(cfg))[1]
    with memory_gate.reserve(need):
        return MODELS.get(key, build)


# the runs of every session, bounded by bytes (ui/serving/memory_plan.py): a trajectory of d = 3072
# neurons holds 25 kB a step, and a run up to the budget some 36 MB
RUNS = ByteCache("runs", memory_plan.RUNS_BYTES)


def run_key(kind: str, cfg: dict, ps: PatternSet, q: np.ndarray, run_kwargs: dict) -> tuple:
    """What a run is made of: the model, its settings, the patterns (their fingerprint), the
    query (its content) and the run's options."""
    return (kind, tuple(sorted(cfg.items())), ps.fingerprint, fingerprint(q),
            tuple(sorted(run_kwargs.items())))


def run(kind: str, cfg: dict, ps: PatternSet, q: np.ndarray, *, share: float = 1.0, **run_kwargs):
    """model.run(q, **run_kwargs), computed once per run_key and kept in RUNS.

    The step limit is cut to what fits in `share` of one run's CPU and memory budgets
    (ui.serving.budget), with a sentence on the page when it is: no student can hold the shared server
    for long, or fill its memory. A network too large for the memory budget is refused: the
    page stops there with a sentence that names the limit and what to lower."""
    requested, mode = int(run_kwargs.get("max_steps", 100)), run_kwargs.get("mode", "")
    pixels = ps.shape[0] * ps.shape[1]
    steps, note = budget.run_cap(kind, mode, ps.d, ps.N, requested, share, cfg, pixels)
    if steps == 0:
        st.error(note, icon=":material/memory:")
        st.stop()
    run_kwargs["max_steps"] = steps
    key = run_key(kind, cfg, ps, q, run_kwargs)

    def make():  # the run's estimated peak is held while it computes (ui/serving/memory_gate.py)
        with memory_gate.reserve(budget.run_bytes(kind, mode, ps.d, ps.N, steps, cfg, pixels)):
            return model_for(kind, key[1], ps.fingerprint, ps.X).run(q, **run_kwargs)
    traj = RUNS.get(key, make)
    if note and traj.steps >= steps and not traj.converged:
        st.caption(note)  # only when the cut mattered: a run that settled earlier lost nothing
    return traj

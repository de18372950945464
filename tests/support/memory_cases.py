"""The heavy computations of every page at the sizes a link allows, with their memory estimates:
what tests/ui/serving/test_memory_budget.py measures against the estimates, and what
benchmarks/bench_page_memory.py reports."""
from __future__ import annotations

import functools
import math
import tracemalloc
from dataclasses import dataclass
from typing import Callable

import numpy as np
import streamlit as st

from hopfield_core import (
    ClassicalHopfield,
    DenseAssociativeMemory,
    ModernHopfield,
    binary_landscape,
    classical,
    compare,
    dense,
    ebm,
    ebm_data,
    expfamily,
    hopfield_attention,
    landscape,
    metastable,
    reference,
)
from tests.support.apptest import open_app
from tests.support.memory_probe import traced_peak
from ui.player import player_cache, runs
from ui.serving import budget, byte_cache
from ui.store.patterns import PatternSet

SMALL = dict(d=256, N=3, shape=(16, 16))        # the sidebar's default: H, O, X at 16 x 16


LARGE = dict(d=3072, N=40, shape=(32, 32, 3))   # the largest: 32 x 32 in colour, a full store


SIZES = {"small": SMALL, "large": LARGE}


def torch_peak(fn: Callable) -> int:
    """Peak bytes of PyTorch's CPU tensors while fn() runs: the profiler records each
    allocation and free; their running sum, in time order, peaks here."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        fn()
    events = sorted((e for e in prof.events() if e.self_cpu_memory_usage),
                    key=lambda e: e.time_range.start)
    live = peak = 0
    for e in events:
        live += e.self_cpu_memory_usage
        peak = max(peak, live)
    return peak


@dataclass(frozen=True)
class Case:
    """One heavy computation at one size: what it is, how to run it, its estimate."""

    page: str
    what: str
    run: Callable
    estimate: int
    torch: bool = False  # measured by torch's profiler (else tracemalloc)

    def measure(self) -> int:
        return torch_peak(self.run) if self.torch else traced_peak(self.run)


def bipolar(N: int, d: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).choice([-1.0, 1.0], size=(N, d))


def unit_rows(N: int, d: int, seed: int = 0) -> np.ndarray:
    X = np.random.default_rng(seed).standard_normal((N, d))
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def app_run(kind: str, cfg: dict, ps: PatternSet, q: np.ndarray, **kwargs) -> tuple:
    """What ui.player.runs.run and ui.player.player_cache make of one run, without Streamlit: the network
    built, the run (ui.player.runs.RUNS keeps it as it is) and the player's analysis of it (the
    frames as bytes and the overlaps, kept by ui.player.player_cache.PLAYER). Returns what they keep."""
    traj = runs.build_model(kind, ps.X, cfg).run(q, **kwargs)
    return traj, player_cache.analyse(traj, ps)


def page_runs(runs: list, binary: PatternSet, continuous: PatternSet, q, qc, pixels: int):
    """(the runs of one page, one after the other, each kept as the caches keep it; the sum of
    their estimates). runs: (kind, cfg, mode, steps, run kwargs)."""
    def run():
        return [app_run(kind, cfg, continuous if kind == "modern" else binary,
                        qc if kind == "modern" else q, max_steps=steps, **kw)
                for kind, cfg, mode, steps, kw in runs]
    return run, sum(budget.run_bytes(kind, mode, binary.d, binary.N, steps, cfg, pixels)
                    for kind, cfg, mode, steps, kw in runs)


def cases(size: str) -> list[Case]:
    """Every heavy computation of the pages at `size`, with the largest steps a run may take
    there (the caps of ui.serving.budget) and its estimate."""
    d, N, shape = SIZES[size]["d"], SIZES[size]["N"], SIZES[size]["shape"]
    pixels = shape[0] * shape[1]
    Xb, Xc = bipolar(N, d), unit_rows(N, d)
    q = Xb[0].copy()
    q[: d // 4] *= -1
    qc = Xc[0] + 0.3 / math.sqrt(d)
    binary = PatternSet(Xb, shape, tuple(f"x{i}" for i in range(N)), True, f"b{size}")
    continuous = PatternSet(Xc, shape, binary.names, False, f"c{size}")
    out: list[Case] = []

    for rule in classical.LEARNING_RULES:
        out.append(Case("classical", f"network built, {rule} rule",
                        lambda rule=rule: ClassicalHopfield(Xb, learning_rule=rule),
                        classical.build_bytes(N, d, rule)))
    hebb = ClassicalHopfield(Xb)
    for mode in ("sync", "async"):  # at T = 1 a run never settles: all its steps are taken
        steps = budget.run_cap("classical", mode, d, N, 200, cfg={}, pixels=pixels)[0]
        out.append(Case("classical", f"run, {mode}, {steps} steps",
                        lambda mode=mode, steps=steps: hebb.run(q, mode=mode, max_steps=steps,
                                                               rng=0, temperature=1.0),
                        classical.run_bytes(N, d, steps, mode)))
        out.append(Case("classical", f"run as the page makes it, {mode}, {steps} steps",
                        lambda mode=mode, steps=steps: app_run(
                            "classical", {}, binary, q, mode=mode, max_steps=steps, rng=0,
                            temperature=1.0),
                        budget.run_bytes("classical", mode, d, N, steps, {}, pixels)))
    for mode in ("sync", "async"):
        steps = min(5, budget.run_cap("dense", mode, d, N, 200, 0.5, pixels=pixels)[0])
        net = DenseAssociativeMemory(Xb, degree=10)
        out.append(Case("dense", f"run, degree 10, {mode}, {steps} steps",
                        lambda mode=mode, steps=steps, net=net: net.run(
                            q, mode=mode, max_steps=steps, rng=0, readable=True),
                        dense.run_bytes(N, d, steps, mode)))
    def capped(kind, mode, share, cfg, requested=200):
        return budget.run_cap(kind, mode, d, N, requested, share, cfg, pixels)[0]

    hot = dict(mode="sync", rng=0, temperature=1.0)  # never settles: every step is taken
    steady = dict(tol=0.0, gamma=0.001)
    poly, expo = {"interaction": "polynomial", "degree": 10}, {"interaction": "exponential"}
    for page, made in (
            ("dense", [("dense", poly, "sync", min(5, capped("dense", "sync", 0.5, poly)),
                        dict(mode="sync", rng=0)),
                       ("classical", {}, "sync", capped("classical", "sync", 0.5, {}), hot)]),
            ("side_by_side", [  # the shares of app_pages/side_by_side.py
                ("classical", {}, "sync", capped("classical", "sync", 0.3, {}), hot),
                ("dense", poly, "sync", min(5, capped("dense", "sync", 0.3, poly)),
                 dict(mode="sync", rng=0)),
                ("dense", expo, "sync", min(5, capped("dense", "sync", 0.3, expo)),
                 dict(mode="sync", rng=0)),
                ("modern", {"beta": 1.0}, "", capped("modern", "", 0.1, {"beta": 1.0}),
                 steady)])):
        fn, need = page_runs(made, binary, continuous, q, qc, pixels)
        out.append(Case(page, "every run of the page, as the page makes them", fn, need))
    long = budget.run_cap("modern", "", d, N, 2000, pixels=pixels)[0]
    slow = ModernHopfield(Xc, beta=1.0)  # gamma = 0.001 and tol = 0: every step is taken
    out.append(Case("modern", f"run, {long} steps",
                    lambda: slow.run(qc, max_steps=long, tol=0.0, gamma=0.001),
                    budget.modern_run_bytes(N, d, long)))
    out.append(Case("modern", f"run as the page makes it, {long} steps",
                    lambda: app_run("modern", {"beta": 1.0}, continuous, qc, max_steps=long,
                                    tol=0.0, gamma=0.001),
                    budget.run_bytes("modern", "", d, N, long, {"beta": 1.0}, pixels)))
    betas = [float(b) for b in metastable.log_grid(0.1, 1e4)]
    sweep = budget.sweep_steps(d, N, len(betas), 2000)
    out.append(Case("modern", f"beta sweep, {len(betas)} runs of {sweep} steps",
                    lambda: metastable.beta_sweep(Xc, qc, betas, max_steps=sweep, tol=0.0,
                                                  gamma=0.001),
                    budget.sweep_bytes(d, N, len(betas), sweep)))

    plane = landscape.pca_plane(Xc) if N >= 3 else None
    axis = landscape.grid_axis(-1, 1, 61)
    out.append(Case("landscape", "energy on a plane, 61 x 61",
                    lambda: landscape.plane_energy_grid(ModernHopfield(Xc, 10.0).energy, plane,
                                                        axis, axis),
                    landscape.grid_bytes(61 * 61, d, N)))
    ts = np.linspace(-0.25, 1.25, 301)
    out.append(Case("landscape", "a line between two patterns, 4 betas",
                    lambda: landscape.slice_energies(Xc, 0, 1, ts, [2.0, 5.0, 20.0, 50.0]),
                    landscape.line_bytes(301, d, N, 4)))
    out.append(Case("landscape", "barrier on the line", lambda: landscape.barrier(Xc, 0, 1, 5.0),
                    landscape.line_bytes(401, d, N)))
    bd = 10 if size == "small" else binary_landscape.MAX_EXHAUSTIVE_D
    for name, net in (("classical", ClassicalHopfield(bipolar(5, bd))),
                      ("dense", DenseAssociativeMemory(bipolar(5, bd), degree=3))):
        out.append(Case("landscape", f"every state, d = {bd}, {name}",
                        lambda net=net: binary_landscape.binary_landscape(net),
                        binary_landscape.binary_bytes(bd, 5)))
    points = ModernHopfield(unit_rows(6, 2), 5.0)
    world = landscape.grid_axis(-2, 2, 121)
    out.append(Case("landscape", "the 2-D world, 121 x 121",
                    lambda: landscape.world_energy_grid(points, world, world),
                    landscape.grid_bytes(121 * 121, 2, 6)))

    Q = np.vstack([qc, Xc + 0.1])  # the query and every stored pattern, corrupted
    dk, heads = (16, 1) if size == "small" else (64, 4)
    proj = compare.random_projections(d, dk, heads=heads, seed=0)
    out.append(Case("attention", f"projections, d_k = {dk}, {heads} heads",
                    lambda: compare.random_projections(d, dk, heads=heads, seed=0),
                    compare.projection_bytes(d, dk, heads)))
    out.append(Case("attention", f"attention of {len(Q)} queries, projected",
                    lambda: hopfield_attention(Q, Xc, Xc, beta=0.1, heads=heads,
                                               return_weights=True, W_Q=proj.W_Q,
                                               W_K=proj.W_K, W_V=proj.W_V),
                    compare.attention_bytes(len(Q), N, d, dk, heads)))
    out.append(Case("attention", "PyTorch's check of it",
                    lambda: reference.sdpa(Q, Xc, Xc, 0.1, heads, proj),
                    budget.attention_check_bytes(len(Q), N, d, dk, heads), torch=True))
    out.append(Case("attention", "attention = Hopfield step, checked",
                    lambda: compare.hopfield_step_gap(Q, Xc, 0.1),
                    compare.step_gap_bytes(len(Q), N, d)))
    out.append(Case("attention", "iterated, T = 50", lambda: compare.iterate_attention(qc, Xc, 50),
                    compare.iterate_bytes(N, d, 50)))

    n_img = N  # one image a pattern: the page's largest
    adam = budget.learn_cap(n_img, N, d, 400)[0]
    out.append(Case("learning", f"{N} patterns from {n_img} images, {adam} Adam steps",
                    lambda: ebm.Trainer(ebm_data.initial_patterns(N, d, 0, 0.1), Xc, 1.0, 0.05,
                                        keep_path=False).step(adam),
                    ebm.train_bytes(n_img, N, d, adam, keep_path=False)))
    n_pts, n_pat, per_frame = (300, 6, 5) if size == "small" else (1000, 16, 10)
    train, held = ebm_data.split(ebm_data.dataset("clusters", n_pts, 0), 0.25, 0)
    out.append(Case("learning", f"{n_pat} patterns from {n_pts} points, every frame kept",
                    lambda: ebm.Trainer(ebm_data.initial_patterns(n_pat, 2, 0), train, 2.0, 0.05,
                                        held_out=held).step(60 * per_frame),
                    ebm.train_bytes(len(train), n_pat, 2, 60 * per_frame, len(held))))

    hessian = d <= 256
    out.append(Case("attention_family", f"the family of {N} keys, d = {d}",
                    lambda: _family(Xc, qc, hessian), expfamily.family_bytes(N, d, hessian)))
    out.append(Case("attention_family", "its gradient (and Hessian) by autograd",
                    lambda: _family_autograd(Xc, qc, hessian),
                    reference.log_normalizer_bytes(N, d, hessian), torch=True))
    n_tok, dim, layers = (32, 3, 10) if size == "small" else (200, 3, expfamily.MAX_LAYERS)
    cloud = expfamily.token_cloud("blob", n_tok, dim, 0)
    out.append(Case("attention_family", f"{layers} layers of {n_tok} tokens, with and without LN",
                    lambda: (expfamily.token_layers(cloud, layers, 1.0),
                             expfamily.token_layers(cloud, layers, 1.0, layer_norm=True)),
                    2 * expfamily.layers_bytes(n_tok, dim, layers)))
    return out + et_cases(size)


def et_cases(size: str) -> list[Case]:
    """The Energy Transformer: a completion of T steps and one spectrum of M."""
    from hopfield_core.et import load_pretrained
    from hopfield_core.et.complete import complete_bytes
    from hopfield_core.et.descent import spectrum, spectrum_bytes
    from hopfield_core.et.inspect import attention, inspect_bytes, memory_use
    from hopfield_core.et.masks import random_mask
    from hopfield_core.presets import preset_image
    from ui.pages.energy_transformer.settings import MAX_STEPS

    et = _et(load_pretrained)
    image, mask = preset_image("photos", "coffee", et.cfg.image_size), random_mask(et.cfg.grid, 0.5, 0)
    T = et.cfg.steps if size == "small" else MAX_STEPS
    tokens = et.complete(image, mask, steps=2).tokens[-1]
    run_tokens = functools.lru_cache(lambda n: et.complete(image, mask, steps=n).tokens)
    return [Case("energy_transformer", f"completion, T = {T}",
                 lambda: et.complete(image, mask, steps=T), complete_bytes(et.cfg, T), torch=True),
            Case("energy_transformer", "the spectrum of M on one step's tokens",
                 lambda: spectrum(et.model, tokens), spectrum_bytes(*tokens.shape), torch=True),
            Case("energy_transformer", f"memory use on {T} steps' tokens",
                 lambda: memory_use(et.model, run_tokens(T)), inspect_bytes(et.cfg, T), torch=True),
            Case("energy_transformer", f"one patch's attention on {T} steps' tokens",
                 lambda: attention(et.model, run_tokens(T), 27), inspect_bytes(et.cfg, T),
                 torch=True)]


_ET = []


def _et(load):
    if not _ET:
        _ET.append(load("cpu"))
    return _ET[0]


def _family(K, q, hessian):
    """Section 1 of the exponential-family page: every number it shows."""
    out = [expfamily.attention_weights(K, q, 8.0), expfamily.log_normalizer(K, q, 8.0),
           expfamily.log_normalizer_grad(K, q, 8.0), expfamily.hessian_spectrum(K, q, 8.0)]
    if hessian:
        out.append(expfamily.log_normalizer_hessian(K, q, 8.0))
    return out


def _family_autograd(K, q, hessian):
    return (reference.log_normalizer_grad(K, q, 8.0),
            reference.log_normalizer_hessian(K, q, 8.0) if hessian else None)


STORE = ",".join([f"letters/{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
                 + [f"digits/{i}" for i in range(10)]
                 + ["shapes/circle", "shapes/square", "shapes/triangle", "shapes/cross"])


BIG = {"size": "32", "colour": "1", "presets": STORE}  # d = 3072, 40 patterns


LINKS = [  # the largest values a link can ask for, page by page
    ("classical", {**BIG, "rule": "storkey", "mode": "sync", "steps": "200", "T": "1.0", "W": "1"}),
    ("classical", {**BIG, "rule": "pseudoinverse", "steps": "200", "T": "1.0"}),
    ("dense", {**BIG, "mode": "sync", "steps": "200", "n": "10"}),
    ("modern", {**BIG, "steps": "2000", "gamma": "0.01", "beta": "7"}),
    ("modern", {**BIG, "steps": "2000", "gamma": "0.01", "view": "step"}),
    ("side_by_side", {**BIG, "steps": "200", "mode": "sync", "degree": "10"}),
    ("landscape", {**BIG, "view": "plane", "psteps": "200"}),
    ("landscape", {**BIG, "view": "slice", "betas": "2,5,20,50"}),
    ("landscape", {"view": "states", "bd": "16", "bn": "5"}),
    ("attention", {**BIG, "proj": "random", "dk": "64", "heads": "4", "all": "1",
                   "T": "50"}),
    ("learning", {**BIG, "view": "images", "img_N": "40", "img_steps": "400"}),
    ("learning", {"n": "1000", "N": "16", "per_frame": "10"}),
    ("energy_transformer", {"steps": "100"}),
    ("attention_family", {**BIG, "view": "family"}),
    ("attention_family", {"view": "cloud", "n": "200", "layers": "20"}),
]


def fresh_caches():
    st.cache_data.clear()
    st.cache_resource.clear()
    byte_cache.clear_all()


def page_peak(page: str, query: dict):
    """(the AppTest, the peak bytes traced while the link opens the page), caches cleared so
    that everything is computed, the page's imports done before."""
    open_app(page)
    fresh_caches()
    tracemalloc.start()
    try:
        at = open_app(page, query=query)
        return at, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def same_value(a, b) -> bool:
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return a == b


TORCH_PAGES = {  # what PyTorch allocates beside (tracemalloc does not see it): its estimate
    "attention": lambda: budget.attention_check_bytes(41, 40, 3072, 64, 4),
    "energy_transformer": lambda: _et_estimate(),
}


def _et_estimate():
    from hopfield_core.et.complete import complete_bytes
    from hopfield_core.et.descent import spectrum_bytes
    from ui.pages.energy_transformer.settings import MAX_STEPS, SHIPPED

    return max(complete_bytes(SHIPPED, MAX_STEPS), spectrum_bytes(SHIPPED.n_patches, SHIPPED.dim))

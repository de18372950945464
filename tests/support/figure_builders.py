"""Every public Plotly builder of the app, called on small data (name -> (call, its integer step
axes)): the chart style and contrast tests run each."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from hopfield_core import ebm
from ui.charts import figures, style
from ui.pages.attention import figures as at_figures
from ui.pages.attention_family import figures as f_exp
from ui.pages.capacity_lab import figures as f_capacity
from ui.pages.dense import figures as f_dense
from ui.pages.energy_transformer import figures as f_et
from ui.pages.landscape import figures as f_landscape
from ui.pages.learning import figures as f_ebm
from ui.pages.modern import figures as f_modern
from ui.pages.side_by_side import figures as sbs_figures
from ui.pages.transformer_heads import figures as f_heads

RNG = np.random.default_rng(1)


LONG = ["H", "astronaut phone 4000x3000", "X", "a very long uploaded file name.png", "O", "moon"]


MODULES = {"figures": figures, "side_by_side.figures": sbs_figures,
           "attention.figures": at_figures, "f_capacity": f_capacity,
           "f_dense": f_dense, "f_ebm": f_ebm, "f_et": f_et, "f_exp": f_exp,
           "f_landscape": f_landscape, "f_modern": f_modern, "f_heads": f_heads}


T = 30  # steps of the runs below


def _curve(n):
    return SimpleNamespace(variant="modern", n_patterns=np.array([2, 4, 8]), load=np.array([.1, .2, .4]),
                           success=np.array([1, .5, 0]), mean_overlap=np.array([1, .6, .2]),
                           guaranteed=np.array([1, .2, 0]), params={"beta": 1.0})


def _bar():
    return SimpleNamespace(height=0.1, t_max=0.5, e_max=1.0)


E = np.cumsum(-RNG.random(T + 1))


IMG = RNG.random((8, 8, 3))


us = np.linspace(-1, 1, 9)


# name -> (builder call, {axis name: (first, last)} of its integer axes)
BUILDERS = {
    "figures.image": (lambda: figures.image(IMG, "Original"), {}),
    "figures.energy_curve": (lambda: figures.energy_curve(E, 0, np.array([3])), {"xaxis": (0, T)}),
    "figures.overlap_bars": (lambda: figures.overlap_bars(RNG.uniform(-1, 1, 6), LONG), {}),
    "figures.weight_bars": (lambda: figures.weight_bars(np.full(6, 1 / 6), LONG), {}),
    "figures.matrix_heatmap": (lambda: figures.matrix_heatmap(RNG.random((256, 256)), "W"), {}),
    "side_by_side.figures.image_row": (lambda: sbs_figures.image_row([IMG] * 4, LONG[:4]), {}),
    "side_by_side.figures.energy_small_multiples": (lambda: sbs_figures.energy_small_multiples(
        [E, E[:3], E[:8], E[:12]], LONG[:4]),
        {"xaxis": (0, T), "xaxis2": (0, 2), "xaxis3": (0, 7), "xaxis4": (0, 11)}),
    "side_by_side.figures.energies_normalised": (lambda: sbs_figures.energies_normalised(
        [np.linspace(1, 0, 5), np.linspace(1, 0, 9)], LONG[:2]), {"xaxis": (0, 8)}),
    "attention.figures.attention_heatmaps": (lambda: at_figures.attention_heatmaps(
        RNG.random((3, 2, 6)), ["query", "2. X (corrupted)"], style.numbered(LONG), "W"), {}),
    "attention.figures.image_strip": (lambda: at_figures.image_strip([IMG] * 5, list("abcde")), {}),
    "attention.figures.change_chart": (lambda: at_figures.change_chart(
        np.r_[np.logspace(0, -5, 9), 0.0], tol=1e-6), {"xaxis": (1, 10)}),
    "f_capacity.curves_figure": (lambda: f_capacity.curves_figure(
        [_curve(3)], {"modern": "Modern continuous"}, 20, 0.0, 3, True), {}),
    "f_capacity.basin_figure": (lambda: f_capacity.basin_figure(SimpleNamespace(
        n_patterns=np.array([2, 4, 8, 16]), flips=np.array([0, .1, .2]), success=RNG.random((3, 4)),
        d=20), "Classical"), {}),
    "f_capacity.phase_figure": (lambda: f_capacity.phase_figure(SimpleNamespace(
        n_patterns=np.array([2, 4, 8]), d=20, temperatures=np.array([0, .5, 1]),
        overlap=RNG.random((3, 3)), loads=np.array([.1, .2, .4])),
        (np.array([0, .1]), np.array([1, .5])), 0.138), {}),
    "f_dense.stable_bars": (lambda: f_dense.stable_bars(LONG, [0, 1, 2, 3, 4, 5], 5, LONG[1]), {}),
    "f_dense.interaction_curves": (lambda: f_dense.interaction_curves(
        np.arange(10), {"n = 2": RNG.random(10), "n = 3": RNG.random(10), "exp": RNG.random(10)},
        "n = 3", d=64), {}),
    "f_ebm.plane": (lambda: f_ebm.plane(RNG.normal(size=(4, 3, 2)), 2,
                                        ebm.plane_grid(RNG.normal(size=(3, 2)), 1.0, "density",
                                                       3.0, 41), "density",
                                        RNG.normal(size=(20, 2)), RNG.normal(size=(5, 2)), True,
                                        "p"), {}),
    "f_ebm.nll_curves": (lambda: f_ebm.nll_curves(np.arange(41) * 5, RNG.random(41), RNG.random(41),
                                                  50), {"xaxis": (0, 200)}),
    "f_ebm.samples": (lambda: f_ebm.samples(RNG.normal(size=(9, 2)), RNG.normal(size=(9, 2))), {}),
    "f_et.energy": (lambda: f_et.energy(E, 0), {"xaxis": (0, T)}),
    "f_et.error": (lambda: f_et.error(RNG.random(T + 1), 0.5, T), {"xaxis": (0, T)}),
    "f_et.parts": (lambda: f_et.parts(E, 2 * E, 5), {"xaxis": (0, T)}),
    "f_et.attention": (lambda: f_et.attention(RNG.dirichlet(np.ones(64), 4), RNG.random((8, 8)) < 0.5,
                                              27, 3), {}),
    "f_et.rate": (lambda: f_et.rate(-np.logspace(2, -3, 9), np.cumsum(-np.logspace(2, -3, 9)), 0.1, 8),
                  {"xaxis": (0, 8)}),
    "f_exp.cloud": (lambda: f_exp.cloud(RNG.normal(size=(12, 3)), "c", "red"), {}),
    "f_exp.spread_curves": (lambda: f_exp.spread_curves({"without": np.logspace(0, 3, 13),
                                                         "with": np.ones(13)}, 4, "s", "y"),
                            {"xaxis": (0, 12)}),
    "f_exp.energy_curves": (lambda: f_exp.energy_curves(E[:7], E[:7] * 2), {"xaxis": (0, 6)}),
    "f_exp.eigen_bars": (lambda: f_exp.eigen_bars(RNG.random(24)), {"xaxis": (1, 24)}),
    "f_landscape.world": (lambda: f_landscape.world(us, us, RNG.random((9, 9)), RNG.random((3, 2)),
                                                    RNG.random((4, 2)), np.linspace(-1, 1, 5), "w"), {}),
    "f_landscape.plane": (lambda: f_landscape.plane(us, us, RNG.random((9, 9)), RNG.random((3, 2)),
                                                    LONG[:3], RNG.random((4, 2)), list("abcd"), "p"), {}),
    "f_landscape.slice_chart": (lambda: f_landscape.slice_chart(
        np.linspace(0, 1, 5), RNG.random((3, 5)), [2, 5, 20], [_bar()] * 3, "H", "O"), {}),
    "f_landscape.state_cloud": (lambda: f_landscape.state_cloud(
        RNG.random(20), RNG.random(20), np.ones(20), RNG.random(4), RNG.random(4),
        ["stored", "mirror", "mixture", "spurious"], list("abcd"), "overlap"), {}),
    "f_modern.weights_heatmap": (lambda: f_modern.weights_heatmap(RNG.random((T + 1, 6)), LONG), {}),
    "f_modern.sweep_chart": (lambda: f_modern.sweep_chart(
        np.logspace(-1, 2, 4), np.array([3, 2, 1, 1]), ["global", "metastable", "single", "single"],
        np.ones(4), 3, current=1.0, bound_beta=10.0), {}),
    "f_modern.energy_by_gamma": (lambda: f_modern.energy_by_gamma(
        {"gamma = 1": E[:4], "gamma = 0.5": E[:12], "gamma = 0.1": E}), {"xaxis": (0, T)}),
    "f_heads.head_map": (lambda: f_heads.head_map(RNG.integers(0, 3, (6, 12)),
                                                  RNG.integers(1, 20, (6, 12)), 20, "Kinds"), {}),
    "f_heads.attention_bars": (lambda: f_heads.attention_bars(np.full(6, 1 / 6), LONG, "Attention"), {}),
}

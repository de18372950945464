"""Every figure builder's output goes through the house style (ui/chart_style.py): legends in a
band above the plot, step axes from half a step before 0 to half a step past the last step
with whole-number ticks, never rotated; category labels that fit; heatmaps over a matrix's
indices from 0. And tables (ui/tables.py) whose columns fit the narrowest main column."""
import inspect
import math
from types import SimpleNamespace

import numpy as np
import plotly.graph_objects as go
import pytest

from hopfield_core import ebm

from ui import chart_style as style
from ui import figures, tables
from ui.attention import figures as at_figures
from ui.side_by_side import figures as sbs_figures
from ui.capacity_lab import figures as f_capacity
from ui.charts import for_projector
from ui.dense import figures as f_dense
from ui.learning import figures as f_ebm
from ui.energy_transformer import figures as f_et
from ui.attention_family import figures as f_exp
from ui.landscape import figures as f_landscape
from ui.modern import figures as f_modern
from ui.transformer_heads import figures as f_heads

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


def test_every_builder_is_checked():
    """A new builder (a public function annotated `-> go.Figure`) must join BUILDERS."""
    found = set()
    for prefix, mod in MODULES.items():
        for name, fn in inspect.getmembers(mod, inspect.isfunction):
            if fn.__module__ == mod.__name__ and not name.startswith("_") and \
                    inspect.signature(fn).return_annotation in ("go.Figure", go.Figure) and \
                    name not in ("figure", "make"):
                found.add(f"{prefix}.{name}")
    assert found == set(BUILDERS)


FULL_WIDTH = {"side_by_side.figures.energies_normalised", "f_modern.sweep_chart",  # at least 540 px
              "f_modern.energy_by_gamma", "f_exp.energy_curves", "f_landscape.slice_chart",
              "f_landscape.state_cloud"}


def legend_entries(fig):
    return [t.name for t in fig.data if "showlegend" in t and t.showlegend is not False and
            t.type not in ("heatmap", "contour")]


@pytest.mark.parametrize("name", BUILDERS)
def test_the_legend_sits_above_the_plot_or_there_is_none(name):
    fig = BUILDERS[name][0]()
    L = fig.layout
    if L.showlegend is False:  # no legend drawn at all
        return
    assert L.showlegend is True  # never left to Plotly, whose default legend sits beside the plot
    names = legend_entries(fig)
    assert L.legend.orientation == "h" and L.legend.yref == "container" and L.legend.yanchor == "top"
    top_px = (1 - L.legend.y) * L.height
    rows = style.legend_rows(names, 540 if name in FULL_WIDTH else style.NARROW_PX)
    # the legend's band ends before the plot begins: in paper units it lies above y = 1
    assert top_px + rows * style.LEGEND_ROW_PX <= L.margin.t
    if L.title.text:  # and it starts below the title
        assert top_px >= style.TITLE_PX - 1 and L.title.yref == "container"
    big = for_projector(fig)  # the presenter's copy keeps the band, scaled with the fonts
    big_top = (1 - big.layout.legend.y) * big.layout.height
    assert big_top + rows * style.LEGEND_ROW_PX * 1.5 <= big.layout.margin.t + 1


def _plotly_dtick(span: float, nt: float) -> float:
    """Plotly's automatic tick spacing on a linear axis (plotly.js axes.autoTicks): the rough
    spacing span / nt rounded up to 1, 2 or 5 times a power of ten; nt follows the axis's
    length in pixels, from 5 to 10."""
    rough = span / nt
    base = 10 ** math.floor(math.log10(rough))
    return base * next(m for m in (1, 2, 5, 10) if m >= rough / base - 1e-9)


@pytest.mark.parametrize("name", [n for n, (_, axes) in BUILDERS.items() if axes])
def test_step_axes_span_the_run_with_whole_number_ticks(name):
    build, axes = BUILDERS[name]
    fig = build()
    for axis_name, (first, last) in axes.items():
        ax = fig.layout[axis_name]
        assert list(ax.range) == [first - 0.5, last + 0.5], axis_name
        assert ax.tickangle == 0 and ax.tickformat == "d"
        if ax.tickmode == "linear":
            assert ax.dtick == 1 and last - first <= style.FEW_TICKS
        else:  # Plotly picks the ticks from the width: whole numbers at any width
            for nt in (5, 6, 7.5, 10):
                step = _plotly_dtick(last - first + 1, nt)
                assert step >= 1 and step == int(step), (axis_name, nt, step)
    on_steps = [t for t in fig.data if t.type == "scatter" and (t.xaxis or "x") == "x"]
    assert all(t.cliponaxis is False for t in on_steps if t.mode and "markers" in t.mode)


def test_no_builder_rotates_its_ticks_and_category_labels_fit():
    for name, (build, _) in BUILDERS.items():
        fig = build()
        for key in fig.layout.to_plotly_json():
            if key.startswith(("xaxis", "yaxis")):
                ax = fig.layout[key]
                assert ax.tickangle in (None, 0), (name, key)
                if ax.ticktext and key.startswith("xaxis"):
                    width = sum(len(t) * style.CHAR_PX + 8 for t in ax.ticktext)
                    assert width <= style.NARROW_PX - style.AXIS_PX, (name, ax.ticktext)


def test_long_names_are_numbered_cut_and_whole_on_hover():
    fig = figures.overlap_bars(RNG.uniform(-1, 1, 6), LONG)
    assert list(fig.data[0].x) == style.numbered(LONG)  # hover shows %{x}: the full name
    text = list(fig.layout.xaxis.ticktext)
    assert all(t.split(".")[0].isdigit() for t in text)
    assert max(len(t) for t in text) <= style.LABEL_CHARS
    few = figures.overlap_bars(np.ones(2), ["astronaut phone 4000x3000", "H"])
    first, second = few.layout.xaxis.ticktext
    assert first.startswith("1. astr") and first.endswith("…") and second == "2. H"
    four = figures.overlap_bars(np.ones(4), ["H", "O", "X", "astronaut phone 4000x3000"])
    assert list(four.layout.xaxis.ticktext) == ["1", "2", "3", "4"]  # no room for names: numbers
    many = figures.overlap_bars(np.ones(40), [f"pattern {i}" for i in range(40)])
    shown = list(many.layout.xaxis.tickvals)
    assert 1 < len(shown) < 40 and shown[0] == "1. pattern 0"  # every k-th labelled


def test_heatmaps_of_a_matrix_start_at_index_0():
    fig = figures.matrix_heatmap(RNG.random((256, 256)) - 0.5, "W")
    heat = fig.data[0]
    assert heat.x[0] == 0 and heat.y[0] == 0 and heat.x[-1] == 255
    assert list(fig.layout.xaxis.range) == [-0.5, 255.5]
    assert list(fig.layout.yaxis.range) == [255.5, -0.5]  # row 0 on top
    # a square aspect shrinks the frame (domain), never widens the range past the matrix
    assert fig.layout.xaxis.constrain == "domain" and fig.layout.yaxis.constrain == "domain"
    assert len(fig.layout.xaxis.title.text) > 1 and len(fig.layout.yaxis.title.text) > 1
    steps = f_modern.weights_heatmap(RNG.random((T + 1, 3)), ["a", "b", "c"])
    assert list(steps.layout.yaxis.range) == [T + 0.5, -0.5] and steps.data[0].y[0] == 0


def test_legend_rows_pack_entries_left_to_right():
    assert style.legend_rows(["a", "b"], 300) == 1
    assert style.legend_rows(["x" * 30, "y" * 30], 300) == 2
    assert style.legend_rows(["x" * 100], 300) == 1  # one entry never takes two rows of room
    assert style.tick_labels(["1. astronaut", "2. H"], 1000) == ["1. astronaut", "2. H"]
    assert style.tick_labels(style.numbered(list("abcdefghij")), 100) == [str(i) for i in range(1, 11)]


SUMMARY = {"Network": ["Classical (1982)", "Dense polynomial", "Dense exponential", "Modern continuous"],
           "Retrieved?": ["yes", "no", "another pattern", "yes"], "Steps": [2, 12, 2, 103],
           "Converged": [True, False, True, True], "Final energy (as plotted)": [-127.63, -0.99, 0.0, 0.05],
           "Settings": ["async", "async, n = 3", "async, β = 0.25", "β = 20"],
           "Verdict": ["Retrieved pattern H.", "Spurious state: a minimum that is no stored pattern "
                       "(best overlap 0.62).", "Mixture state of astronaut phone 4000x3000, X, O.",
                       "Retrieved pattern H."]}


MINIMA = {"state": ["+-+-++--+-+-++--"] * 3, "energy": [-12.5, -10.25, -8.0],
          "class": ["stored", "mirror", "spurious"], "which": ["x1", "mirror of x2", ""],
          "overlap m with x1": [1.0, -0.25, 0.125]}


@pytest.mark.parametrize("data, width", [(SUMMARY, 540), (SUMMARY, 938), (MINIMA, 300),
                                         (MINIMA, 540)])
def test_a_table_fits_its_column(data, width):
    short = {"Final energy (as plotted)": "Final E", "Converged": "Conv."} if data is SUMMARY else None
    p = tables.plan(data, width, {"Final energy (as plotted)": "%.4g"}, short)
    assert sum(p.widths.values()) <= width and set(p.widths) == set(data)
    assert all(w >= 40 for w in p.widths.values())
    for col, label in p.labels.items():  # a cut header is shorter, and only when it must be
        assert len(label) < len(col) and (short is None or label == short[col])
    for col, w in p.widths.items():  # no header the caller keeps is cut by the column's edge
        assert w >= tables._header(p.labels.get(col, col)) - 1 or short is None, col
    if p.row_height:  # wrapping needs rows taller than 4 rem
        assert p.row_height > 64


def test_a_table_that_fits_is_left_alone():
    p = tables.plan({"pattern": ["1. A", "2. B"], "k90": [1, 2]}, 540)
    assert p.labels == {} and p.row_height is None
    assert sum(p.widths.values()) < 540


def test_the_legend_band_adds_to_the_height_and_the_plot_keeps_its_size():
    with_legend, without = f_et.parts(E, 2 * E, 5).layout, f_et.energy(E, 5).layout
    assert with_legend.showlegend and not without.showlegend
    plot = [L.height - L.margin.t - L.margin.b for L in (with_legend, without)]
    assert plot[0] == plot[1] and with_legend.height > without.height == f_et.HEIGHT


def test_a_long_title_breaks_in_two_and_the_chart_grows_by_the_line():
    long = f_dense.interaction_curves(np.arange(10), {"a": RNG.random(10), "b": RNG.random(10)})
    short = f_dense.interaction_curves(np.arange(10), {"a": RNG.random(10), "b": RNG.random(10)},
                                       title="F(z) / F(d)")
    assert long.layout.title.text == "How much a pattern counts:<br>F(z) / F(d)"
    assert short.layout.title.text == "F(z) / F(d)"
    assert long.layout.height - short.layout.height == style.TITLE_LINE_PX
    assert long.layout.margin.t - short.layout.margin.t == style.TITLE_LINE_PX
    # the legend still starts below both lines of the title
    assert (1 - long.layout.legend.y) * long.layout.height >= style.TITLE_PX + style.TITLE_LINE_PX - 1
    wide = sbs_figures.energies_normalised([np.linspace(1, 0, 5)] * 2, ["a", "b"])
    assert "<br>" not in wide.layout.title.text  # a full-width chart has room for it


def test_many_models_lie_as_rows_with_their_names_whole():
    names = ["classical (n = 2)"] + [f"n = {n}" for n in range(3, 11)] + ["exp, beta = 1"]
    fig = f_dense.stable_bars(names, list(range(10)), 9, current="n = 3")
    bar = fig.data[0]
    assert bar.orientation == "h" and list(bar.y) == names and fig.layout.yaxis.tickangle == 0
    assert fig.layout.height >= 24 * len(names)  # a row of room for every model


def test_every_figure_is_made_in_one_place():
    """go.Figure is called by figures.make (the style applied) and nowhere else, but for the
    presenter's copy of a made figure (ui/charts.py) and ui/boot.py's warm-up figure, which is
    serialised, never shown."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    calls = [(str(p.relative_to(root)), line.strip()) for p in
             sorted((root / "ui").rglob("*.py")) + sorted((root / "app_pages").glob("*.py"))
             for line in p.read_text().splitlines() if "go.Figure(" in line and
             not line.lstrip().startswith(("#", '"""', "def "))]
    assert {f for f, _ in calls} <= {"ui/figures.py", "ui/charts.py", "ui/boot.py"}, calls
    assert [c for f, c in calls if f == "ui/figures.py"] == \
        ["return go.Figure(data, style.finish(data, lay, width_px))"]

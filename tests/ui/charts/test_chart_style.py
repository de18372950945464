"""Every figure builder's output goes through the house style (ui/charts/style.py): legends in a
band above the plot, step axes from half a step before 0 to half a step past the last step
with whole-number ticks, never rotated; category labels that fit; heatmaps over a matrix's
indices from 0. And tables (ui/charts/tables.py) whose columns fit the narrowest main column."""
import inspect
import math

import numpy as np
import plotly.graph_objects as go
import pytest

from tests.support.figure_builders import BUILDERS, LONG, MODULES, RNG, E, T
from ui.charts import figures, style, tables
from ui.charts.charts import PRESENTER_NARROW_PX, for_projector
from ui.pages.dense import figures as f_dense
from ui.pages.energy_transformer import figures as f_et
from ui.pages.modern import figures as f_modern
from ui.pages.side_by_side import figures as sbs_figures


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
              "f_landscape.state_cloud", "attention.figures.attention_heatmaps"}


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


@pytest.mark.parametrize("name", BUILDERS)
def test_the_presenters_title_fits_its_band_and_the_narrowest_chart(name):
    """The presenter's copy breaks the title again for its 1.5 x font: each line fits the
    narrowest chart, the band above the plot holds every line (a two-line title was cut at the
    top), and a legend starts under the last line."""
    big = for_projector(BUILDERS[name][0]())
    L = big.layout
    if not L.title.text:
        return
    size, lines = L.title.font.size, L.title.text.split("<br>")
    char_px = style.TITLE_CHAR_PX * size / 16
    width = max(PRESENTER_NARROW_PX, 540 if name in FULL_WIDTH else style.NARROW_PX)
    assert L.meta["narrowest_px"] == (540 if name in FULL_WIDTH else style.NARROW_PX)
    assert all(len(line) * char_px <= width - 30 or " " not in line for line in lines), lines
    title_px = 10 + len(lines) * size * 1.2  # pad, then each line
    assert L.margin.t >= title_px, (name, lines, L.margin.t)
    if L.showlegend:
        assert (1 - L.legend.y) * L.height >= title_px - 1
    for lay in (L, BUILDERS[name][0]().layout):  # Plotly lifts a title of 2+ lines: the pad gives it back
        if "<br>" in lay.title.text:
            assert lay.title.pad.t >= 10 + 0.7 * (lay.title.font.size or 16), (name, lay.title.pad.t)


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
    fig = figures.overlap_bars(RNG.uniform(-1, 1, 6), LONG)  # 6 names at 200 px: the bars turn
    assert list(fig.data[0].y) == style.numbered(LONG) and fig.data[0].orientation == "h"
    text = list(fig.layout.yaxis.ticktext)  # every one named, cut, the full name on hover (%{y})
    assert len(text) == 6 and all(t.split(".")[0].isdigit() for t in text)
    assert max(len(t) for t in text) <= style.ROW_CHARS and "%{y}" in fig.data[0].hovertemplate
    few = figures.overlap_bars(np.ones(2), ["astronaut phone 4000x3000", "H"])
    first, second = few.layout.xaxis.ticktext
    assert first.startswith("1. astr") and first.endswith("…") and second == "2. H"


def test_every_pattern_is_named_up_to_the_stores_40():
    """Letters A-H under their bars by name (not the bare numbers 1-8); more than fit across
    turn, one named row each, and the chart grows with them."""
    eight = figures.overlap_bars(np.ones(8), list("ABCDEFGH"))
    assert list(eight.layout.xaxis.ticktext) == list("ABCDEFGH")
    four = figures.overlap_bars(np.ones(4), ["H", "O", "X", "astronaut phone 4000x3000"])
    assert list(four.layout.yaxis.ticktext) == ["1. H", "2. O", "3. X", "4. astronaut ph…"]  # 3 chars: turned
    for n in (10, 25, 40):
        names = [f"pattern {i}" for i in range(n)]
        for fig in (figures.overlap_bars(np.ones(n), names), figures.weight_bars(np.full(n, 1 / n), names),
                    f_modern.weights_heatmap(RNG.random((T + 1, n)), names)):
            axis = fig.layout.yaxis
            assert list(axis.tickvals) == style.numbered(names), (n, fig.layout.title.text)
            assert [t.split(". ")[1] for t in axis.ticktext] == names
            assert fig.layout.height >= n * style.ROW_PX and axis.autorange == "reversed"
    heat = f_modern.weights_heatmap(RNG.random((T + 1, 40)), [f"p{i}" for i in range(40)])
    assert np.asarray(heat.data[0].z).shape == (40, T + 1) and list(heat.data[0].x) == list(range(T + 1))


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
    assert style.tick_labels(style.numbered(list("abcdefghij")), 100) is None  # no room: turn
    assert style.tick_labels(style.numbered(list("abcdef")), 200) == list("abcdef")  # names, no numbers


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
    presenter's copy of a made figure (ui/charts/charts.py) and ui/serving/boot.py's warm-up figure, which is
    serialised, never shown."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[3]
    calls = [(str(p.relative_to(root)), line.strip()) for p in
             sorted((root / "ui").rglob("*.py")) + sorted((root / "app_pages").glob("*.py"))
             for line in p.read_text().splitlines() if "go.Figure(" in line and
             not line.lstrip().startswith(("#", '"""', "def "))]
    assert {f for f, _ in calls} <= {"ui/charts/figures.py", "ui/charts/charts.py", "ui/serving/boot.py"}, calls
    assert [c for f, c in calls if f == "ui/charts/figures.py"] == \
        ["return go.Figure(data, lay, _validate=False)"]


def test_the_attention_heatmap_names_every_key_up_to_the_stores_40():
    """Keys across while their names fit a panel; beyond, the heatmap turns: keys down, one named
    row each, the weights transposed with them (a query's row of weights becomes its column)."""
    from ui.pages.attention.figures import attention_heatmaps

    few = attention_heatmaps(RNG.random((1, 1, 3)), ["query"], style.numbered(list("HOX")), "W")
    assert list(few.layout.xaxis.ticktext) == ["1. H", "2. O", "3. X"]
    for heads in (1, 2, 4):
        names = style.numbered([f"pattern {i}" for i in range(40)])
        W = RNG.random((heads, 2, 40))
        fig = attention_heatmaps(W, ["query 1", "query 2"], names, "W")
        assert list(fig.layout.yaxis.tickvals) == names and len(fig.layout.yaxis.ticktext) == 40
        assert fig.layout.height >= 40 * style.ROW_PX
        for i, trace in enumerate(fig.data):
            np.testing.assert_array_equal(np.asarray(trace.z), W[i].T)
            assert list(trace.x) == ["query 1", "query 2"] and "key %{y}" in trace.hovertemplate

"""The numbers behind a chart (ui/charts/chart_numbers.py): every point of a line and a bar chart in
the table, a small heatmap cell by cell, a large one as CSV only (the whole matrix), user names
quoted in the CSV, decorations and pictures left out."""
import csv
import io

import numpy as np
import plotly.graph_objects as go

from ui.charts import chart_numbers, figures


def rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode())))


def test_a_line_chart_gives_every_point_and_drops_the_current_step_marker():
    E = np.array([3.0, 2.0, 1.5, 1.25])
    fig = figures.energy_curve(E, 3, np.array([]), title="Energy")
    (n,) = chart_numbers.tables(fig)
    assert n.title == "Energy" and n.note == ""
    assert list(n.columns) == ["step t", "E"]  # the axis titles; one series: no series column
    assert n.columns["step t"] == [0, 1, 2, 3] and n.columns["E"] == list(E)
    assert rows(n.csv())[1:] == [["0", "3.0"], ["1", "2.0"], ["2", "1.5"], ["3", "1.25"]]


def test_several_series_are_named_in_a_series_column():
    fig = figures.figure([go.Scatter(x=np.array([1, 2]), y=y, name=n) for n, y in
                          (("gamma = 1", np.array([5.0, 4.0])), ("gamma = 0.5", np.array([5.0, 4.5])))],
                         "Energy per step", 320, xaxis=dict(title="step"), yaxis=dict(title="E"))
    (n,) = chart_numbers.tables(fig)
    assert n.columns == {"series": ["gamma = 1"] * 2 + ["gamma = 0.5"] * 2, "step": [1, 2, 1, 2],
                         "E": [5.0, 4.0, 5.0, 4.5]}


def test_a_bar_chart_gives_each_bar_and_a_name_with_a_comma_stays_one_cell():
    m = np.array([0.5, -1.0, 0.25])
    fig = figures.overlap_bars(m, ["H", "O, round", "X"])
    (n,) = chart_numbers.tables(fig)
    assert n.columns["category"] == ["1. H", "2. O, round", "3. X"] and n.columns["m"] == list(m)
    assert rows(n.csv()) == [["category", "m"], ["1. H", "0.5"], ["2. O, round", "-1.0"], ["3. X", "0.25"]]


def test_turned_bars_table_the_name_first():
    names = [f"pattern {i}" for i in range(12)]  # too many to name across: the bars turn
    m = np.linspace(-1, 1, 12)
    fig = figures.overlap_bars(m, names)
    (n,) = chart_numbers.tables(fig)
    assert fig.data[0].orientation == "h" and list(n.columns)[:2] == ["category", "m"]
    assert n.columns["category"] == [f"{i + 1}. pattern {i}" for i in range(12)] and n.columns["m"] == list(m)


def test_a_small_heatmap_is_tabled_cell_by_cell():
    W = np.arange(6, dtype=float).reshape(2, 3)  # (rows, cols)
    (n,) = chart_numbers.tables(figures.matrix_heatmap(W, "W", symmetric=False))
    assert n.note == ""
    assert n.columns == {"neuron i": [0, 0, 0, 1, 1, 1], "neuron j": [0, 1, 2, 0, 1, 2],
                         "value": [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]}
    assert rows(n.csv()) == [["neuron i", "neuron j = 0", "neuron j = 1", "neuron j = 2"],
                             ["0", "0.0", "1.0", "2.0"], ["1", "3.0", "4.0", "5.0"]]


def test_a_heatmap_too_big_for_a_table_comes_whole_as_csv():
    W = np.random.default_rng(0).standard_normal((30, 21))  # 630 cells > MAX_CELLS
    assert W.size > chart_numbers.MAX_CELLS
    (n,) = chart_numbers.tables(figures.matrix_heatmap(W, "W, first 30"))
    assert n.columns == {} and "30 by 21 matrix (630 cells)" in n.note
    got = rows(n.csv())
    assert len(got) == 31 and len(got[0]) == 22
    assert np.array_equal(np.array(got[1:], dtype=float)[:, 1:], W)  # every value, full precision


def test_pictures_are_skipped_and_a_mixed_figure_gives_one_table_per_kind():
    assert chart_numbers.tables(figures.image(np.zeros((4, 4, 3)), "state")) == []
    fig = go.Figure([go.Heatmap(z=[[1, 2], [3, 4]], name="weights"),
                     go.Scatter(x=[0, 1], y=[1, 0], name="path")])
    xy, heat = chart_numbers.tables(fig)
    assert xy.columns == {"x": [0, 1], "y": [1, 0]}
    assert heat.columns["value"] == [1.0, 2.0, 3.0, 4.0] and heat.title == "weights"


def test_titles_are_plain_text():
    assert chart_numbers.plain("Success<br>rate <b>N</b>") == "Success rate N"

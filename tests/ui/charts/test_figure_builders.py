"""The Plotly builders: each builds its figure in one constructor call (update_* / add_* /
make_subplots cost about 16 ms a figure against 2 ms, paid again for every new set of
patterns), and the panels, lines and labels they used to get from those methods are there."""
import re
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import plotly.graph_objects as go

from ui.charts import figures
from ui.pages.attention import figures as at_figures
from ui.pages.dense import figures as figures_dense
from ui.pages.landscape import figures as figures_landscape
from ui.pages.modern import figures as figures_modern
from ui.pages.side_by_side import figures as sbs_figures

ROOT = Path(__file__).resolve().parents[3]
RNG = np.random.default_rng(0)


def test_no_builder_uses_the_slow_plotly_methods():
    slow = re.compile(r"\.(update_\w+|add_\w+)\(|make_subplots\(")
    for path in sorted((ROOT / "ui").rglob("figures*.py")) + [ROOT / "app_pages" / "energy_transformer.py"]:
        hits = [line for line in path.read_text().splitlines() if slow.search(line)]
        assert not hits, (path.name, hits)


def test_panels_sit_side_by_side_with_their_titles():
    imgs = [RNG.random((8, 8, 3)) for _ in range(3)]
    fig = sbs_figures.image_row(imgs, ["query", "classical", "dense"])
    doms = [fig.layout[f"xaxis{s}"].domain for s in ("", "2", "3")]
    assert all(a[1] < b[0] for a, b in zip(doms, doms[1:]))  # in order, not overlapping
    assert [t.xaxis for t in fig.data] == ["x", "x2", "x3"]
    assert [fig.layout[f"yaxis{s}"].scaleanchor for s in ("", "2", "3")] == ["x", "x2", "x3"]
    assert [a.text for a in fig.layout.annotations] == ["query", "classical", "dense"]

    fig = sbs_figures.energy_small_multiples([RNG.random(12), RNG.random(30)], ["a", "b"])
    assert fig.layout.yaxis.title.text == "E" and fig.layout.xaxis2.title.text == "step t"
    assert list(fig.layout.xaxis.range) == [-0.5, 11.5] and list(fig.layout.xaxis2.range) == [-0.5, 29.5]

    fig = at_figures.attention_heatmaps(RNG.random((2, 3, 4)), list("abc"), list("wxyz"), "W")
    assert fig.layout.yaxis2.matches == "y" and fig.layout.yaxis.autorange == "reversed"
    assert [t.showscale for t in fig.data] == [False, True]


def test_lines_and_notes_are_layout_shapes():
    fig = figures.figure(go.Scatter(x=np.arange(5), y=RNG.random(5)), "E", 320,
                         shapes=[figures.vline(3, color=figures.GREY, dash="dot")])
    assert fig.layout.shapes[0].x0 == fig.layout.shapes[0].x1 == 3
    fig = at_figures.change_chart(np.array([1.0, 1e-3, 0.0]), tol=1e-6)
    assert fig.layout.shapes[0].y0 == 1e-6 and fig.layout.yaxis.type == "log"
    assert {a.text for a in fig.layout.annotations} == {"tolerance 1e-06", "exactly 0 from step 3"}
    fig = figures_dense.stable_bars(["n = 2", "n = 3"], [0, 3], 3, current="n = 3")
    assert fig.layout.shapes[0].x0 == 3 and fig.data[0].marker.line.width == (0, 3)
    fig = figures_dense.interaction_curves(np.arange(10), {"n = 3": RNG.random(10)}, "n = 3", d=64)
    assert fig.layout.shapes[0].x0 == 8.0 and fig.layout.annotations[0].text == "sqrt(d)"
    bar = SimpleNamespace(height=0.1, t_max=0.5, e_max=1.0)
    fig = figures_landscape.slice_chart(np.linspace(0, 1, 5), RNG.random((2, 5)), [2, 5], [bar, bar],
                                        "H", "O")
    assert [a.text for a in fig.layout.annotations] == ["<b>H</b>", "<b>O</b>"]
    assert len(fig.layout.shapes) == 3 and len(fig.data) == 4


def test_maps_are_square_and_clickable():
    us = np.linspace(-1, 1, 9)
    fig = figures_landscape.world(us, us, RNG.random((9, 9)), RNG.random((3, 2)), RNG.random((4, 2)),
                                  np.linspace(-1, 1, 5), "world")
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.clickmode == "event+select"
    assert [t.name for t in fig.data][1:] == ["click to move the query", "stored patterns", "trajectory"]
    fig = figures_modern.sweep_chart(np.logspace(-1, 2, 4), np.array([3, 2, 1, 1]),
                                     ["global", "metastable", "single", "single"], np.ones(4), 3,
                                     current=1.0, bound_beta=10.0)
    assert fig.layout.xaxis.type == "log" and fig.layout.yaxis.dtick == 1
    assert fig.layout.title.text.startswith("k90")


def test_long_panel_titles_break_at_their_middle_space():
    assert figures.two_lines("Classical (1982)") == "Classical<br>(1982)"
    assert figures.two_lines("Modern continuous") == "Modern<br>continuous"
    assert figures.two_lines("Dense exponential network") == "Dense exponential<br>network"
    assert figures.two_lines("short") == "short"  # fits: left alone
    assert figures.two_lines("averyveryverylongword") == "averyveryverylongword"  # no space to break at
    notes = figures.panel_axes(2, 0.1, titles=["Dense polynomial", "Modern"])["annotations"]
    assert [n["text"] for n in notes] == ["Dense<br>polynomial", "Modern"]

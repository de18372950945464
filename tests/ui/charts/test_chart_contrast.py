"""Chart colours against the chart's background, as WCAG 2 measures contrast (issue 30): every
line, marker and bar of every figure builder keeps at least 3:1 against its white plot
(1.4.11, graphical objects), every text has its own colour of at least 4.5:1, and projector mode's copy (ui.charts.charts.high_contrast) swaps each
house colour for a darker twin of at least 7:1, draws lines thicker and markers larger, and
leaves the figure shared by every session untouched."""
import numpy as np
import plotly.graph_objects as go
import pytest

from tests.support.figure_builders import BUILDERS
from ui.charts import figures
from ui.charts.charts import (
    LINE_SCALE,
    MARKER_SCALE,
    MIN_LINE,
    for_projector,
    high_contrast,
)
from ui.charts.style import (
    HIGH_CONTRAST,
    MARK_CONTRAST,
    PROJECTOR_CONTRAST,
    TEXT_CONTRAST,
    contrast,
    luminance,
    rgb,
)

BACKDROPS = ("heatmap", "contour", "image")  # traces that fill the plot: marks sit on them
MARKS = ("scatter", "scattergl", "scatter3d", "bar")


def _colours(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [c for c in (value if isinstance(value, (list, tuple)) else []) if isinstance(c, str)]


def marks(fig: go.Figure) -> list[tuple[str, str]]:
    """(where, colour) of every line, marker, bar and layout shape line of a figure whose plot
    is not covered by a heatmap, contour or image (marks on those are drawn for the colour
    scale, not for the white plot). Outlines of markers are left out: they frame a mark."""
    if any(t.type in BACKDROPS for t in fig.data):
        return []
    out = []
    for i, t in enumerate(fig.data):
        if t.type not in MARKS:
            continue
        if "line" in t and t.line is not None and t.line.color is not None:
            out += [(f"trace {i} line", c) for c in _colours(t.line.color)]
        if t.marker is not None and t.marker.color is not None:
            out += [(f"trace {i} marker", c) for c in _colours(t.marker.color)]
    for i, s in enumerate(fig.layout.shapes):
        if s.line.color is not None:
            out.append((f"shape {i}", s.line.color))
    return [(w, c) for w, c in out if c not in ("rgba(0,0,0,0)", "transparent")]


def low_contrast(fig: go.Figure, least: float) -> list[tuple[str, str, float]]:
    bg = fig.layout.plot_bgcolor or "white"
    return [(w, c, round(contrast(c, bg), 2)) for w, c in marks(fig) if contrast(c, bg) < least]


def test_the_contrast_ratio_is_wcags():
    assert contrast("black", "white") == pytest.approx(21.0)
    assert contrast("#fff", "rgb(255, 255, 255)") == pytest.approx(1.0)
    assert contrast("#828180", "#ffffff") == pytest.approx(3.89, abs=0.01)  # Streamlit's caption
    assert contrast("#767676", "white") == pytest.approx(4.54, abs=0.01)  # the lightest AA grey
    assert luminance("#808080") == pytest.approx(0.2159, abs=1e-4)
    assert contrast("#1f6feb", "white") == contrast("white", "#1f6feb")
    with pytest.raises(ValueError):
        rgb("cornflowerblue")  # a name figures do not use: add it to NAMED to check it


@pytest.mark.parametrize("name", BUILDERS)
def test_every_mark_stands_out_from_the_plot(name):
    fig = BUILDERS[name][0]()
    assert low_contrast(fig, MARK_CONTRAST) == [], name


def texts(fig: go.Figure) -> list[tuple[str, str | None]]:
    """(which, colour) of every text a figure draws: its title, legend, notes, each axis's
    ticks and title (3-D scenes too) and its colour bars'."""
    L = fig.layout
    out = [("font", L.font.color)]
    out += [("title", L.title.font.color)] if L.title.text else []
    out += [("legend", L.legend.font.color)] if L.showlegend else []
    out += [(f"note {a.text!r}", a.font.color) for a in L.annotations]
    scenes = [L] + [L[k] for k in L.to_plotly_json() if k.startswith("scene")]
    for owner in scenes:
        for key in [k for k in owner.to_plotly_json() if k[:5] in ("xaxis", "yaxis", "zaxis")]:
            axis = owner[key]
            out.append((f"{key} ticks", axis.tickfont.color))
            if axis.title.text:
                out.append((f"{key} title", axis.title.font.color))
    for i, t in enumerate(fig.data):
        if "colorbar" in t and t.colorbar is not None and getattr(t, "showscale", True) is not False:
            out.append((f"trace {i} colour bar", t.colorbar.tickfont.color))
    return out


@pytest.mark.parametrize("name", BUILDERS)
def test_every_text_has_its_own_colour_that_reads_on_white(name):
    """Streamlit's chart theme would colour any text left unset in the page's colours: pale
    grey ticks on the white plot in the light theme (3.8:1), near-white in the dark one."""
    fig = BUILDERS[name][0]()
    unset = [which for which, colour in texts(fig) if colour is None]
    assert unset == [], name
    paper = fig.layout.paper_bgcolor or "white"
    pale = [(w, c) for w, c in texts(fig) if contrast(c, paper) < TEXT_CONTRAST]
    assert pale == [], name


def test_the_check_catches_a_pale_mark():
    fig = figures.figure(go.Scatter(x=np.arange(4), y=np.arange(4.0), name="a"), "t", 320)
    assert low_contrast(fig, MARK_CONTRAST) == []
    fig.data[0].line.color = "#fb8500"  # the learning page's orange (2.5:1), on white
    fig.add_bar(x=[0, 1], y=[1, 2], marker_color=["#1f6feb", "#ffd33d"])
    assert [(w, c) for w, c, _ in low_contrast(fig, MARK_CONTRAST)] == [
        ("trace 0 line", "#fb8500"), ("trace 1 marker", "#ffd33d")]


def test_each_house_colour_has_a_darker_twin_for_the_projector():
    for colour, twin in HIGH_CONTRAST.items():
        assert contrast(colour, "white") >= MARK_CONTRAST, colour
        assert contrast(twin, "white") >= PROJECTOR_CONTRAST, (colour, twin)
        assert luminance(twin) < luminance(colour)


@pytest.mark.parametrize("name", BUILDERS)
def test_the_projector_copy_is_dark_thick_and_leaves_the_shared_figure(name):
    fig = BUILDERS[name][0]()
    before = fig.to_json()
    hc = high_contrast(fig)
    assert fig.to_json() == before  # the figure every session shares is not changed
    assert low_contrast(hc, PROJECTOR_CONTRAST) == [], name
    assert hc.layout.font.color == "#000000"
    for old, new in zip(fig.data, hc.data):
        if old.type in ("scatter", "scattergl") and "lines" in (old.mode or "lines"):
            width = old.line.width or 2.0
            assert new.line.width == pytest.approx(max(width * LINE_SCALE, MIN_LINE)), name
        if old.type in ("scatter", "scattergl") and isinstance(old.marker.size, (int, float)):
            assert new.marker.size == pytest.approx(old.marker.size * MARKER_SCALE)
    for old, new in zip(fig.layout.shapes, hc.layout.shapes):
        assert new.line.width >= MIN_LINE and new.line.width > (old.line.width or 1.0)


def test_presenter_and_projector_copies_combine():
    fig = figures.energy_curve(np.cumsum(-np.ones(6)), 3, np.array([2]))
    both = high_contrast(for_projector(fig))
    assert both.layout.font.size > (fig.layout.font.size or 13)
    assert both.data[0].line.color == HIGH_CONTRAST[figures.BLUE]
    assert both.data[2].marker.color == HIGH_CONTRAST[figures.RED]
    assert both.data[0].line.width == max(fig.data[0].line.width * LINE_SCALE, MIN_LINE)

"""Presenter mode enlarges every font of a chart, on a copy: the figure shared by all sessions
stays as it is."""
import json
from pathlib import Path

import numpy as np
import plotly.graph_objects as go

from tests.support.apptest import open_app
from ui.charts import figures
from ui.charts.charts import PROJECTOR_SCALE, for_projector


def fonts(fig: go.Figure) -> dict:
    L = fig.layout
    return {"font": L.font.size, "title": L.title.font.size, "xtick": L.xaxis.tickfont.size,
            "ytitle": L.yaxis.title.font.size, "legend": L.legend.font.size,
            "hover": L.hoverlabel.font.size, "height": L.height}


def test_every_font_grows_and_the_shared_figure_is_untouched():
    fig = figures.figure([go.Scatter(x=np.arange(5), y=y, name=n) for n, y in
                          (("a", np.arange(5.0)), ("b", np.ones(5)))], "Energy", 320,
                         xaxis=dict(title="step t"), yaxis=dict(title="E"))
    before = fig.to_json()
    big = for_projector(fig)
    assert fig.to_json() == before
    small, large = fonts(fig), fonts(big)
    base = small["font"] or 13
    assert large["font"] == round(base * PROJECTOR_SCALE)
    assert large["title"] == round((small["title"] or 16) * PROJECTOR_SCALE)
    for key in ("xtick", "ytitle", "legend", "hover"):
        assert large[key] == round((small[key] or base) * PROJECTOR_SCALE), key
    assert large["height"] > small["height"]


def test_panel_titles_and_colour_bars_grow():
    layout = figures.layout("t", 300, **figures.panel_axes(2, 0.1, titles=["left", "right"]))
    fig = go.Figure([go.Heatmap(z=np.eye(3), colorbar=dict(title="E"))], layout)
    big = for_projector(fig)
    assert [a.font.size for a in big.layout.annotations] == \
        [round(a.font.size * PROJECTOR_SCALE) for a in fig.layout.annotations]
    base = fig.layout.font.size or 13
    assert big.layout.xaxis2.tickfont.size == round(base * PROJECTOR_SCALE)
    assert big.data[0].colorbar.tickfont.size == round(base * PROJECTOR_SCALE)


def test_the_presenter_sees_larger_chart_fonts():
    from tests.support.player import payload
    from ui.player import frames

    def title_sizes(at):
        layouts = [json.loads(c.proto.spec)["layout"] for c in at.get("plotly_chart")]
        p = payload(at, "classical")
        layouts += [frames.figure_at(panel, 0)["layout"] for panel in p["panels"].values() if panel["kind"] == "chart"]
        return [lay["title"]["font"]["size"] for lay in layouts if "title" in lay]
    plain = open_app("classical")
    presenter = open_app("classical", query={"presenter": "1"})
    small, large = title_sizes(plain), title_sizes(presenter)
    assert small and len(small) == len(large)
    assert all(b == round(a * PROJECTOR_SCALE) for a, b in zip(small, large))


def _toolbars(at) -> dict[str, bool]:
    """Element key -> whether Plotly's toolbar (mode bar) shows, for every chart on the page."""
    out = {}
    for c in at.get("plotly_chart"):
        config = json.loads(c.proto.config or "{}")
        out[c.proto.id.rsplit("-", 1)[-1]] = config.get("displayModeBar", True)
    return out


def test_a_chart_has_no_toolbar_unless_it_asks_and_the_rule_is_written_once():
    """charts.plot hides Plotly's toolbar by default: the modern page's charts have none; the
    classical weights ask for Plotly's own (zoom into W) and keep it."""
    modern = _toolbars(open_app("modern"))
    assert modern and not any(modern.values()), modern
    classical = _toolbars(open_app("classical", {"W": "1"}))
    assert classical.get("classical_weights") is True, classical
    ui = Path(__file__).resolve().parents[3] / "ui"
    written = [p for p in ui.rglob("*.py") if "displayModeBar" in p.read_text()]
    assert [p.relative_to(ui).as_posix() for p in written] == ["charts/charts.py"]

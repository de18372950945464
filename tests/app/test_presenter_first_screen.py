"""Presenter mode puts the live figure first (issue 30): on side by side, attention, the capacity
lab and the exponential family the figure comes straight under the title (and the section
switcher), the lede and what else stood above it move below it, and the capacity lab's and
the exponential family's charts are lower, so that a 1024 x 768 projector shows the figure on
its first screen (tests/e2e/test_devices_e2e.py measures it there). Without presenter mode the
page keeps its order."""
import json

import pytest

from tests.support.apptest import in_order, open_app, where

# page: (its live figure's key, the start of its lede, a chart key or a text that stood above
# the figure and follows it in presenter mode)
PAGES = {
    "side_by_side": ("side_by_side_finals", "Four networks, one memory", "side_by_side_query"),
    "attention": ("attention_heatmap", "One modern Hopfield step is a Transformer's attention", None),
    "capacity_lab": ("capacity_lab_success", "Store N random patterns in d neurons", None),
    "attention_family": ("attention_family_weights", "Attention is the gradient of a log-normalizer",
                         "Log-normalizer A(q)"),
}


@pytest.mark.parametrize("page", PAGES)
def test_presenter_mode_puts_the_live_figure_first(page):
    figure, lede, above = PAGES[page]
    normal = in_order(open_app(page))
    at = open_app(page, query={"presenter": "1"})
    if f"{page}_show_result" in {b.key for b in at.button}:  # presenter mode holds the result: shown
        at.button(key=f"{page}_show_result").click().run()
    shown = in_order(at)
    assert where(normal, lede) < where(normal, figure), "the lede leads the page"
    # on the projector the title, then the figure (a subheader may name it), then the lede
    assert where(shown, figure) <= 2 < where(shown, lede)
    if above:
        assert where(normal, above) < where(normal, figure)
        assert where(shown, figure) < where(shown, above)


@pytest.mark.parametrize("page,key", [("capacity_lab", "capacity_lab_success"),
                                      ("capacity_lab", "capacity_lab_mean_overlap"),
                                      ("attention_family", "attention_family_weights"),
                                      ("attention_family", "attention_family_eigen")])
def test_presenter_mode_draws_the_charts_lower(page, key):
    """Presenter mode enlarges a chart's fonts and makes it 1.2 x taller (ui.charts.charts); these
    charts start lower, so that they end up no taller than on a desk screen."""
    def height(at) -> int:
        chart = next(c for c in at.get("plotly_chart") if c.proto.id.endswith("-" + key))
        return json.loads(chart.proto.spec)["layout"]["height"]

    assert height(open_app(page, query={"presenter": "1"})) <= height(open_app(page))

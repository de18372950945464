"""The capacity lab page: its curves are the core's, its CSV says what it plots, costly runs
wait for Run or are refused with a reason, bad ranges get a message, every view draws."""
import csv
import io

import numpy as np
import pytest
from tests.app.conftest import open_app, open_tab
from tests.app.test_attention_page import array

from hopfield_core.capacity import success_curve
from ui.capacity import cost

PAGE = "capacity_lab"


def rows_of(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_default_curves_are_the_cores():
    at = open_app(PAGE)
    assert len(at.get("plotly_chart")) == 2 and not at.warning
    ns = cost.counts(2, 30, 15, log=False)
    from ui.capacity.export import curves_csv  # the page's own CSV writer, fed the core
    expected = [success_curve(v, 100, ns, 20, 0.0, rng=0)
                for v in ("classical-sync", "classical-async")]
    rows = rows_of(curves_csv(expected).decode())
    assert {r["variant"] for r in rows} == {"classical-sync", "classical-async"}
    assert len(rows) == 2 * len(ns)
    # what the chart shows: the success trace of the sync network equals the core's
    import json
    fig = json.loads(at.get("plotly_chart")[0].proto.spec)
    sync = next(t for t in fig["data"] if t.get("name") == "Classical, sync")
    np.testing.assert_allclose(array(sync["y"]), expected[0].success)


def test_empty_range_and_no_network_get_messages():
    at = open_app(PAGE, query={"n_lo": "50", "n_hi": "10"})
    assert any("range of N is empty" in w.value for w in at.warning)
    assert not at.get("plotly_chart")
    at = open_app(PAGE, query={"v_sync": "0", "v_async": "0"})
    assert any("Choose at least one network" in i.value for i in at.info)


def test_a_huge_run_is_refused_with_the_reason():
    at = open_app(PAGE, query={"v_dense": "1", "d": "1000", "n_hi": "100000", "trials": "200"})
    text = " ".join(w.value for w in at.warning)
    assert "at most 8 s" in text and "Lower d" in text
    assert not at.get("plotly_chart")


def test_a_middling_run_waits_for_run():
    query = {"v_sync": "0", "v_async": "0", "v_dense": "1", "d": "100", "n_lo": "50",
             "n_hi": "600", "points": "8", "trials": "40"}
    ns = cost.counts(50, 600, 8, log=True)
    seconds = cost.curves_seconds(["dense"], 100, ns, 40)
    assert cost.INSTANT_SECONDS < seconds <= cost.MAX_SECONDS
    at = open_app(PAGE, query=query)
    assert not at.get("plotly_chart")
    run = [b for b in at.button if b.label.startswith("Run")]
    assert run, [b.label for b in at.button]
    run[0].click().run()
    assert not at.exception and len(at.get("plotly_chart")) == 2
    assert not [b for b in at.button if b.label.startswith("Run")]  # gone once it has run


@pytest.mark.parametrize("view", ["basins", "phase"])
def test_other_views_draw(view):
    at = open_app(PAGE)
    open_tab(at, "cap_view", view)
    assert len(at.get("plotly_chart")) == 1 and not at.warning
    assert any(b.label.endswith("(CSV)") for b in at.get("download_button"))


def test_the_basin_map_is_the_cores():
    import json

    from hopfield_core.capacity import basin_map
    from ui.capacity.sections import FLIPS

    at = open_app(PAGE)
    open_tab(at, "cap_view", "basins")
    heat = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]
    expected = basin_map("classical-sync", 100, cost.counts(2, 30, 15, log=False), FLIPS, 20, rng=0)
    np.testing.assert_allclose(array(heat["z"]), expected.success)


def test_the_try_this_prompts_run():
    from ui.capacity.explain import PROMPT_RUNS

    for name, r in PROMPT_RUNS.items():
        log = any(not v.startswith("classical") for v in r["variants"])
        ns = cost.counts(r["n_lo"], r["n_hi"], r["points"], log)
        assert cost.curves_seconds(r["variants"], r["d"], ns, r["trials"]) <= cost.MAX_SECONDS, name


def test_partial_charts_are_drawn_then_replaced(monkeypatch):
    """With every point redrawn (no throttle), a run draws its curves point by point into the
    same two places: at the end there are two charts, keyed, with every point."""
    from ui.capacity import live

    drawn = []
    real = live.plot
    monkeypatch.setattr(live, "SHOW_AFTER", -1.0)
    monkeypatch.setattr(live, "REDRAW_SECONDS", 0.0)
    monkeypatch.setattr(live, "plot", lambda *a: (drawn.append(a[3]), real(*a)))
    at = open_app(PAGE, query={"v_async": "0", "n_hi": "12", "points": "6"})
    assert not at.exception
    ns = cost.counts(2, 12, 6, log=False)
    partial = [f for f in drawn if f is not True]
    assert partial == [k for k in range(1, len(ns)) for _ in range(2)]  # two charts a point
    charts = at.get("plotly_chart")
    assert len(charts) == 2
    import json
    trace = json.loads(charts[0].proto.spec)["data"][0]
    np.testing.assert_allclose(array(trace["y"]),
                               success_curve("classical-sync", 100, ns, 20, rng=0).success)


@pytest.mark.parametrize("view, names", [("curves", ["capacity_success", "capacity_mean_overlap"]),
                                         ("basins", ["capacity_basins"]),
                                         ("phase", ["capacity_phase"])])
def test_every_chart_downloads_as_a_named_png(view, names):
    import json

    at = open_app(PAGE)
    open_tab(at, "cap_view", view)
    got = [json.loads(c.proto.config)["toImageButtonOptions"] for c in at.get("plotly_chart")]
    assert [g["filename"] for g in got] == names
    assert all(g["format"] == "png" for g in got)
    assert any("PNG" in c.value for c in at.caption)


def test_widening_a_range_computes_only_the_new_points(monkeypatch):
    from hopfield_core.capacity import curves
    from ui.capacity import cache

    asked = []
    real = curves.success_points
    monkeypatch.setattr(curves, "success_points",
                        lambda v, d, ns, *a, **k: (asked.append(list(ns)), real(v, d, ns, *a, **k))[1])
    first = cache.points("classical-async", 37, [3, 5], 4, 0.0, 11, ())
    both = cache.points("classical-async", 37, [2, 3, 4, 5], 4, 0.0, 11, ())
    assert asked == [[3, 5], [2, 4]]
    assert both[1] == first[0] and both[3] == first[1]
    assert both == curves.success_points("classical-async", 37, [2, 3, 4, 5], 4, 0.0, 11)

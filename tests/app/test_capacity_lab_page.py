"""The capacity lab page: its curves are the core's, its CSV says what it plots, costly runs
wait for Run or are refused with a reason, bad ranges get a message, every view draws; runs
wait their turn in the fair gate (ui/serving/run_queue.py), and Cancel stops one until Run again."""
import csv
import io

import numpy as np
import pytest

from hopfield_core.capacity import success_curve
from tests.support.apptest import array, open_app, open_tab
from tests.support.capacity_runs import COSTLY_NS, costly
from ui.pages.capacity_lab import cost

PAGE = "capacity_lab"


def rows_of(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


def test_default_curves_are_the_cores():
    at = open_app(PAGE)
    assert len(at.get("plotly_chart")) == 2 and not at.warning
    ns = cost.counts(2, 30, 15, log=False)
    from ui.pages.capacity_lab.export import (
        curves_csv,  # the page's own CSV writer, fed the core
    )
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
    from ui.serving.run_queue_view import about

    query, seconds = costly(0)  # between cost.INSTANT_SECONDS and cost.MAX_SECONDS
    at = open_app(PAGE, query=query)
    assert not at.get("plotly_chart")
    assert [i.value for i in at.info] == [
        f"Press Run to start this curve: {about(seconds)} of computing on a quiet server; when "
        "others are running theirs, yours waits its turn."]
    run = [b for b in at.button if b.label.startswith("Run")]
    assert run, [b.label for b in at.button]
    run[0].click().run()
    assert not at.exception and len(at.get("plotly_chart")) == 2
    assert not [b for b in at.button if b.label.startswith("Run")]  # gone once it has run


@pytest.mark.parametrize("view", ["basins", "phase"])
def test_other_views_draw(view):
    at = open_app(PAGE)
    open_tab(at, "capacity_lab_view", view)
    assert len(at.get("plotly_chart")) == 1 and not at.warning
    assert any(b.label.endswith("(CSV)") for b in at.get("download_button"))


def test_the_basin_map_is_the_cores():
    import json

    from hopfield_core.capacity import basin_map
    from ui.pages.capacity_lab.sections import FLIPS

    at = open_app(PAGE)
    open_tab(at, "capacity_lab_view", "basins")
    heat = json.loads(at.get("plotly_chart")[0].proto.spec)["data"][0]
    expected = basin_map("classical-sync", 100, cost.counts(2, 30, 15, log=False), FLIPS, 20, rng=0)
    np.testing.assert_allclose(array(heat["z"]), expected.success)


def test_the_try_this_prompts_run():
    from ui.pages.capacity_lab.explain import PROMPT_RUNS

    for name, r in PROMPT_RUNS.items():
        log = any(not v.startswith("classical") for v in r["variants"])
        ns = cost.counts(r["n_lo"], r["n_hi"], r["points"], log)
        assert cost.curves_seconds(r["variants"], r["d"], ns, r["trials"]) <= cost.MAX_SECONDS, name


def test_partial_charts_are_drawn_then_replaced(monkeypatch):
    """With every point redrawn (no throttle), a run draws its curves point by point into the
    same two places: at the end there are two charts, keyed, with every point."""
    from ui.pages.capacity_lab import live

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
    open_tab(at, "capacity_lab_view", view)
    got = [json.loads(c.proto.config)["toImageButtonOptions"] for c in at.get("plotly_chart")]
    assert [g["filename"] for g in got] == names
    assert all(g["format"] == "png" for g in got)
    assert any("PNG" in c.value for c in at.caption)


def test_widening_a_range_computes_only_the_new_points(monkeypatch):
    from hopfield_core.capacity import curves
    from ui.pages.capacity_lab import cache

    asked = []
    real = curves.success_points
    monkeypatch.setattr(curves, "success_points",
                        lambda v, d, ns, *a, **k: (asked.append(list(ns)), real(v, d, ns, *a, **k))[1])
    first = cache.points("classical-async", 37, [3, 5], 4, 0.0, 11, ())
    both = cache.points("classical-async", 37, [2, 3, 4, 5], 4, 0.0, 11, ())
    assert asked == [[3, 5], [2, 4]]
    assert both[1] == first[0] and both[3] == first[1]
    assert both == curves.success_points("classical-async", 37, [2, 3, 4, 5], 4, 0.0, 11)


# ------------------------------------------------------------------ the fair gate of heavy runs


def click_during_the_run(key: str) -> None:
    """What a browser's click does while the script runs, called from the script's own thread:
    a rerun request with the button's trigger and the other widgets' values, which Streamlit
    serves at the script's next yield point (its next st call)."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState, WidgetStates
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData

    ctx = get_script_run_ctx()
    button = [i for i in ctx.shared.widget_ids_this_run.snapshot() if i.endswith(f"-{key}")]
    assert len(button) == 1, f"no button {key!r} on the page while the run goes on"
    states = [s for s in ctx.session_state.get_widget_states()
              if s.WhichOneof("value") != "trigger_value"]  # earlier clicks are not sent again
    states.append(WidgetState(id=button[0], trigger_value=True))
    assert ctx.script_requests.request_rerun(RerunData(
        query_string=ctx.query_string, widget_states=WidgetStates(widgets=states),
        page_script_hash=ctx.page_script_hash))


def test_cancel_stops_the_run_and_it_waits_for_run_again(monkeypatch):
    from ui.pages.capacity_lab import live
    from ui.serving import run_queue

    ticks, real = [], live.Live.tick

    def tick(self, text):
        real(self, text)
        ticks.append(text)
        if len(ticks) == 1:  # the first point is in: the user presses Cancel
            click_during_the_run("cancel_curve")
    monkeypatch.setattr(live.Live, "tick", tick)
    query, estimate = costly(4321)  # a run no other test has made
    at = open_app(PAGE, query=query)
    next(b for b in at.button if b.label.startswith("Run")).click().run()
    assert not at.exception
    stopped_after = len(ticks)
    assert stopped_after < len(COSTLY_NS), "the run went on to the end"
    assert not at.get("plotly_chart")
    assert [i.value for i in at.info] == [
        "Cancelled: nothing was drawn. Press Run to start this curve again."]
    from ui.serving.run_queue_view import about
    assert [b.label for b in at.button if b.label.startswith("Run")] == [
        f"Run ({about(estimate)})"]
    assert run_queue.GATE.counts() == (0, 0)  # its slot is free
    at.run()  # a rerun (any widget) does not start it again
    assert len(ticks) == stopped_after and not at.get("plotly_chart")
    assert any(i.value.startswith("Cancelled") for i in at.info)
    next(b for b in at.button if b.label.startswith("Run")).click().run()  # Run again: it runs
    assert not at.exception and len(at.get("plotly_chart")) == 2
    assert len(ticks) == stopped_after + len(COSTLY_NS) and not at.info


@pytest.mark.parametrize("query, charts", [({"n_hi": "12", "points": "6", "seed": "4322"}, 2),
                                           ({"view": "basins", "n_hi": "8", "seed": "4323"}, 1),
                                           ({"view": "phase", "seed": "4324"}, 1)])
def test_a_run_waits_its_turn_and_says_so(monkeypatch, query, charts):
    """The server's slots are all taken by another session's run: the page says how many
    runs are ahead and offers Cancel; when that run ends, this one runs. Every view."""
    import threading
    import time

    from ui.serving import run_queue, run_queue_view

    gate, release, shown = run_queue.Gate(1), threading.Event(), []
    monkeypatch.setattr(run_queue, "GATE", gate)
    real = run_queue_view.waiting_text
    monkeypatch.setattr(run_queue_view, "waiting_text",
                        lambda w, waited=0.0: shown.append(real(w, waited)) or shown[-1])
    other = threading.Thread(daemon=True, target=gate.run, args=(
        ("another session's run",), lambda ticket: release.wait(60), 8.0))
    other.start()

    def end_the_other_run_once_the_page_waits():
        deadline = time.monotonic() + 60
        while not shown and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(0.5)  # the page waits on, looking again and again
        release.set()
    threading.Thread(target=end_the_other_run_once_the_page_waits, daemon=True).start()
    at = open_app(PAGE, query=query)
    other.join(10)
    assert shown[0] == ("1 run ahead of yours; yours starts when it finishes (about 8 s of "
                        "computing on a quiet server).")
    assert len(shown) >= 2  # it looked again while it waited
    assert len(at.get("plotly_chart")) == charts and not at.info  # then it ran
    assert not [b for b in at.button if b.label == "Cancel"]  # and the button went
    assert gate.counts() == (0, 0)


def test_a_session_whose_tab_has_gone_leaves_the_queue(monkeypatch):
    """Streamlit keeps running a closed tab's script: the wait notices that the session has
    had no client for GONE_AFTER_S and gives up its place instead of computing for no one.
    (AppTest's runtime is a mock: the page's module is given one whose session is connected
    for the first look only.)"""
    import threading

    from ui.serving import run_queue, run_queue_view

    asked = []

    class Runtime:  # the two calls the page makes, as Streamlit's Runtime answers them
        @staticmethod
        def exists():
            return True

        @staticmethod
        def instance():
            return Runtime

        @staticmethod
        def is_active_session(session_id):
            asked.append(session_id)
            return len(asked) == 1

    gate, release = run_queue.Gate(1), threading.Event()
    monkeypatch.setattr(run_queue, "GATE", gate)
    monkeypatch.setattr(run_queue_view, "GONE_AFTER_S", 0.3)
    monkeypatch.setattr(run_queue_view, "Runtime", Runtime)
    other = threading.Thread(daemon=True, target=gate.run, args=(
        ("another session's run",), lambda ticket: release.wait(60), 8.0))
    other.start()
    try:
        at = open_app(PAGE, query={"n_hi": "12", "points": "6", "seed": "4325"})
        assert not at.get("plotly_chart")  # it left without computing
        assert gate.counts() == (1, 0)  # while the other run still computes
        assert len(asked) > 2 and set(asked) == {"test session id"}
    finally:
        release.set()
        other.join(10)


def test_a_link_past_the_memory_budget_is_refused_with_the_limit_named():
    """Even one trial at a time, modern d = 1000 with N up to 20 000 would need more than a
    run's share of memory: the page refuses it in a sentence that names the limit and what to
    lower, draws nothing, and the link's other settings stay in use."""
    link = {"view": "curves", "v_sync": "0", "v_async": "0", "v_dense": "0", "v_exp": "0",
            "v_modern": "1", "d": "1000", "n_lo": "1", "n_hi": "20000", "points": "2",
            "trials": "1"}
    ns = cost.counts(1, 20000, 2, log=True)
    assert cost.curves_bytes(["modern"], 1000, ns, 1) > cost.RUN_BYTES
    at = open_app(PAGE, query=link)
    assert not at.exception
    said = [w.value for w in at.warning if "of the server's memory" in w.value]
    assert said == [cost.curves_refusal(["modern"], 1000, ns, 1, (0.0,), 3, 1.0)]
    assert f"at most {cost.RUN_BYTES // 2**20} MB" in said[0] and "Lower d or the largest N" in said[0]
    assert not at.get("plotly_chart") and not [b for b in at.button if b.key == "capacity_lab_run_curve"]


def test_the_exponential_textbook_line_is_drawn_only_where_its_theorem_applies():
    """2^(d/2) is Demircigil et al.'s capacity for F(z) = e^z: this network at beta = 1. At
    small beta the memory fails far below it (d = 30, beta 0.05 already fails at N = 30), so
    the line is not drawn there."""
    from hopfield_core.capacity import success_curve
    from ui.pages.capacity_lab.figures import curves_figure

    def lines(beta):
        c = success_curve("exponential", 30, [30, 3000, 30000], 8, rng=1, beta=beta)
        fig = curves_figure([c], {"exponential": "Exponential"}, 30, 0.0, 3, log_x=True)
        return [t for t in fig.data if t.name == "Exponential: textbook capacity"], c

    at_one, _ = lines(1.0)
    assert len(at_one) == 1 and at_one[0].x[0] == pytest.approx(2 ** 15)
    small, c = lines(0.05)
    assert small == [] and c.success[0] < 0.5  # the theorem's count is far off at beta 0.05


def test_the_phase_view_says_its_beta_is_the_inverse_temperature():
    """Its AGS equations use beta = 1/T, on a page where beta also names the exponential
    network's parameter: the text says which beta it means."""
    at = open_app(PAGE, query={"view": "phase"})
    text = " ".join(m.value for m in at.markdown)
    assert "$\\beta = 1/T$ the inverse temperature" in text
    assert any("\\beta (m + \\sqrt{\\alpha r}" in x.value for x in at.latex)


def test_the_phase_diagrams_theory_line_is_named_in_its_legend():
    """Issue 34: the dashed line had no legend entry (a lone line beside a heatmap gets none
    unless asked), and it was white, which a legend on the white page cannot show."""
    import json

    from hopfield_core.capacity import ags
    from ui.pages.capacity_lab import cache
    from ui.pages.capacity_lab.figures import THEORY_LINE

    at = open_app(PAGE, query={"view": "phase", "ph_load": "0.1"})  # the line ends at 0.1
    spec = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert spec["layout"]["showlegend"] is True
    line = [t for t in spec["data"] if t.get("name") == THEORY_LINE]
    assert len(line) == 1 and line[0]["showlegend"] is True
    assert line[0]["line"]["dash"] == "dash" and line[0]["line"]["color"] != "white"
    alphas = cache.theory_boundary(0.1)[0]
    np.testing.assert_allclose(array(line[0]["x"]), alphas)
    np.testing.assert_allclose(array(line[0]["y"]), ags.retrieval_boundary(alphas))
    assert alphas.max() == pytest.approx(0.1) and cache.theory_boundary(0.3)[0].max() == 0.1379

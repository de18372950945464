"""The modern page: energies, k90 and kinds against the core, the beta sweep, the bound table,
the step-size comparison, URL state and numeric extremes."""
import json
import math

import numpy as np
import pytest

from hopfield_core import ModernHopfield, fixed_point_kind, k90
from tests.support.apptest import open_app, open_tab
from tests.support.player import at_step
from tests.support.samples import HOX, OQX, TOL, patterns, query


def metric(at, label) -> str:
    found = [m.value for m in at.metric if m.label == label]
    assert found, f"no metric {label!r} among {[m.label for m in at.metric]}"
    return found[0]


def table(at, column):
    """The dataframe that has this column."""
    for df in at.dataframe:
        if column in df.value.columns:
            return df.value
    raise AssertionError(f"no table with a column {column!r}")


def texts(at):
    return [m.value for m in at.markdown]


def test_energy_k90_and_kind_are_the_cores():
    at = open_app("modern")
    X = patterns(HOX)
    q = query(X)
    ref = ModernHopfield(X, 10.0).run(q, max_steps=100, tol=TOL, gamma=1.0)
    for t in range(ref.steps + 1):
        assert at_step(at, "modern", t).value() == float(f"{ref.energies[t]:.6g}")
    assert int(metric(at, "k90")) == k90(ref.weights[-1]) == 1
    assert metric(at, "Fixed point") == fixed_point_kind(ref.weights[-1]) == "single"
    assert int(metric(at, "Steps taken")) == ref.steps
    end = at_step(at, "modern", "end")
    assert end.texts("success") == [f"Retrieved pattern H. Fixed point: {fixed_point_kind(ref.weights[-1])}, "
                                    f"k90 = {k90(ref.weights[-1])} of 3 patterns (the fewest holding 90 % of "
                                    "the softmax weight)."]
    assert not any("report this as a bug" in e for e in end.texts("error"))
    assert not at.exception


def test_k90_and_kind_describe_the_end_of_the_run_not_the_query():
    at = open_app("modern", query={"beta": "3"})
    X = patterns(HOX)
    ref = ModernHopfield(X, 3.0).run(query(X), max_steps=100, tol=TOL)
    assert fixed_point_kind(ref.weights[0]) == "global"  # the query itself spreads its weight
    assert int(metric(at, "k90")) == k90(ref.weights[-1]) == 2
    assert metric(at, "Fixed point") == "metastable"


def test_near_duplicates_give_a_metastable_state_that_a_larger_beta_separates():
    at = open_app("modern", query={"presets": ",".join(OQX), "beta": "10"})
    X = patterns(OQX)
    q = query(X)
    ref = ModernHopfield(X, 10.0).run(q, max_steps=100, tol=TOL)
    assert metric(at, "Fixed point") == fixed_point_kind(ref.weights[-1]) == "metastable"
    assert int(metric(at, "k90")) == k90(ref.weights[-1]) == 2
    assert any("Metastable state: a blend of O, Q." in i for i in at_step(at, "modern", "end").texts("info"))
    at.select_slider(key="modern_beta").set_value(50.0).run()
    ref = ModernHopfield(X, 50.0).run(q, max_steps=100, tol=TOL)
    assert metric(at, "Fixed point") == fixed_point_kind(ref.weights[-1]) == "single"
    assert int(metric(at, "Steps taken")) == ref.steps
    at.select_slider(key="modern_beta").set_value(1.0).run()
    assert metric(at, "Fixed point") == "global"
    assert not at.exception


def test_url_params_seed_beta_gamma_and_the_step_limit():
    at = open_app("modern", query={"presets": ",".join(OQX), "beta": "30", "gamma": "0.5",
                                   "steps": "250"})
    assert at.select_slider(key="modern_beta").value == 30.0
    assert at.slider(key="modern_gamma").value == 0.5
    assert at.number_input(key="modern_steps").value == 250
    X = patterns(OQX)
    ref = ModernHopfield(X, 30.0).run(query(X), max_steps=250, tol=TOL, gamma=0.5)
    assert int(metric(at, "Steps taken")) == ref.steps
    assert metric(at, "Fixed point") == fixed_point_kind(ref.weights[-1])
    qp = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert qp["beta"] == "30" and qp["gamma"] == "0.5" and qp["steps"] == "250"
    # and the widgets write back into the link
    at.slider(key="modern_gamma").set_value(0.2).run()
    qp = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert qp["gamma"] == "0.2"


def test_changing_gamma_and_the_step_limit_reruns_the_dynamics():
    at = open_app("modern")
    X = patterns(HOX)
    q = query(X)
    at.slider(key="modern_gamma").set_value(0.1).run()
    ref = ModernHopfield(X, 10.0).run(q, max_steps=100, tol=TOL, gamma=0.1)
    assert int(metric(at, "Steps taken")) == ref.steps == 94
    at.number_input(key="modern_steps").set_value(20).run()
    ref = ModernHopfield(X, 10.0).run(q, max_steps=20, tol=TOL, gamma=0.1)
    assert not ref.converged
    assert int(metric(at, "Steps taken")) == 20
    assert any("stopped at the step limit" in w.value for w in at.warning)
    assert at_step(at, "modern", "end").value() == float(f"{ref.energies[-1]:.6g}")
    assert not any("report this as a bug" in e for e in at_step(at, "modern", "end").texts("error"))


def test_sweep_is_global_at_tiny_beta_single_at_large_beta_and_matches_the_core():
    at = open_app("modern", query={"presets": ",".join(OQX)})
    sweep = table(at, "k90")
    X = patterns(OQX)
    q = query(X)
    assert sweep["beta"].iloc[0] == 0.1 and sweep["beta"].iloc[-1] == 1e4
    assert sweep["kind"].iloc[0] == "global"
    assert sweep["kind"].iloc[-1] == "single"
    assert set(sweep["kind"]) == {"global", "metastable", "single"}
    for b in [0.1, 1.0, 10.0, 30.0, 1e4]:
        row = sweep[sweep["beta"] == b].iloc[0]
        ref = ModernHopfield(X, b).run(q, max_steps=100, tol=TOL)
        assert row["k90"] == k90(ref.weights[-1])
        assert row["kind"] == fixed_point_kind(ref.weights[-1])
        assert row["steps"] == ref.steps
        assert row["energy"] == pytest.approx(ref.energies[-1], abs=1e-12)
    summary = [t for t in texts(at) if t.startswith("For this query")][0]
    assert "**global** from beta = 0.1 to 1.5" in summary
    assert "**metastable** from beta = 2 to 20" in summary
    assert "**single** from beta = 30 to 10000" in summary


def test_sweep_runs_with_the_chosen_gamma_and_step_limit():
    at = open_app("modern", query={"presets": ",".join(OQX), "gamma": "0.5", "steps": "30"})
    sweep = table(at, "k90")
    X = patterns(OQX)
    q = query(X)
    for b in [0.1, 3.0, 50.0]:
        row = sweep[sweep["beta"] == b].iloc[0]
        ref = ModernHopfield(X, b).run(q, max_steps=30, tol=TOL, gamma=0.5)
        assert row["steps"] == ref.steps and row["converged"] == ref.converged
        assert row["k90"] == k90(ref.weights[-1])
    assert not sweep["converged"].all()  # 30 half steps are too few near the transitions
    assert any("hit the step limit before settling" in w.value for w in at.warning)


def test_fixed_point_images_follow_the_three_sliders():
    at = open_app("modern", query={"presets": ",".join(OQX)})
    # defaults: one beta from each regime
    captions = [t for t in texts(at) if t.startswith("k90 = ")]
    assert [c.split("**")[1] for c in captions] == ["global", "metastable", "single"]
    at.select_slider(key="modern_b_small").set_value(0.1).run()
    at.select_slider(key="modern_b_medium").set_value(10.0).run()
    at.select_slider(key="modern_b_large").set_value(1e4).run()
    captions = [t for t in texts(at) if t.startswith("k90 = ")]
    assert captions == ["k90 = 3, **global**", "k90 = 2, **metastable**", "k90 = 1, **single**"]
    assert not at.exception


def test_bound_table_matches_retrieval_bound():
    at = open_app("modern", query={"presets": ",".join(OQX), "beta": "50", "view": "bound"})
    X = patterns(OQX)
    rb = ModernHopfield(X, 50.0).retrieval_bound()
    df = table(at, "separation Delta_i")
    assert list(df["pattern"]) == ["1. O", "2. Q", "3. X"]
    np.testing.assert_allclose(df["separation Delta_i"], rb.separation, rtol=1e-12)
    np.testing.assert_allclose(df["bound at this beta"], rb.bound, rtol=1e-12)
    assert list(df["satisfied"]) == list(rb.satisfied) == [False, False, True]
    # beta needed: just above it the core reports satisfied, just below it does not
    for i, need in enumerate(df["beta needed"]):
        assert ModernHopfield(X, need * (1 + 1e-9)).retrieval_bound().satisfied[i]
        assert not ModernHopfield(X, need * (1 - 1e-6)).retrieval_bound().satisfied[i]
    assert any("1 of 3 patterns meet the bound" in t
               and "(O and Q) are guaranteed from beta = 70.5" in t for t in texts(at))
    at.select_slider(key="modern_beta").set_value(100.0).run()
    df = table(at, "separation Delta_i")
    rb = ModernHopfield(X, 100.0).retrieval_bound()
    np.testing.assert_allclose(df["bound at this beta"], rb.bound, rtol=1e-12)
    assert list(df["satisfied"]) == [True, True, True]
    assert any("all 3 patterns meet the bound" in t for t in texts(at))


def test_step_size_comparison_runs_each_gamma_to_the_same_fixed_point():
    at = open_app("modern", query={"gamma": "0.3", "view": "step"})
    df = table(at, "gamma")
    X = patterns(HOX)
    q = query(X)
    assert list(df["gamma"]) == [1.0, 0.5, 0.3, 0.2, 0.1]
    for _, row in df.iterrows():
        ref = ModernHopfield(X, 10.0).run(q, max_steps=500, tol=TOL, gamma=row["gamma"])
        assert row["steps"] == ref.steps and row["converged"] == ref.converged
        assert row["final energy"] == pytest.approx(ref.energies[-1], abs=1e-12)
        assert np.all(np.diff(ref.energies) <= 1e-12)  # never rises
    assert df["steps"].is_monotonic_increasing
    assert any("gamma = 1 settles in **4** steps; gamma = 0.1 takes **94**" in t for t in texts(at))


@pytest.mark.parametrize("beta", ["10000", "0.1"])
def test_extreme_betas_give_finite_numbers(beta):
    at = open_app("modern", query={"beta": beta, "gamma": "0.01", "steps": "2000"})
    assert not at.exception
    assert all(math.isfinite(float(v)) for v in at_step(at, "modern", 0).p["panels"]["energy_metric"]["value"])
    for view in ("sweep", "bound", "step"):
        open_tab(at, "modern_view", view)
        assert at.dataframe, view
        for df in at.dataframe:
            numeric = df.value.select_dtypes("number").to_numpy(dtype=float)
            assert not np.isnan(numeric).any()
        assert not any("report this as a bug" in e.value for e in at.error)


def test_bad_link_values_warn_and_fall_back():
    at = open_app("modern", query={"beta": "abc", "gamma": "5", "steps": "0"})
    warnings = " ".join(w.value for w in at.warning)
    assert "beta = `abc` (Inverse temperature beta (log scale)), which is not a number; using 10." in warnings
    assert "gamma = `5` (Step size gamma), which is outside 0.01 to 1; using 1." in warnings
    assert "steps = `0` (Step limit), which is outside 1 to 2000; using 1." in warnings
    assert at.select_slider(key="modern_beta").value == 10.0
    assert at.slider(key="modern_gamma").value == 1.0
    assert at.number_input(key="modern_steps").value == 1
    at = open_app("modern", query={"beta": "42", "gamma": "0.333"})
    assert at.select_slider(key="modern_beta").value == 50.0
    assert at.slider(key="modern_gamma").value == 0.33
    assert any("beta = `42`" in w.value and "not a step of the slider" in w.value and "using 50."
               in w.value for w in at.warning)
    assert not at.exception


def test_empty_store_and_a_single_pattern():
    at = open_app("modern")
    at.button(key="clear_store").click().run()
    assert any("Store at least one pattern" in i.value for i in at.info)
    at = open_app("modern", query={"presets": "letters/A", "view": "bound"})
    assert metric(at, "Fixed point") == "single"
    assert any("nothing to separate it from" in i.value for i in at.info)
    assert not at.exception


SWEEP_TITLE = "k90 at the fixed point, for every beta"
COLOUR_WORDS = {"#1a7f37": "green", "#bf8700": "amber", "#d1242f": "red"}  # as a reader names them


def sweep_figure_and_caption(at):
    (fig,) = [f for f in (json.loads(c.proto.spec) for c in at.get("plotly_chart"))
              if f["layout"]["title"]["text"] == SWEEP_TITLE]
    (caption,) = [t for t in texts(at) if t.startswith("The same query, run to its fixed point")]
    return fig["data"], caption


@pytest.mark.parametrize("link, hollow", [
    ({"presets": ",".join(OQX)}, False),
    ({"presets": ",".join(OQX), "gamma": "0.5", "steps": "30"}, True)])
def test_the_sweep_caption_describes_the_markers_the_chart_draws(link, hollow):
    at = open_app("modern", query=link)
    data, caption = sweep_figure_and_caption(at)
    kinds = [t for t in data if t.get("name") in ("single", "metastable", "global")]
    assert kinds
    symbols = set()
    for t in kinds:  # "... coloured by the kind ... (green single, amber metastable, red global)"
        colour = t["marker"]["color"]
        assert f"{COLOUR_WORDS[colour]} {t['name']}" in caption
        assert t["marker"]["line"]["color"] == colour  # a hollow dot keeps the kind's colour
        symbols |= set(np.atleast_1d(t["marker"]["symbol"]))
    assert "circle" in symbols and "Each filled dot is one run" in caption
    assert ("circle-open" in symbols) == hollow
    assert ("A hollow dot of the same colour is a run that hit the step limit" in caption) == hollow
    rings = [t for t in data if t.get("mode") == "markers" and t.get("showlegend") is False]
    assert len(rings) == 3
    for r in rings:  # "The large black rings mark the betas ... pictured below"
        assert r["marker"]["symbol"] == "circle-open" and r["marker"]["color"] == "black"
        assert r["marker"]["size"] > max(t["marker"]["size"] for t in kinds)
    assert "The large black rings mark the betas whose fixed points are pictured below" in caption
    assert "open circles" not in " ".join(texts(at) + [w.value for w in at.warning])


def bound_texts(at) -> str:
    return " ".join(t for t in texts(at) if "theorem" in t.lower() or "Ramsauer" in t)


def test_the_bound_section_states_the_radius_and_where_the_query_is():
    """Defaults (H, O, X; beta = 10): radius 1/(beta N M) = 1/30, query 0.925 from H."""
    at = open_app("modern", query={"view": "bound"})
    X = patterns(HOX)
    q = query(X)
    M = max(np.sqrt(x @ x) for x in X)
    radius = 1 / (10.0 * 3 * M)
    dist = [np.sqrt((x - q) @ (x - q)) for x in X]
    assert f"{radius:.3g}" == "0.0333" and f"{min(dist):.3g}" == "0.925" and np.argmin(dist) == 0
    text = bound_texts(at)
    assert ("the small sphere $S_i$ of radius $1/(\\beta N M)$ around $x_i$ holds a single "
            "fixed point") in text
    assert ("The theorem covers a query within 1/(beta N M) = 1/(10 · 3 · 1) = 0.0333 of a pattern. "
            "Your query is 0.925 from H, the nearest stored pattern, outside that radius, so the "
            "theorem says nothing about it") in text
    assert "every query near $x_i$ is pulled" not in text and "Theorem 4" not in text


@pytest.mark.parametrize("keys, verdict", [(HOX, "inside that radius, and H meets the bound"),
                                           (OQX, "inside that radius, but O misses the bound")])
def test_a_query_inside_the_radius_is_covered_only_if_its_pattern_meets_the_bound(keys, verdict):
    at = open_app("modern", query={"presets": ",".join(keys), "q_amount": "0", "view": "bound"})
    X = patterns(keys)
    assert list(ModernHopfield(X, 10.0).retrieval_bound().satisfied) == [keys == HOX] * 2 + [True]
    text = bound_texts(at)
    assert "Your query is 0 from" in text and verdict in text


def test_presenter_mode_puts_the_player_beside_the_state_and_the_energy():
    from tests.support.apptest import check_presenter_layout
    check_presenter_layout("modern", "Continuous states and a log-sum-exp energy")

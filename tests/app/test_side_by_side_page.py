"""Side by side: the summary table shows what the core gives for the same store and query."""
import json

import numpy as np
import pytest

from hopfield_core import ClassicalHopfield, DenseAssociativeMemory, ModernHopfield
from hopfield_core.analysis import verdict
from hopfield_core.images import corrupt
from tests.support.apptest import open_app
from tests.support.samples import EIGHT, side_patterns

HARD = {"presets": EIGHT, "size": "16", "q_index": "3", "q_corruption": "flip",
        "q_amount": "0.2", "q_seed": "0"}
EASY = dict(HARD, size="12", q_index="0")


def expected_rows(keys="letters/H,letters/O,letters/X", size=16, q_index=0, kind="flip",
                  amount=0.2, seed=0, mode="async", degree=3, exp_beta=1.0, beta=20.0,
                  max_steps=30):
    """(steps, converged, verdict sentence, final energy as plotted, retrieved?) per network,
    by the core: the dense networks' readable energy (E / d^n, log-domain)."""
    keys = keys.split(",")
    names = [k.partition("/")[2] for k in keys]
    Xb, Xc = side_patterns(keys, size, True), side_patterns(keys, size, False)
    qb = corrupt(Xb[q_index], (size, size), kind, amount, rng=seed, binary=True)
    qc = corrupt(Xc[q_index], (size, size), kind, amount, rng=seed, binary=False)
    runs = [
        (ClassicalHopfield(Xb).run(qb, mode=mode, max_steps=max_steps, rng=seed), Xb, True),
        (DenseAssociativeMemory(Xb, degree=degree).run(qb, mode=mode, max_steps=max_steps, rng=seed,
                                                        readable=True), Xb, True),
        (DenseAssociativeMemory(Xb, interaction="exponential", beta=exp_beta).run(
            qb, mode=mode, max_steps=max_steps, rng=seed, readable=True), Xb, True),
        (ModernHopfield(Xc, beta=beta).run(qc, max_steps=max_steps), Xc, False),
    ]
    rows = []
    for traj, X, binary in runs:
        v = verdict(traj, X, binary)
        hit = "yes" if v.kind == "retrieved" and v.pattern == q_index else (
            "another pattern" if v.kind == "retrieved" else "no")
        rows.append((traj.steps, traj.converged, v.sentence(names), traj.energies[-1], hit))
    return rows


def table(at):
    df = at.dataframe[0].value
    return [(int(r["Steps"]), bool(r["Converged"]), r["Verdict"], float(r["Final energy (as plotted)"]),
             r["Retrieved?"]) for _, r in df.iterrows()]


def assert_rows_match(shown, expected, which=range(4)):
    for i in which:
        s, e = shown[i], expected[i]
        assert s[:3] == e[:3], (i, s, e)
        assert s[3] == pytest.approx(e[3], rel=1e-9, abs=1e-12), (i, s, e)
        assert s[4] == e[4], (i, s, e)


def test_default_store_table_matches_the_core():
    at = open_app("side_by_side")
    df = at.dataframe[0].value
    assert list(df["Network"]) == ["Classical (1982)", "Dense polynomial", "Dense exponential",
                                   "Modern continuous"]
    assert list(df["Settings"]) == ["async", "async, n = 3", "async, β = 1", "β = 20"]
    assert_rows_match(table(at), expected_rows())
    # the verdicts are also shown under the final states
    shown = [s.value for s in at.success] + [w.value for w in at.warning] + [i.value for i in at.info]
    for row in expected_rows():
        assert row[2] in shown


def test_eight_letters_at_size_12_classical_fails_where_dense_retrieves():
    """The first try-this prompt, checked against the core and on the page."""
    exp = expected_rows(EIGHT, size=12)
    assert exp[0][4] == "no" and "Spurious" in exp[0][2]
    assert [r[4] for r in exp[1:]] == ["yes", "yes", "yes"]
    at = open_app("side_by_side", query=EASY)
    assert "Pattern store (8/40)" in [h.value for h in at.sidebar.header]
    assert_rows_match(table(at), exp)


def test_changing_the_degree_changes_only_the_polynomial_row():
    at = open_app("side_by_side", query=HARD)
    before = table(at)
    assert_rows_match(before, expected_rows(EIGHT, q_index=3))
    assert before[1][4] == "no" and before[2][4] == "yes"  # the second try-this prompt
    at.number_input(key="side_by_side_degree").set_value(4).run()
    after = table(at)
    assert_rows_match(after, expected_rows(EIGHT, q_index=3, degree=4))
    assert after[1][4] == "yes"
    assert after[0] == before[0] and after[2:] == before[2:]
    assert at.dataframe[0].value["Settings"][1] == "async, n = 4"


def test_changing_the_modern_beta_changes_only_the_modern_row():
    at = open_app("side_by_side", query=HARD)
    before = table(at)
    at.number_input(key="side_by_side_beta").set_value(10.0).run()
    after = table(at)
    assert after[:3] == before[:3]
    assert_rows_match(after, expected_rows(EIGHT, q_index=3, beta=10.0), which=[3])
    assert "Metastable state: a blend of D, B." == after[3][2]  # the third prompt


def test_exponential_beta_changes_only_the_exponential_row():
    at = open_app("side_by_side")
    before = table(at)
    at.number_input(key="side_by_side_exp_beta").set_value(0.05).run()
    after = table(at)
    assert after[:2] == before[:2] and after[3] == before[3]
    assert_rows_match(after, expected_rows(exp_beta=0.05), which=[2])
    assert after[2][3] != before[2][3]  # its energy scale changes with beta


def test_sync_mode_changes_the_binary_rows_and_not_the_modern_one():
    query = {"presets": "shapes/checker,shapes/stripes", "q_corruption": "flip",
             "q_amount": "0.5", "q_seed": "5"}
    at = open_app("side_by_side", query=query)
    before = table(at)
    at.radio(key="side_by_side_mode").set_value("sync").run()
    after = table(at)
    exp = expected_rows(query["presets"], amount=0.5, seed=5, mode="sync")
    assert_rows_match(after, exp)
    assert after[3] == before[3]
    assert after[0] != before[0]
    assert "period 2" in after[0][2]  # the classical network oscillates
    assert any("period 2" in e.value for e in at.error)


def test_step_limit_cuts_the_runs_short():
    at = open_app("side_by_side", query=HARD)
    at.number_input(key="side_by_side_steps").set_value(1).run()
    shown = table(at)
    assert_rows_match(shown, expected_rows(EIGHT, q_index=3, max_steps=1))
    assert all(r[0] == 1 for r in shown)


def energy_figure(at):
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        if all(d["type"] == "scatter" for d in spec["data"]):
            return spec
    raise AssertionError("no energy chart")


def test_energy_view_changes_the_chart_only():
    at = open_app("side_by_side")
    rows = table(at)
    small = energy_figure(at)
    assert len(small["data"]) == 4 and "yaxis4" in small["layout"]  # four panels, own scales
    assert any("own y scale" in c.value for c in at.caption)
    at.radio(key="side_by_side_view").set_value("normalised").run()
    norm = energy_figure(at)
    assert len(norm["data"]) == 4 and "yaxis2" not in norm["layout"]  # one shared axis
    assert "normalised" in norm["layout"]["title"]["text"]
    assert any("normalised to 1 at the query" in c.value for c in at.caption)
    assert table(at) == rows


def test_url_params_seed_the_widgets_and_are_published():
    at = open_app("side_by_side", query={"mode": "sync", "degree": "5", "exp_beta": "2.5",
                                         "beta": "7", "steps": "12", "view": "normalised"})
    assert at.radio(key="side_by_side_mode").value == "sync"
    assert at.number_input(key="side_by_side_degree").value == 5
    assert at.number_input(key="side_by_side_exp_beta").value == 2.5
    assert at.number_input(key="side_by_side_beta").value == 7.0
    assert at.number_input(key="side_by_side_steps").value == 12
    assert at.radio(key="side_by_side_view").value == "normalised"
    assert_rows_match(table(at), expected_rows(mode="sync", degree=5, exp_beta=2.5, beta=7.0,
                                               max_steps=12))
    qp = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert qp["mode"] == "sync" and qp["degree"] == "5" and qp["view"] == "normalised"


def test_bad_url_values_fall_back_with_a_warning():
    at = open_app("side_by_side", query={"degree": "99", "beta": "nan", "mode": "bogus",
                                         "steps": "ten"})
    assert not at.exception
    assert at.number_input(key="side_by_side_degree").value == 10  # the nearest end of the range
    assert at.number_input(key="side_by_side_beta").value == 20.0
    assert at.radio(key="side_by_side_mode").value == "async"
    assert at.number_input(key="side_by_side_steps").value == 30
    warnings = " ".join(w.value for w in at.warning)
    assert "degree = `99` (Degree n (polynomial)), which is outside 2 to 10; using 10." in warnings
    assert "beta = `nan` (β (modern)), which is not a number; using 20." in warnings
    assert "mode = `bogus`" in warnings and "steps = `ten`" in warnings


def test_an_empty_store_asks_for_patterns():
    at = open_app("side_by_side")
    at.button(key="clear_store").click().run()
    assert not at.exception
    assert any("Store at least one pattern" in i.value for i in at.info)
    assert not at.dataframe


def test_a_new_query_from_the_sidebar_updates_every_row():
    at = open_app("side_by_side", query=HARD)
    at.number_input(key="q_seed").set_value(3).run()
    at.selectbox(key="q_index").select(0).run()
    assert_rows_match(table(at), expected_rows(EIGHT, q_index=0, seed=3))
    at.select_slider(key="size").set_value(12).run()
    assert_rows_match(table(at), expected_rows(EIGHT, size=12, q_index=0, seed=3))


def test_the_modern_beta_help_bounds_the_score_by_the_querys_length():
    """'Patterns have unit length, so x·ξ ≤ |ξ|, which is 1 for a query with flipped pixels (up
    to about 1.6 with the strongest noise)', not 'x·ξ ≤ 1' (the lengths are checked in
    tests/app/test_attention_page.py::test_the_scores_are_at_most_the_querys_length)."""
    from ui.pages.side_by_side.settings import SETTINGS

    text = SETTINGS.fields["beta"].help
    assert "x·ξ ≤ |ξ|, which is 1 for a query with flipped pixels" in text
    assert "up to about 1.6 with the strongest noise" in text and "x·ξ ≤ 1" not in text
    X = side_patterns(EIGHT.split(","), 16, False)
    q = corrupt(X[3], (16, 16), "noise", 1.0, rng=0, binary=False)
    assert np.abs(np.linalg.norm(X, axis=1) - 1).max() < 1e-12 and (X @ q).max() > 1

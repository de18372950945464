"""The classical page: store, corrupt, step, run; verdicts, energies, URL state, bad uploads."""
import numpy as np
import pytest

from hopfield_core import ClassicalHopfield
from tests.support.apptest import check_presenter_layout, open_app
from tests.support.player import at_step
from tests.support.samples import classical_run, letters


def energy_shown(at, t) -> float:
    return at_step(at, "classical", t).value()


def test_default_store_step_and_run_show_the_true_energies():
    at = open_app("classical")
    ref = classical_run("HOX", 0, "flip", 0.2, 0, "async")
    assert at_step(at, "classical", "end").t == ref.steps
    for t in range(ref.steps + 1):
        assert energy_shown(at, t) == float(f"{ref.energies[t]:.6g}")
    assert at_step(at, "classical", "end").texts("success") == ["Retrieved pattern H."]
    assert at_step(at, "classical", 0).texts("success") == []


def test_sync_updates_show_a_two_cycle():
    at = open_app("classical", query={"presets": "shapes/checker,shapes/stripes", "mode": "sync",
                                      "q_corruption": "flip", "q_amount": "0.5", "q_seed": "5"})
    assert at.radio(key="classical_mode").value == "sync"
    assert any("period 2" in e for e in at_step(at, "classical", "end").texts("error"))
    at.radio(key="classical_mode").set_value("async").run()
    end = at_step(at, "classical", "end")
    assert not any("period 2" in e or "report this as a bug" in e for e in end.texts("error"))


def test_adding_presets_removing_and_clearing():
    at = open_app("classical")
    at.segmented_control(key="preset_group").set_value("digits").run()
    at.multiselect(key="preset_names").select("1").select("7").run()
    at.button(key="add_presets").click().run()
    assert "Pattern store (5/40)" in [h.value for h in at.sidebar.header]
    at.button(key="remove_letters/O").click().run()
    assert "Pattern store (4/40)" in [h.value for h in at.sidebar.header]
    at.button(key="clear_store").click().run()
    assert any("Store at least one pattern" in i.value for i in at.info)
    assert not at.exception


def test_url_state_round_trips():
    at = open_app("classical", query={"presets": "letters/A,letters/B", "size": "12",
                                      "q_corruption": "half", "q_seed": "7", "mode": "sync",
                                      "T": "0.25"})
    assert at.select_slider(key="size").value == 12
    assert at.selectbox(key="q_corruption").value == "half"
    assert at.number_input(key="q_seed").value == 7
    assert at.slider(key="classical_T").value == 0.25
    qp = at.query_params
    assert qp["presets"] == ["letters/A,letters/B"] or qp["presets"] == "letters/A,letters/B"
    assert str(qp["mode"][0] if isinstance(qp["mode"], list) else qp["mode"]) == "sync"


def test_two_sessions_do_not_share_patterns():
    a = open_app("classical")
    b = open_app("classical")
    a.button(key="clear_store").click().run()
    assert any("Store at least one pattern" in i.value for i in a.info)
    assert "Pattern store (3/40)" in [h.value for h in b.sidebar.header]
    b.run()
    assert "Pattern store (3/40)" in [h.value for h in b.sidebar.header]


def test_the_caption_describes_the_settings_in_use():
    from ui.pages.classical.explain import caption

    assert caption("async", 0.0, "hebbian") == (
        "Binary neurons and Hebbian weights: updated one at a time at zero temperature, the "
        "state only goes downhill in energy. Corrupt a stored pattern and step it back.")
    hot = caption("async", 0.1, "storkey")
    assert "Storkey weights" in hot and "at temperature T = 0.1" in hot and "can rise" in hot
    sync = caption("sync", 0.0, "pseudoinverse")
    assert "pseudo-inverse weights" in sync and "all updated at once" in sync and "two states" in sync
    assert "downhill" not in hot + sync
    at = open_app("classical", query={"mode": "sync", "T": "0.25", "rule": "pseudoinverse"})
    assert at.caption[0].value == caption("sync", 0.25, "pseudoinverse")
    at.slider(key="classical_T").set_value(0.0).run()  # follows the controls too
    assert at.caption[0].value == caption("sync", 0.0, "pseudoinverse")


def _weights_as_written(X: np.ndarray, rule: str) -> np.ndarray:
    """W as the page's formulas for `rule` write it (ui.pages.classical.explain.RULES), with loops:
    an oracle for the core's vectorised rules."""
    N, d = X.shape
    if rule == "hebbian":  # W = (1/d) sum_mu x_mu x_mu^T
        W = sum(np.outer(x, x) for x in X) / d
    elif rule == "storkey":  # each pattern in turn, from W = 0
        W = np.zeros((d, d))
        for x in X:
            h = np.array([[sum(W[i, k] * x[k] for k in range(d) if k not in (i, j))
                           for j in range(d)] for i in range(d)])  # h_ij
            W = W + (np.outer(x, x) - x[:, None] * h.T - h * x[None, :]) / d
    else:  # W = X^T (X X^T)^+ X
        W = X.T @ np.linalg.pinv(X @ X.T) @ X
    np.fill_diagonal(W, 0.0)  # W_ii = 0
    return W


@pytest.mark.parametrize("rule", ["hebbian", "storkey", "pseudoinverse"])
def test_the_explanation_shows_the_weights_of_the_rule_in_use(rule):
    """Issue 34: the W equation and the sentence follow the learning rule, hidden or not."""
    from ui.pages.classical.explain import RULES

    at = open_app("classical", query={"rule": rule, "rule_hide": "1"})
    text = " ".join(m.value for m in at.markdown)
    shown = " ".join(x.value for x in at.latex)
    assert RULES[rule].sentence in text
    assert all(f in shown for f in RULES[rule].formulas)
    for other in set(RULES) - {rule}:
        assert RULES[other].sentence not in text
        assert not any(f in shown for f in RULES[other].formulas)
    assert ("**Hebb's rule**" in text) == (rule == "hebbian")


@pytest.mark.parametrize("rule", ["hebbian", "storkey", "pseudoinverse"])
def test_the_formula_shown_is_the_rule_the_core_runs(rule):
    rng = np.random.default_rng(3)
    for X in (rng.choice([-1.0, 1.0], size=(4, 12)), letters("HOX", 5)):  # random; correlated
        assert np.allclose(ClassicalHopfield(X, learning_rule=rule).weights,
                           _weights_as_written(X, rule), atol=1e-12)


def test_the_rule_sentences_hold():
    """Storkey: patterns that share features disturb each other less than under Hebb's rule
    (the letters A to H, 16 px: 6 of 8 stay fixed against Hebb's 1). Pseudo-inverse: every
    stored pattern is a fixed point, however much they overlap, and with more patterns than
    neurons too."""
    X = letters("ABCDEFGH")
    fixed = {r: sum(np.array_equal(ClassicalHopfield(X, learning_rule=r).step(x), x) for x in X)
             for r in ("hebbian", "storkey")}
    assert fixed == {"hebbian": 1, "storkey": 6}
    rng = np.random.default_rng(0)
    for P in (X, letters("OQCG", 8), rng.choice([-1.0, 1.0], size=(12, 9))):
        model = ClassicalHopfield(P, learning_rule="pseudoinverse")
        for x in P:
            assert np.array_equal(model.step(x, mode="sync"), x)
            assert np.array_equal(model.step(x, mode="async", rng=1), x)


def test_presenter_mode_puts_the_player_beside_the_state_and_the_energy():
    check_presenter_layout("classical", "Binary neurons and Hebbian weights: updated one at a time")

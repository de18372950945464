"""The dense page: the energies it plots (E / d^n, the log-domain energy), degree 2 =
classical, the demo, URL state, extreme beta."""
import math

import numpy as np

from hopfield_core import ClassicalHopfield, DenseAssociativeMemory
from hopfield_core.analysis import verdict
from hopfield_core.images import corrupt, resize, to_bipolar
from hopfield_core.presets import preset_image
from tests.support.apptest import open_app, open_tab
from tests.support.player import at_step
from ui.pages.dense.settings import BETAS

DEMO = "HOPFIELDKX"
DEMO_URL = {"presets": ",".join(f"letters/{c}" for c in DEMO), "size": "8"}


LABELS = ("Energy E / dⁿ", "Log-domain energy")


def energy_shown(at, t="end") -> float:
    step = at_step(at, "dense", t)
    assert step.p["panels"]["energy_metric"]["label"] in LABELS
    return step.value()


def label_shown(at) -> str:
    return at_step(at, "dense", 0).p["panels"]["energy_metric"]["label"]


def shown(elements) -> list[str]:
    return [e.value for e in elements]


def boxes(at, kind: str) -> list[str]:
    """The page's boxes of a kind (st.success: "success", ...) and those of the player at the run's end."""
    return shown(getattr(at, kind)) + at_step(at, "dense", "end").texts(kind)


def store_and_query(letters, q_index=0, amount=0.2, seed=0, size=16, kind="flip"):
    X = np.stack([to_bipolar(resize(preset_image("letters", c, 64), (size, size)))
                  for c in letters])
    q = corrupt(X[q_index], (size, size), kind, amount, rng=seed)
    return X, q


def run_dense(X, q, mode="async", seed=0, steps=30, readable=True, **cfg):
    return DenseAssociativeMemory(X, **cfg).run(q, mode=mode, rng=seed, max_steps=steps,
                                                readable=readable)


def run_classical(X, q, mode="async", seed=0, steps=30):
    return ClassicalHopfield(X).run(q, mode=mode, rng=seed, max_steps=steps)


def fmt(e: float) -> float:
    return float(f"{e:.6g}")


def test_default_store_step_and_run_show_the_readable_energies():
    at = open_app("dense")
    info = " ".join(shown(at.info))
    for part in ("positive rescaling", "changes no update", "keeps $E$ in $[-N, 0]$"):
        assert part in info  # the exponential's rescaling is said on screen
    assert label_shown(at) == "Energy E / dⁿ"
    X, q = store_and_query("HOX")
    ref = run_dense(X, q, degree=3)
    assert ref.steps >= 2
    for t in range(ref.steps + 1):
        assert energy_shown(at, t) == fmt(ref.energies[t])
    (verdict,) = at_step(at, "dense", "end").texts("success")
    assert verdict == "Retrieved pattern H. The classical network (1982), same query: Retrieved pattern H."
    assert "Dense: Retrieved pattern H." in shown(at.success)
    # other models on the same store and query
    at.slider(key="dense_n").set_value(6).run()
    assert energy_shown(at) == fmt(run_dense(X, q, degree=6).energies[-1])
    at.radio(key="dense_interaction").set_value("exponential").run()
    at.select_slider(key="dense_beta").set_value(0.2).run()
    assert energy_shown(at, 1) == fmt(run_dense(X, q, interaction="exponential", beta=0.2).energies[1])
    assert not at.exception


def test_degree_two_runs_exactly_like_the_classical_network():
    # query I of the demo store, seed 1: the classical network ends in a mixture state when
    # updated async and retrieves I when updated sync, so each mode must be the page's own
    query = {**DEMO_URL, "n": "2", "q_index": "4", "q_amount": "0.2", "q_seed": "1"}
    finals = []
    for mode in ("async", "sync"):
        at = open_app("dense", query={**query, "mode": mode})
        assert at.slider(key="dense_n").value == 2
        X, q = store_and_query(DEMO, q_index=4, amount=0.2, seed=1, size=8)
        dense = run_dense(X, q, mode, seed=1, degree=2)
        classical = run_classical(X, q, mode, seed=1)
        finals.append(classical.final)
        # the oracle: same states, energies related by E_dense = 2 d E_classical - N d,
        # and the page plots E_dense / d^2
        np.testing.assert_array_equal(dense.states, classical.states)
        N, d = X.shape
        np.testing.assert_allclose(dense.energies * d ** 2, 2 * d * classical.energies - N * d,
                                   rtol=1e-12)
        assert energy_shown(at) == fmt(dense.energies[-1])
        sentence = verdict(classical, X, binary=True).sentence(list(DEMO))
        texts = boxes(at, "success") + boxes(at, "warning") + boxes(at, "info") + boxes(at, "error")
        assert f"Classical: {sentence}" in texts and f"Dense: {sentence}" in texts
        assert any("differ in **0 of 64** neurons" in m for m in shown(at.markdown))
        captions = shown(at.caption)
        # both panels show their own run of the same query
        assert f"after {classical.steps} steps, final energy E {classical.energies[-1]:.6g}" in captions
        assert f"after {dense.steps} steps, final energy E / dⁿ {dense.energies[-1]:.6g}" in captions
        assert any("Degree 2 is the classical network" in i for i in shown(at.info))
        assert not at.exception
    assert not np.array_equal(*finals)


def test_demo_button_classical_fails_dense_retrieves():
    at = open_app("dense")
    at.slider(key="dense_n").set_value(2).run()
    at.radio(key="dense_mode").set_value("sync").run()
    at.button(key="dense_demo").click().run()
    assert not at.exception
    assert "Pattern store (10/40)" in shown(at.sidebar.header)
    assert at.select_slider(key="size").value == 8
    assert at.slider(key="dense_n").value == 3 and at.radio(key="dense_mode").value == "async"

    X, q = store_and_query(DEMO, size=8)
    N, d = X.shape
    assert N > 0.138 * d  # beyond the classical capacity, as the page says
    cl = verdict(run_classical(X, q), X, binary=True)
    dn = verdict(run_dense(X, q, degree=3), X, binary=True)
    assert not (cl.kind == "retrieved" and cl.pattern == 0)
    assert dn.kind == "retrieved" and dn.pattern == 0
    assert f"Classical: {cl.sentence(list(DEMO))}" in shown(at.warning)
    assert "Dense: Retrieved pattern H." in shown(at.success)
    ref_cl = run_classical(X, q)
    assert (f"after {ref_cl.steps} steps, final energy E {ref_cl.energies[-1]:.6g}"
            in shown(at.caption))
    assert any("differ in **0 of 64**" not in m and "differ in" in m for m in shown(at.markdown))
    open_tab(at, "dense_view", "capacity")
    assert [m.value for m in at.metric if m.label == "Stored patterns N"] == ["10"]
    assert [m.value for m in at.metric if m.label == "Classical capacity 0.138 d"] == ["8.8"]
    assert "$N = 10 > 0.138\\,d \\approx 8.8$: more patterns than the" in " ".join(shown(at.markdown))
    no_errors = 64 ** 2 / (2 * 3 * math.log(64))  # d^(n-1) / (2 (2n-3)!! ln d), n = 3
    assert [m.value for m in at.metric
            if m.label == "Capacity of degree 3 (no errors)"] == [f"{no_errors:,.0f}"]
    assert at.query_params["view"] in ("capacity", ["capacity"])
    open_tab(at, "dense_view", "compare")

    # "Try this" 1: degree 10 still retrieves, degree 2 fails like the classical net
    at.slider(key="dense_n").set_value(10).run()
    assert "Dense: Retrieved pattern H." in shown(at.success)
    at.slider(key="dense_n").set_value(2).run()
    assert f"Dense: {cl.sentence(list(DEMO))}" in shown(at.warning)

    # "Try this" 2: beta = 0.01 and 0.02 end in a spurious state; "From beta = 0.05 up it
    # retrieves H" (not "from 0.1": 0.05 retrieves too), at every beta the slider offers
    at.radio(key="dense_interaction").set_value("exponential").run()
    for beta in (0.01, 0.02):
        at.select_slider(key="dense_beta").set_value(beta).run()
        ref = verdict(run_dense(X, q, interaction="exponential", beta=beta), X, binary=True)
        assert ref.kind == "spurious"
        assert f"Dense: {ref.sentence(list(DEMO))}" in shown(at.warning)
    at.select_slider(key="dense_beta").set_value(0.05).run()
    assert "Dense: Retrieved pattern H." in shown(at.success)
    for beta in BETAS[BETAS.index(0.05):]:
        ref = verdict(run_dense(X, q, interaction="exponential", beta=beta), X, binary=True)
        assert ref.kind == "retrieved" and ref.pattern == 0, beta
    text = " ".join(shown(at.markdown))
    assert "(at $\\beta = 0.02$ too). From $\\beta = 0.05$ up it retrieves H." in text

    # "Try this" 3: query F, 30 % flipped, sync, n = 8: a 2-cycle with a rising energy
    at.radio(key="dense_interaction").set_value("polynomial").run()
    at.slider(key="dense_n").set_value(8).run()
    at.selectbox(key="q_index").set_value(3).run()
    at.slider(key="q_amount").set_value(0.3).run()
    at.radio(key="dense_mode").set_value("sync").run()
    X, q = store_and_query(DEMO, q_index=3, amount=0.3, size=8)
    ref = run_dense(X, q, "sync", degree=8)
    assert ref.cycle == 2
    assert energy_shown(at) == fmt(ref.energies[-1])
    assert any("period 2" in e for e in boxes(at, "error"))
    assert any("The energy rose at step 3" in w for w in boxes(at, "warning"))
    assert not any("report this as a bug" in e for e in boxes(at, "error"))
    at.radio(key="dense_mode").set_value("async").run()
    assert any(b.startswith("Retrieved pattern F.") for b in boxes(at, "success"))
    assert not at.exception


def test_url_params_seed_the_widgets_and_are_published():
    at = open_app("dense", query={"interaction": "exponential", "beta": "0.2", "mode": "sync",
                                  "n": "7", "rect": "1", "steps": "50"})
    assert at.radio(key="dense_interaction").value == "exponential"
    assert at.select_slider(key="dense_beta").value == 0.2
    assert at.radio(key="dense_mode").value == "sync"
    assert at.slider(key="dense_n").value == 7
    assert at.toggle(key="dense_rect").value is True
    assert at.number_input(key="dense_steps").value == 50
    # the degree and the rectifier apply to the polynomial interaction only: said, and not carried on
    assert [w.value for w in at.warning] == [
        "2 things in this link could not be used as written:\n\n"
        "- The link sets n = `7` (Degree n), which applies only with interaction=polynomial (Interaction F); "
        "add interaction=polynomial to the link to use it.\n"
        "- The link sets rect = `1` (Rectified), which applies only with interaction=polynomial "
        "(Interaction F); add interaction=polynomial to the link to use it."]
    assert not at.exception
    qp = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert qp["interaction"] == "exponential" and qp["mode"] == "sync"
    assert "n" not in qp and "rect" not in qp and qp["steps"] == "50"
    assert float(qp["beta"]) == 0.2


def test_bad_url_values_give_warnings_not_tracebacks():
    at = open_app("dense", query={"interaction": "cubic", "n": "15", "beta": "-1",
                                  "mode": "sideways", "rect": "maybe", "steps": "abc"})
    assert not at.exception
    assert at.radio(key="dense_interaction").value == "polynomial"
    assert at.slider(key="dense_n").value == 10
    assert at.select_slider(key="dense_beta").value == 0.01  # the nearest end of the range
    assert at.radio(key="dense_mode").value == "async"
    assert at.number_input(key="dense_steps").value == 30
    warnings = " ".join(shown(at.warning))
    for part in ("`cubic`", "n = `15`", "`-1`", "`sideways`", "`maybe`", "`abc`"):
        assert part in warnings
    at = open_app("dense", query={"beta": "3", "n": "x"})
    assert at.select_slider(key="dense_beta").value == 2.0
    assert at.slider(key="dense_n").value == 3
    assert any("not a step of the slider" in w and "using 2." in w for w in shown(at.warning))


def test_exponential_at_a_large_beta_stays_finite():
    at = open_app("dense")
    at.radio(key="dense_interaction").set_value("exponential").run()
    at.select_slider(key="dense_beta").set_value(100.0).run()
    X, q = store_and_query("HOX")
    ref = run_dense(X, q, interaction="exponential", beta=100.0)
    assert np.all(np.isfinite(ref.energies))
    assert not at.exception and not at.error
    for t in range(ref.steps + 1):
        assert math.isfinite(energy_shown(at, t))
        assert not at_step(at, "dense", t).texts("error")
        assert "nan" not in at_step(at, "dense", t).metric()[0].lower()
    # at H itself the log-domain energy is -(1/beta) log(1 + the other two terms), and those
    # are below exp(-100 * 2 * 40): it prints as -0
    assert energy_shown(at) == fmt(ref.energies[-1]) == 0.0
    assert "Dense: Retrieved pattern H." in shown(at.success)
    assert all("nan" not in m.value.lower() for m in at.metric)
    assert label_shown(at) == "Log-domain energy"
    at.radio(key="dense_mode").set_value("sync").run()
    assert not at.exception and not at.error and not at_step(at, "dense", "end").texts("error")
    assert energy_shown(at) == fmt(run_dense(X, q, "sync", interaction="exponential",
                                             beta=100.0).energies[-1])


def test_empty_store_asks_for_patterns():
    at = open_app("dense")
    at.button(key="clear_store").click().run()
    assert any("Store at least one pattern" in i for i in shown(at.info))
    assert not at.exception


def test_the_demo_replaces_an_uploaded_query_image_too(monkeypatch, tmp_path):
    """Its caption says it replaces the query: an uploaded query image gives way to the demo's
    letter (before, a check of a session key nothing set left the upload in use)."""
    from tests.support.badfiles import encode, photo
    from ui.store import uploads

    monkeypatch.setenv(uploads.ROOT_ENV, str(tmp_path))
    at = open_app("dense")
    at.file_uploader(key="q_uploader").set_value(("q.png", encode(photo(seed=7), "PNG"),
                                                  "image/png")).run()
    assert at.session_state["q_image"] is not None
    at.button(key="dense_demo").click().run()
    assert not at.exception
    assert at.session_state["q_image"] is None
    assert "Dense: Retrieved pattern H." in shown(at.success)


def test_the_demo_sets_exactly_its_values_through_the_settings_layer():
    """Every shared and model setting the demo names takes the demo's value (in the layer, in
    the widget and in the address bar), whatever it was; beta is not the demo's and stays."""
    from ui.pages.dense.settings import DEMO_LINK, DEMO_MODEL, DEMO_SIDEBAR, SETTINGS
    from ui.store.shared_settings import SIDEBAR

    before = {"size": "16", "colour": "1", "binarize": "dither", "q_index": "2",
              "q_corruption": "noise", "q_amount": "0.5", "q_seed": "7", "q_flip": "1,2",
              "interaction": "exponential", "n": "5", "rect": "1", "mode": "sync",
              "steps": "50", "beta": "10"}
    at = open_app("dense", query={"presets": "letters/A,letters/B,letters/C", **before})
    assert set(before) == set(DEMO_SIDEBAR) | set(DEMO_MODEL) | {"beta"}  # each one changes
    at.button(key="dense_demo").click().run()
    assert not at.exception
    for S, demo in ((SIDEBAR, DEMO_SIDEBAR), (SETTINGS, DEMO_MODEL)):
        for key, value in demo.items():
            assert S.fields[key].parse(before[key])[0] != value, key
            sk = S.state_key(key)
            assert at.session_state["_settings"][sk] == value, key
            assert at.session_state[sk] == value, key
            if S.fields[key].shown(value) == "":  # an empty value of the page's own is left out
                assert key not in at.query_params, key
                continue
            assert at.query_params[key] in (S.fields[key].shown(value), [S.fields[key].shown(value)])
    assert at.session_state["dense_beta"] == 10.0 and at.select_slider(key="dense_beta").value == 10.0
    assert DEMO_LINK == {"presets": tuple(f"letters/{c}" for c in DEMO), "q_image": None}
    assert at.query_params["presets"] in (DEMO_URL["presets"], [DEMO_URL["presets"]])
    assert at.session_state["q_image"] is None and "q_image" not in at.query_params
    assert at.select_slider(key="size").value == 8 and at.toggle(key="colour").value is False
    assert "Pattern store (10/40)" in shown(at.sidebar.header)


def test_the_capacity_caption_names_the_26_letters_the_classical_network_loses():
    """The caption's claim (0 of 26 fixed points) is computed in tests/ui/pages/test_page_claims.py."""
    at = open_app("dense", query={"view": "capacity"})
    assert any("Store all 26 letters at 16 px to see the classical network keep none of them"
               in c for c in shown(at.caption))


def test_presenter_mode_puts_the_player_beside_the_state_and_the_energy():
    from tests.support.apptest import check_presenter_layout
    check_presenter_layout("dense", "A sharper interaction than the classical square")

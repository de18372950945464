"""The attention limit: the printed checks, the heatmap, heads, the iteration, URL state."""
import itertools
import json
import math

import numpy as np
import pytest

from hopfield_core import ModernHopfield, compare
from hopfield_core.images import corrupt, resize, to_continuous
from hopfield_core.presets import preset_image
from tests.support.apptest import array, open_app
from ui.pages.attention.explain import TRY_THIS

HOX = "letters/H,letters/O,letters/X"


def setup(keys=HOX, size=16, q_index=0, kind="flip", amount=0.2, seed=0):
    """ui/store/patterns.py's continuous recipe: X (N, d) centred unit-norm rows and the query (d,)."""
    rows = []
    for key in keys.split(","):
        group, _, name = key.partition("/")
        rows.append(to_continuous(resize(preset_image(group, name, 64), (size, size)), unit_norm=True))
    X = np.stack(rows)
    return X, corrupt(X[q_index], (size, size), kind, amount, rng=seed, binary=False)


def softmax_rows(S):
    E = np.exp(S - S.max(axis=-1, keepdims=True))
    return E / E.sum(axis=-1, keepdims=True)


def metric(at, label_start):
    hits = [m for m in at.metric if m.label.startswith(label_start)]
    assert len(hits) == 1, [m.label for m in at.metric]
    return float(hits[0].value)


def charts(at):
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def heatmaps(at):
    spec = next(s for s in charts(at) if s["data"][0]["type"] == "heatmap")
    return spec, [array(d["z"]) for d in spec["data"]]


def test_the_printed_differences_are_rounding_and_the_wrong_beta_one_is_not():
    at = open_app("attention")
    X, q = setup()
    assert metric(at, "max |attention − Hopfield step|") < 1e-6
    assert metric(at, "max |ours − PyTorch SDPA|") < 1e-6
    # the Hopfield step written out with beta = 1/sqrt(d), against one with the scale forgotten
    right = q @ X.T / math.sqrt(256)
    wrong_gap = np.max(np.abs(softmax_rows(right) @ X - softmax_rows(q @ X.T) @ X))
    assert wrong_gap > 1e-3
    assert metric(at, "… if the step forgot the scale") == pytest.approx(wrong_gap, rel=1e-2)
    assert any("Equal up to rounding" in s.value for s in at.success)
    assert not at.error


def test_a_wrong_beta_in_the_core_check_gives_a_big_difference():
    X, q = setup()
    Q = q[None, :]
    beta = 1 / math.sqrt(X.shape[1])
    assert compare.hopfield_step_gap(Q, X, beta) < 1e-12
    for wrong in (2 * beta, 1.0, beta / 2):
        assert compare.hopfield_step_gap(Q, X, beta, hopfield_beta=wrong) > 1e-4


def test_heatmap_shape_and_values_match_n_patterns_and_queries():
    at = open_app("attention", query={"presets": "letters/A,letters/B,letters/C,letters/D,letters/E"})
    X, q = setup("letters/A,letters/B,letters/C,letters/D,letters/E")
    spec, (z,) = heatmaps(at)
    assert z.shape == (1, 5)
    np.testing.assert_allclose(z[0], softmax_rows(q @ X.T / 16.0), rtol=1e-9)
    assert list(spec["data"][0]["x"]) == ["1. A", "2. B", "3. C", "4. D", "5. E"]
    at.toggle(key="attention_all").set_value(True).run()
    spec, (z,) = heatmaps(at)
    assert z.shape == (6, 5)
    assert spec["data"][0]["y"][0] == "query" and spec["data"][0]["y"][3] == "3. C (corrupted)"
    np.testing.assert_allclose(z.sum(axis=1), 1.0)
    assert metric(at, "max |ours − PyTorch SDPA|") < 1e-6


@pytest.mark.parametrize("kind", ["tied", "random"])
def test_several_heads_work_and_match_a_per_head_computation(kind):
    at = open_app("attention", query={"proj": kind, "heads": "3", "dk": "4",
                                      "seed": "2", "beta": "20", "bhand": "1"})
    assert not at.exception
    X, q = setup()
    P = compare.random_projections(256, 4, heads=3, seed=2, tied=kind == "tied")
    spec, zs = heatmaps(at)
    assert len(zs) == 3 and all(z.shape == (1, 3) for z in zs)
    for h, z in enumerate(zs):
        cols = slice(4 * h, 4 * h + 4)
        expected = softmax_rows(20.0 * (q @ P.W_Q[:, cols]) @ (X @ P.W_K[:, cols]).T)
        np.testing.assert_allclose(z[0], expected, rtol=1e-9, atol=1e-15)
    assert [a["text"] for a in spec["layout"]["annotations"]][:3] == ["head 1", "head 2", "head 3"]
    assert metric(at, "max |ours − PyTorch SDPA|") < 1e-6
    assert metric(at, "max |attention − Hopfield step|") < 1e-6


def test_iteration_converges_to_the_fixed_point_of_modern_hopfield_run():
    at = open_app("attention", query={"beta": "20", "bhand": "1", "T": "8"})
    X, q = setup()
    ref = ModernHopfield(X, beta=20.0).run(q, max_steps=500, tol=1e-12)
    xi = q
    for _ in range(8):  # the same iteration, written out
        xi = softmax_rows(20.0 * (X @ xi)) @ X
    assert np.max(np.abs(xi - ref.final)) < 1e-9
    assert metric(at, "max |ξ(T) − fixed point of ModernHopfield.run|") < 1e-6
    assert metric(at, "Last change") < 1e-6
    assert any(s.value == "Retrieved pattern H." for s in at.success)
    assert metric(at, "Energy at T") == pytest.approx(float(f"{ModernHopfield(X, beta=20.0).energy(xi):.6g}"))
    strip = next(s for s in charts(at) if s["data"][0]["type"] == "image" and s["layout"].get("annotations"))
    labels = [a["text"] for a in strip["layout"]["annotations"]]
    assert labels == ["query"] + [f"t = {t}" for t in range(1, 9)]


def test_default_beta_iteration_ends_at_the_global_average():
    at = open_app("attention")
    X, q = setup()
    ref = ModernHopfield(X, beta=1 / 16).run(q, max_steps=500, tol=1e-12)
    assert metric(at, "max |ξ(T) − fixed point of ModernHopfield.run|") < 1e-6
    assert any("Global fixed point" in i.value and "raise β to retrieve" in i.value for i in at.info)
    assert not at.warning  # the default shows the lesson, not a warning
    energy = next(s for s in charts(at) if s["layout"].get("title", {}).get("text", "").startswith("Hopfield energy"))
    E = array(energy["data"][0]["y"])
    assert len(E) == 11 and E[-1] == pytest.approx(ref.energies[-1], rel=1e-9)
    assert np.all(np.diff(E) <= 1e-12)


def test_too_few_steps_is_reported_as_not_converged():
    at = open_app("attention", query={"beta": "5", "bhand": "1", "T": "1"})
    assert metric(at, "Last change") > 1e-6
    assert metric(at, "max |ξ(T) − fixed point of ModernHopfield.run|") > 1e-6
    assert any("Not converged yet" in w.value for w in at.warning)


def test_url_params_seed_the_widgets_and_round_trip():
    at = open_app("attention", query={"proj": "tied", "dk": "8", "heads": "2",
                                      "seed": "3", "beta": "5", "bhand": "1", "all": "1", "T": "7"})
    assert at.radio(key="attention_proj").value == "tied"
    assert at.number_input(key="attention_dk").value == 8
    assert at.slider(key="attention_heads").value == 2
    assert at.number_input(key="attention_seed").value == 3
    assert at.toggle(key="attention_bhand").value is True
    assert at.number_input(key="attention_beta").value == 5.0
    assert at.toggle(key="attention_all").value is True
    assert at.slider(key="attention_T").value == 7
    _, zs = heatmaps(at)
    assert len(zs) == 2 and zs[0].shape == (4, 3)
    qp = {k: (v[0] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert (qp["proj"], qp["dk"], qp["heads"], qp["beta"], qp["T"]) == \
        ("tied", "8", "2", "5", "7")
    # turning the hand-set beta off goes back to 1/sqrt(d_k), and the link says so
    at.toggle(key="attention_bhand").set_value(False).run()
    assert at.query_params["bhand"] in ("0", ["0"])  # beta back to 1/sqrt(d_k)
    assert "β = 0.3536" in heatmaps(at)[0]["layout"]["title"]["text"]  # 1/sqrt(8)


def test_identity_projections_disable_the_projection_widgets():
    at = open_app("attention")
    assert at.number_input(key="attention_dk").disabled and at.slider(key="attention_heads").disabled
    assert at.number_input(key="attention_beta").disabled
    at.radio(key="attention_proj").set_value("random").run()
    assert not at.number_input(key="attention_dk").disabled and not at.slider(key="attention_heads").disabled


def test_bad_url_values_fall_back_with_a_warning():
    """Under the names older links gave them (at_heads, ...): read, named as the link wrote
    them, and written back under the current names."""
    at = open_app("attention", query={"at_heads": "9", "at_dk": "-3", "at_proj": "magic",
                                      "at_T": "x"})
    assert not at.exception
    # out of range: the nearest end of the range; not usable at all: the default
    assert at.slider(key="attention_heads").value == 4 and at.number_input(key="attention_dk").value == 1
    assert at.radio(key="attention_proj").value == "identity" and at.slider(key="attention_T").value == 10
    warnings = " ".join(w.value for w in at.warning)
    assert "at_heads = `9` (Heads), which is outside 1 to 4; using 4." in warnings
    assert "at_dk = `-3`" in warnings and "using 1." in warnings
    assert "at_proj = `magic`" in warnings and "is not one of identity, tied, random" in warnings
    assert "at_T = `x` (Iteration steps T), which is not a whole number; using 10." in warnings
    assert at.query_params["heads"] in ("4", ["4"]) and "at_heads" not in at.query_params


def test_a_link_of_the_old_names_still_sets_and_hides_the_controls():
    """Links shared before the page's fields lost their "at_" prefix keep working."""
    at = open_app("attention", query={"at_T": "7", "at_heads_hide": "1", "at_heads": "2",
                                      "at_proj": "random"})
    assert not at.exception and not at.warning
    assert at.slider(key="attention_T").value == 7
    assert at.radio(key="attention_proj").value == "random"
    assert not [w for w in at.slider if w.key == "attention_heads"]  # hidden, its value in use
    assert at.query_params["T"] in ("7", ["7"]) and at.query_params["heads"] in ("2", ["2"])
    assert at.query_params["heads_hide"] in ("1", ["1"])
    assert not {"at_T", "at_heads", "at_heads_hide", "at_proj"} & set(at.query_params)


def test_an_empty_store_asks_for_patterns():
    at = open_app("attention")
    at.button(key="clear_store").click().run()
    assert not at.exception
    assert any("Store at least one pattern" in i.value for i in at.info)


def test_a_new_query_or_store_updates_the_heatmap_and_the_iteration():
    at = open_app("attention", query={"beta": "20", "bhand": "1"})
    at.selectbox(key="q_index").select(1).run()
    at.number_input(key="q_seed").set_value(4).run()
    X, q = setup(q_index=1, seed=4)
    _, (z,) = heatmaps(at)
    np.testing.assert_allclose(z[0], softmax_rows(20.0 * q @ X.T), rtol=1e-9)
    assert any(s.value == "Retrieved pattern O." for s in at.success)
    at.button(key="remove_letters/X").click().run()
    _, (z,) = heatmaps(at)
    assert z.shape == (1, 2)


def test_try_this_tied_heads_disagree_at_d_k_2_and_agree_at_16():
    at = open_app("attention", query={"proj": "tied", "heads": "4", "dk": "2",
                                      "beta": "20", "bhand": "1"})
    _, zs = heatmaps(at)
    favourite = [int(np.argmax(z[0])) for z in zs]
    assert len(set(favourite)) > 1  # the heads disagree
    at.number_input(key="attention_dk").set_value(16).run()
    _, zs = heatmaps(at)
    assert all(z[0, 0] > 0.99 for z in zs)  # every head on H
    at.toggle(key="attention_all").set_value(True).run()
    at.radio(key="attention_proj").set_value("identity").run()
    _, (z,) = heatmaps(at)
    np.testing.assert_allclose(z[1:], np.eye(3), atol=1e-3)  # each corrupted letter on itself


def test_try_this_the_default_beta_weighs_every_letter_about_a_third_and_20_retrieves_h():
    """'With the default H, O, X and beta = 1/sqrt(d) = 1/16, every weight in the heatmap is
    close to 1/3 and the iteration settles within a few steps at nearly the average of the
    three letters. ... beta = 20: the query's row lights up on H and the iteration retrieves H
    after one step.'"""
    assert "settles within a few steps at nearly the **average**" in TRY_THIS
    at = open_app("attention")
    X, q = setup()
    _, (z,) = heatmaps(at)
    p = softmax_rows(X @ q / 16)
    np.testing.assert_allclose(z[0], p, atol=1e-12)
    assert [f"{w:.3f}" for w in p] == ["0.342", "0.330", "0.329"]  # close to 1/3
    xi, changes = q, []
    for _ in range(10):
        new = softmax_rows(X @ xi / 16) @ X
        changes.append(np.abs(new - xi).max())
        xi = new
    assert changes[3] < 1e-6                                            # within a few steps
    mean = X.mean(axis=0)
    assert np.linalg.norm(xi - mean) < 0.01 * np.linalg.norm(mean)     # nearly the average
    np.testing.assert_allclose(softmax_rows(X @ xi / 16), 1 / 3, atol=0.002)
    at = open_app("attention", query={"beta": "20", "bhand": "1"})
    _, (z,) = heatmaps(at)
    assert z[0, 0] > 0.9999                                             # lights up on H
    one = softmax_rows(20.0 * (X @ q)) @ X
    assert np.linalg.norm(one - X[0]) < 1e-4                            # H after one step
    assert any(s.value == "Retrieved pattern H." for s in at.success)


def test_try_this_independent_heads_attend_to_letters_at_random():
    """'Now choose random, independent: the heads attend to letters at random' (4 heads,
    d_k = 16, beta = 20, seed 0), where the tied heads all chose H."""
    at = open_app("attention", query={"proj": "random", "heads": "4", "dk": "16",
                                      "beta": "20", "bhand": "1"})
    _, zs = heatmaps(at)
    favourite = [int(np.argmax(z[0])) for z in zs]
    assert len(set(favourite)) >= 3 and favourite.count(0) == 1       # O, H, X, X


def test_the_check_names_the_hand_set_beta():
    """The AGREE message: 'softmax(beta Q K^T) V (beta = 1/sqrt(d_k) unless set by hand)', not
    'softmax(Q K^T / sqrt(d_k)) V', which is wrong when beta is set by hand (here 20)."""
    at = open_app("attention", query={"bhand": "1", "beta": "20"})
    assert metric(at, "max |attention − Hopfield step|") < 1e-6
    (ok,) = [s.value for s in at.success if s.value.startswith("Equal up to rounding")]
    assert "softmax(β Q Kᵀ) V (β = 1/√d_k unless set by hand)" in ok
    assert "softmax(Q Kᵀ/√d_k) V" not in ok


def test_the_scores_are_at_most_the_querys_length():
    """'the scores x_mu . xi are at most |xi|: 1 for a query with flipped pixels, less when
    part of it is hidden, up to about 1.6 with the strongest noise' (not 'at most 1')."""
    X, _ = setup("letters/H,letters/O,letters/X,letters/A")
    lengths = {kind: [] for kind in ("flip", "none", "invert", "mask", "half", "noise")}
    for kind in lengths:
        for i, amount, seed in itertools.product(range(4), np.linspace(0, 1, 11), range(10)):
            xi = corrupt(X[i], (16, 16), kind, float(amount), rng=seed, binary=False)
            assert np.all(X @ xi <= np.linalg.norm(xi) + 1e-12)
            lengths[kind].append(np.linalg.norm(xi))
    for kind in ("flip", "none", "invert"):
        np.testing.assert_allclose(lengths[kind], 1.0, atol=1e-12)
    assert max(lengths["mask"] + lengths["half"]) <= 1 + 1e-12
    assert 1.5 < max(lengths["noise"]) < 1.65
    assert max(X @ corrupt(X[0], (16, 16), "noise", 1.0, rng=0, binary=False)) > 1  # above 1

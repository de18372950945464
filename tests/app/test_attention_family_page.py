"""The exponential-family page: its numbers and chart_ids are the core's, the player walks the
layers, an empty store gets a message, and every number its text states holds."""
import json
import math

import numpy as np
import pytest

from hopfield_core import expfamily as ef
from tests.support.apptest import array, open_app, open_tab
from tests.support.player import at_step, payload
from ui.pages.attention_family import explain

PAGE = "attention_family"


def spec(at, i):
    return json.loads(at.get("plotly_chart")[i].proto.spec)


def metric(at, label_start):
    return next(m.value for m in at.metric if m.label.startswith(label_start))


def test_attention_is_the_gradient_on_the_stored_patterns():
    at = open_app(PAGE)
    assert not at.warning and len(at.get("plotly_chart")) == 2
    assert float(metric(at, "Largest |∇A(q) by autograd")) < 1e-12
    assert float(metric(at, "Largest |Hessian by autograd")) < 1e-12
    weights = array(spec(at, 0)["data"][0]["y"])
    assert weights.sum() == pytest.approx(1.0) and weights.max() > 0.9  # q is a noisy H
    eig = array(spec(at, 1)["data"][0]["y"])
    assert len(eig) == 3 and eig.min() > -1e-12 and abs(eig[-1]) < 1e-12  # rank N - 1


def test_an_empty_store_gets_a_message():
    at = open_app(PAGE)
    at.button(key="clear_store").click().run()
    assert not at.exception and not at.get("plotly_chart")
    assert any("Store at least one pattern" in i.value for i in at.info)


def test_the_cloud_is_the_cores_and_the_player_walks_the_layers():
    at = open_app(PAGE)
    open_tab(at, "attention_family_view", "cloud")
    assert not at.get("plotly_chart") and not at.warning  # the four charts are the player's
    Z = ef.token_cloud("blob", 32, 3, 0)
    plain, normed = ef.token_layers(Z, 10, 1.0), ef.token_layers(Z, 10, 1.0, layer_norm=True)
    p = payload(at, PAGE)
    assert p["T"] == 10 and p["unit"] == "layer"
    for t in range(11):
        step = at_step(at, PAGE, t)
        m = step.p["panels"]
        assert m["spread_plain"]["label"][t] == f"Spread after layer {t}, attention + residual"
        assert step.metric("spread_plain")[0] == f"{ef.spread(plain[t]):.4g}"
        assert m["spread_normed"]["label"][t] == f"Spread after layer {t}, then layer norm"
        assert step.metric("spread_normed")[0] == f"{ef.spread(normed[t]):.4g}"
        np.testing.assert_allclose(array(step.figure("plain")["data"][0]["x"]), plain[t][:, 0])
        np.testing.assert_allclose(array(step.figure("normed")["data"][0]["y"]), normed[t][:, 1])
    np.testing.assert_allclose(array(at_step(at, PAGE, 1).figure("spread")["data"][1]["y"]), ef.spreads(normed))


def test_the_descent_is_the_cores():
    at = open_app(PAGE)
    open_tab(at, "attention_family_view", "descent")
    K, Z = ef.token_cloud("two clusters", 8, 3, 0), ef.token_cloud("blob", 16, 3, 1)
    tied = [ef.tied_energy(K, Y, 1.0).sum() for Y in ef.attention_layers(K, Z, 1.0, 10)]
    untied = [ef.tied_energy(K, Y, 1.0).sum() for Y in
              ef.attention_layers(K, Z, 1.0, 10, ef.random_weights(3, 0, 1.0))]
    fig = spec(at, 0)
    np.testing.assert_allclose(array(fig["data"][0]["y"]), tied)
    np.testing.assert_allclose(array(fig["data"][1]["y"]), untied)
    assert metric(at, "Largest rise from one layer to the next, tied") == "none: it never rises"
    assert metric(at, "Largest rise, independent weights").endswith("at layer 2")
    assert "rises at layer 2" in explain.DESCENT


def test_the_numbers_the_cloud_text_states():
    text = explain.CLOUD
    blob = ef.token_cloud("blob", 32, 3, 0)
    s = ef.spreads(ef.token_layers(blob, 10, 1.0))
    ln = ef.spreads(ef.token_layers(blob, 10, 1.0, layer_norm=True))
    assert (f"{s[0]:.2f}", f"{s[-1]:.0f}", f"{ln[-1]:.2f}") == ("1.52", "2353", "1.70")
    assert "from 1.52 to 2353 in 10 layers" in text and "ends at 1.70" in text
    assert f"{math.sqrt(3):.2f}" == "1.73" and "(1.73 in 3-D)" in text
    assert np.all(ln <= math.sqrt(3))  # never past sqrt(d)
    cold = ef.spreads(ef.token_layers(blob, 10, 0.001))
    cold_ln = ef.spreads(ef.token_layers(blob, 10, 0.001, layer_norm=True))
    assert (f"{cold[-1]:.2f}", f"{cold_ln[-1]:.2f}") == ("1.54", "0.38")
    assert "from 1.52 to 1.54 in 10 layers" in text and "shrinks to 0.38" in text
    off = ef.spreads(ef.token_layers(ef.token_cloud("offset blob", 32, 2, 0), 10, 0.1))
    centred = ef.spreads(ef.token_layers(ef.token_cloud("blob", 32, 2, 0), 10, 0.1))
    assert (f"{off[0]:.2f}", f"{off[-1]:.2f}", f"{centred[-1]:.0f}") == ("1.13", "1.56", "143")
    assert "from 1.13 to 1.56 in 10 layers, where the centred blob reaches 143" in text
    collapsed = ef.token_layers(ef.token_cloud("offset blob", 32, 3, 0), 10, 1.0, layer_norm=True)
    assert ef.spread(collapsed[-1]) < 1e-3 and "collapses to nearly one point" in text
    flat = ef.token_layers(ef.token_cloud("blob", 32, 2, 0), 3, 1.0, layer_norm=True)[-1]
    assert np.allclose(np.abs(flat), 1.0, atol=1e-4)  # 2-D: every token is +-(1, -1)
    assert np.allclose(flat[:, 0], -flat[:, 1])
    assert "±(1, −1)" in text


def test_a_large_image_size_skips_the_autograd_hessian_and_says_why():
    at = open_app(PAGE, query={"size": "32"})
    assert metric(at, "Hessian by autograd") == "not at this size"
    assert float(metric(at, "Largest |∇A(q) by autograd")) < 1e-12


def test_a_change_within_rounding_is_no_rise_and_a_real_rise_is_named_by_its_layer():
    from ui.pages.attention_family.sections import rise_text

    tied = np.array([-3.0, -3.5, -3.75, -3.75 + 7e-15, -3.75])  # float64 noise once settled
    assert rise_text(tied) == "none: it never rises"
    untied = np.array([-3.0, -2.5, -2.9, -2.8])  # +0.5 at layer 1, +0.1 at layer 3
    assert rise_text(untied) == "+0.5 at layer 1"



"""The classical page: store, corrupt, step, run; verdicts, energies, URL state, bad uploads."""
import numpy as np
from tests.app.conftest import open_app

from hopfield_core import ClassicalHopfield
from hopfield_core.images import corrupt, to_bipolar, resize
from hopfield_core.presets import preset_image


def energy_shown(at) -> float:
    return float(at.metric[0].value)


def expected_run(letters, q_index, kind, amount, seed, mode, size=16):
    X = np.stack([to_bipolar(resize(preset_image("letters", c, 64), (size, size))) for c in letters])
    q = corrupt(X[q_index], (size, size), kind, amount, rng=seed)
    return ClassicalHopfield(X).run(q, mode=mode, rng=seed, max_steps=30)


def test_default_store_step_and_run_show_the_true_energies():
    at = open_app("classical")
    ref = expected_run("HOX", 0, "flip", 0.2, 0, "async")
    assert energy_shown(at) == float(f"{ref.energies[0]:.6g}")
    at.button(key="classical_step").click().run()
    assert energy_shown(at) == float(f"{ref.energies[1]:.6g}")
    at.button(key="classical_run_all").click().run()
    assert energy_shown(at) == float(f"{ref.energies[-1]:.6g}")
    assert "Retrieved pattern H" in at.success[0].value
    at.button(key="classical_reset").click().run()
    assert energy_shown(at) == float(f"{ref.energies[0]:.6g}")


def test_sync_updates_show_a_two_cycle():
    at = open_app("classical", query={"presets": "shapes/checker,shapes/stripes", "mode": "sync",
                                      "q_corruption": "flip", "q_amount": "0.5", "q_seed": "5"})
    assert at.radio(key="cl_mode").value == "sync"
    at.button(key="classical_run_all").click().run()
    assert any("period 2" in e.value for e in at.error)
    at.radio(key="cl_mode").set_value("async").run()
    at.button(key="classical_run_all").click().run()
    assert not any("period 2" in e.value for e in at.error)
    assert not any("report this as a bug" in e.value for e in at.error)


def test_adding_presets_removing_and_clearing():
    at = open_app("classical")
    at.segmented_control(key="preset_group").set_value("digits").run()
    at.multiselect(key="preset_names").select("1").select("7").run()
    at.button(key="add_presets").click().run()
    assert "Pattern store (5/40)" in [h.value for h in at.sidebar.subheader]
    at.button(key="remove_letters/O").click().run()
    assert "Pattern store (4/40)" in [h.value for h in at.sidebar.subheader]
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
    assert at.slider(key="cl_temperature").value == 0.25
    qp = at.query_params
    assert qp["presets"] == ["letters/A,letters/B"] or qp["presets"] == "letters/A,letters/B"
    assert str(qp["mode"][0] if isinstance(qp["mode"], list) else qp["mode"]) == "sync"


def test_two_sessions_do_not_share_patterns():
    a = open_app("classical")
    b = open_app("classical")
    a.button(key="clear_store").click().run()
    assert any("Store at least one pattern" in i.value for i in a.info)
    assert "Pattern store (3/40)" in [h.value for h in b.sidebar.subheader]
    b.run()
    assert "Pattern store (3/40)" in [h.value for h in b.sidebar.subheader]


def test_the_caption_describes_the_settings_in_use():
    from ui.classical.caption import caption

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
    at.slider(key="cl_temperature").set_value(0.0).run()  # follows the controls too
    assert at.caption[0].value == caption("sync", 0.0, "pseudoinverse")

"""The Energy Transformer page: preset, masks, steps, frames, curves, the descent law, the
yardstick, device, Play, the link, uploads of every kind, damaged weights."""
import re
import threading

import numpy as np
import pytest
from PIL import Image

from hopfield_core.et import descent, load_pretrained
from hopfield_core.et.masks import (
    masked_patch_mse,
    mean_fill,
    random_mask,
    rectangle_mask,
)
from hopfield_core.et.photos import held_out
from hopfield_core.presets import preset_image
from tests.support.apptest import open_app
from tests.support.badfiles import encode, photo
from tests.support.player import at_step, payload, players
from ui.pages.energy_transformer import metrics, player_frames, sections
from ui.pages.energy_transformer.settings import GRID, PATCH, SIZE
from ui.player import frames


@pytest.fixture(scope="module")
def et():
    """The model the page opens on: the paper's, whose descent draws the hole."""
    from hopfield_core.et.checkpoint import MODELS

    return load_pretrained("cpu", MODELS["paper"])


PAGE = "energy_transformer"


def payloads(at) -> list[dict]:
    """The player's payload and its follower's ("Why the energy falls")."""
    return [payload(at, PAGE), why_payload(at)]


def why_payload(at) -> dict:
    import json

    (e,) = [e for e in at.get("bidi_component") if e.proto.id.endswith(f"-{PAGE}_why")]
    return json.loads(e.proto.bytes.decode("utf-8"))


def metric(at, label: str, t="end") -> str:
    """The value of the player's metric `label` at step t (the run's end by default)."""
    step = at_step(at, PAGE, t)
    (name,) = [k for k, v in step.p["panels"].items() if v["kind"] == "metric" and v["label"] == label]
    return step.metric(name)[0]


def delta(at, label: str, t) -> str:
    step = at_step(at, PAGE, t)
    (name,) = [k for k, v in step.p["panels"].items() if v["kind"] == "metric" and v["label"] == label]
    return step.metric(name)[1]


def chart(at, name: str, t="end") -> dict:
    """The player's chart `name` (energy, error, parts, rate) at step t."""
    for p in payloads(at):
        if name in p["panels"]:
            last = p["last"] if t == "end" else t
            return frames.figure_at(p["panels"][name], last)
    raise AssertionError(f"no chart {name!r}")


def picture_titles(at, t=0) -> list[str]:
    """The titles over the player's pictures at step t."""
    step = at_step(at, PAGE, t)
    return [step.heading(k) for k, v in step.p["panels"].items() if v["kind"] == "picture"]


def pictures(at, t=0) -> dict[str, tuple[np.ndarray, str]]:
    """The player's pictures at step t by name: (pixels (H, W, 3) uint8, alt text)."""
    step = at_step(at, PAGE, t)
    return {k: (step.pixels(k), step.alt(k)) for k, v in step.p["panels"].items() if v["kind"] == "picture"}


def series(at, key: str, name: str) -> np.ndarray:
    return frames.values(next(tr["y"] for tr in chart(at, key)["data"] if tr.get("name") == name))


def default_run(et, steps=None):
    img = preset_image("photos", "coffee", SIZE)
    mask = random_mask(GRID, 0.5, 0)
    return img, mask, et.complete(img, mask, steps=steps)


def test_the_default_is_a_photo_never_trained_on_and_runs_and_scrubs(et):
    at = open_app("energy_transformer")
    assert at.radio(key="energy_transformer_src").value == "photo"
    assert at.selectbox(key="energy_transformer_photo").value == "coffee" and held_out("coffee")
    assert not held_out("astronaut")  # a training photo, named as such in the list
    img, mask, ref = default_run(et)
    T = len(ref.energies) - 1
    assert T == et.cfg.steps
    assert payload(at, PAGE)["T"] == T
    assert metric(at, "Masked-patch MSE, ET", 0) == f"{masked_patch_mse(ref.frames[0], img, mask, PATCH):.4f}"
    assert metric(at, "Mean-fill MSE") == f"{masked_patch_mse(mean_fill(img, mask, PATCH), img, mask, PATCH):.4f}"
    assert metric(at, "Device") == "CPU"
    assert delta(at, "Masked-patch MSE, ET", 0) == "step 0: the start"
    assert metric(at, "Masked-patch MSE, ET") == f"{masked_patch_mse(ref.image, img, mask, PATCH):.4f}"
    assert float(metric(at, "Masked-patch MSE, ET")) < float(metric(at, "Mean-fill MSE"))
    assert metric(at, "Masked-patch MSE, ET", 2) == f"{masked_patch_mse(ref.frames[2], img, mask, PATCH):.4f}"
    e0, e2 = (masked_patch_mse(ref.frames[k], img, mask, PATCH) for k in (0, 2))
    said = delta(at, "Masked-patch MSE, ET", 2)
    assert said == metrics.since_start(np.array([e0, 0, e2]), 2)
    assert e2 != e0 and said.endswith("% since step 0")  # the descent changed the picture
    assert float(said.split()[0]) == pytest.approx(100 * (e2 / e0 - 1), abs=0.06)
    assert at_step(at, PAGE, 2).metric("mse")[2] == ("good" if e2 < e0 else "bad")
    assert not at.exception


def test_run_longer_draws_error_and_energy_against_100_steps(et):
    at = open_app("energy_transformer")
    at.slider(key="energy_transformer_steps").set_value(100).run()
    img, mask, ref = default_run(et, steps=100)
    energy = series(at, "energy", "E")
    error = series(at, "error", "ET")
    assert len(energy) == len(error) == 101
    np.testing.assert_allclose(energy, ref.energies, rtol=1e-6)
    want = [masked_patch_mse(f, img, mask, PATCH) for f in ref.frames]
    np.testing.assert_allclose(error, want, rtol=1e-6)
    yard = masked_patch_mse(mean_fill(img, mask, PATCH), img, mask, PATCH)
    assert series(at, "error", "mean fill") == pytest.approx([yard, yard])
    T = et.cfg.steps  # the trained steps: the sentence says what running longer did
    said = next(c.value for c in at.caption if "Between steps 99 and 100" in c.value)
    if error[100] > 1.05 * error[T]:
        assert f"the error rises from {error[T]:.4f} to {error[100]:.4f}" in said
        assert "not where it settles" in said
    else:
        assert "the error stays within 5 %" in said and "where the descent settles" in said
    assert "keeps falling" in said or "stays within" in said
    assert ref.energies[100] < ref.energies[T]  # the energy did keep falling


def test_the_descent_law_is_shown_on_the_live_tokens(et):
    at = open_app("energy_transformer")
    img, mask, ref = default_run(et)
    T = len(ref.energies) - 1
    assert at.slider(key=sections.LOOK).value == T  # the section looks at the last step
    np.testing.assert_allclose(series(at, "rate", "−dE/dt (the law)"), -ref.rates, rtol=1e-5)
    np.testing.assert_allclose(series(at, "rate", "−ΔE / α (the step)"),
                               -np.diff(ref.energies) / et.cfg.alpha, rtol=1e-5)
    np.testing.assert_allclose(series(at, "parts", "attention E_ATT"), ref.energies_att, rtol=1e-6)
    np.testing.assert_allclose(series(at, "parts", "Hopfield E_HN"), ref.energies_hn, rtol=1e-6)
    assert why_payload(at)["follow"] and why_payload(at)["run"] == payload(at, PAGE)["run"]
    # computed in a fresh thread, as the app's script threads compute it: they share its
    # number of math threads, on which the rounding-level smallest eigenvalue depends
    found = []
    worker = threading.Thread(target=lambda: found.append(descent.spectrum(et.model, ref.tokens[T])))
    worker.start()
    worker.join()
    s = found[0]
    text = next(m.value for m in at.markdown if "On the tokens of step" in m.value)
    if abs(s["smallest"]) < 1e-9 * s["largest"]:
        # zero up to rounding, whose last bits depend on the math threads of the process that
        # computed it (a parallel test run has other threads): the page's own value, said so
        shown = float(re.search(r"smallest eigenvalue \*\*(\S+)\*\*", text).group(1))
        assert abs(shown) < 1e-9 * s["largest"]
        if shown < 0:  # a rounding error, said so, not a negative eigenvalue left unexplained
            assert "(zero, up to the rounding of the arithmetic)" in text
    else:
        assert f"smallest eigenvalue **{s['smallest']:.1e}**" in text
    assert f"next smallest {s['second']:.1e}" in text and s["second"] > 0
    assert "is positive, so $M$ is positive semidefinite" in text
    assert any("both say the energy falls at every step" in c.value for c in at.caption)


def test_the_look_inside_and_the_spectrum_are_at_the_step_chosen(et):
    """The player's Step and Play are the browser's; the eigenvalues of M and the look inside are
    computed on the server at the step the student picks (the last by default)."""
    at = open_app("energy_transformer")
    img, mask, ref = default_run(et)
    at.slider(key=sections.LOOK).set_value(2).run()
    assert not at.exception
    assert any("**On the tokens of step 2**" in m.value for m in at.markdown)
    assert any(h.value == "Inside the model at step 2" for h in at.header)


def test_rectangle_mask_and_other_seed(et):
    at = open_app("energy_transformer")
    at.radio(key="energy_transformer_mask").set_value("rectangle").run()
    at.slider(key="energy_transformer_rows").set_value((0, 4)).run()
    at.slider(key="energy_transformer_cols").set_value((0, 8)).run()
    img = preset_image("photos", at.selectbox(key="energy_transformer_photo").value, SIZE)
    mask = rectangle_mask(GRID, 0, 0, 4, 8)
    ref = et.complete(img, mask)
    assert metric(at, "Masked-patch MSE, ET") == f"{masked_patch_mse(ref.image, img, mask, PATCH):.4f}"


def _modes() -> list[tuple[str, bytes]]:
    rgb = photo(300, 120)
    return [
        ("grey.png", encode(rgb.convert("L"), "PNG")),
        ("alpha.png", encode(rgb.convert("RGBA"), "PNG")),
        ("cmyk.jpg", encode(rgb.convert("CMYK"), "JPEG")),
        ("deep.png", encode(Image.fromarray((np.arange(200 * 90).reshape(90, 200) * 3 % 65535)
                                            .astype(np.uint16)), "PNG")),
        ("palette.gif", encode(rgb.convert("P"), "GIF")),
        ("tiny.png", encode(photo(5, 7), "PNG")),
        ("big.jpg", encode(photo(2400, 1600), "JPEG")),
    ]


@pytest.mark.parametrize("name,data", _modes(), ids=[n for n, _ in _modes()])
def test_uploads_of_any_mode_and_size_are_cropped_and_resized(name, data):
    at = open_app("energy_transformer")
    at.radio(key="energy_transformer_src").set_value("upload").run()
    at.file_uploader(key="energy_transformer_upload").set_value((name, data, "image/png")).run()
    assert not at.exception and not at.error
    stem = name.rsplit(".", 1)[0]
    assert any(f"uploaded as `{stem}`, centre-cropped to a square and resized to {SIZE} x {SIZE}"
               in c.value for c in at.caption)
    assert float(metric(at, "Mean-fill MSE")) >= 0


def test_a_bad_upload_is_explained():
    at = open_app("energy_transformer")
    at.radio(key="energy_transformer_src").set_value("upload").run()
    assert any("Choose a preset photo or upload one" in i.value for i in at.info)
    at.file_uploader(key="energy_transformer_upload").set_value(("doc.png", b"%PDF-1.4", "image/png")).run()
    assert any("`doc.png`: This file is a PDF document" in e.value for e in at.error)
    assert not at.exception


def test_nothing_hidden_and_everything_hidden_are_explained():
    at = open_app("energy_transformer")
    at.slider(key="energy_transformer_ratio").set_value(0.05).run()
    assert not at.exception
    at.radio(key="energy_transformer_mask").set_value("rectangle").run()
    at.slider(key="energy_transformer_rows").set_value((3, 3)).run()
    assert any("Nothing is hidden" in w.value for w in at.warning)
    at.slider(key="energy_transformer_rows").set_value((0, GRID)).run()
    at.slider(key="energy_transformer_cols").set_value((0, GRID)).run()
    assert any("Every patch is hidden" in w.value for w in at.warning)
    assert not at.exception and players(at) == [PAGE, f"{PAGE}_why"]


def test_every_setting_is_in_the_link_and_a_shared_link_reproduces_the_run():
    at = open_app("energy_transformer")
    at.selectbox(key="energy_transformer_photo").set_value("rocket").run()
    at.slider(key="energy_transformer_ratio").set_value(0.7).run()
    at.number_input(key="energy_transformer_seed").set_value(7).run()
    at.slider(key="energy_transformer_steps").set_value(40).run()
    at.selectbox(key="energy_transformer_start").set_value("paper").run()
    link = {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert (link["photo"], link["ratio"], link["seed"], link["steps"], link["device"], link["start"]) == \
        ("rocket", "0.7", "7", "40", "auto", "paper")
    shared = open_app("energy_transformer", query=link)  # another student opens the link
    assert not shared.exception and not shared.error
    assert shared.slider(key="energy_transformer_steps").value == 40 and shared.selectbox(key="energy_transformer_start").value == "paper"
    assert metric(shared, "Masked-patch MSE, ET") == metric(at, "Masked-patch MSE, ET")


def test_a_link_naming_a_device_this_machine_lacks_runs_on_the_cpu_and_says_so():
    at = open_app("energy_transformer", query={"device": "cuda"})
    assert any("asks for CUDA, which this machine does not have" in i.value for i in at.info)
    assert metric(at, "Device") == "CPU" and not at.exception
    at = open_app("energy_transformer", query={"device": "tpu<b>"})
    said = [w.value for w in at.warning if "The link sets device" in w.value]
    assert said and "`tpu<b>`" in said[0]  # named, quoted inertly
    assert metric(at, "Device") == "CPU" and not at.exception


def test_the_link_carries_the_upload_and_the_clicked_mask():
    at = open_app("energy_transformer")
    at.radio(key="energy_transformer_src").set_value("upload").run()
    at.file_uploader(key="energy_transformer_upload").set_value(("tall.png", encode(photo(30, 90), "PNG"), "image/png")).run()
    at.radio(key="energy_transformer_mask").set_value("click").run()
    at.button(key="energy_transformer_clear_mask").click().run()
    link = {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert link["src"] == "upload" and link["img"].startswith("upload/")
    assert link["mask"] == "click" and link["hide"] == "0" * 16
    shared = open_app("energy_transformer", query=link)
    assert not shared.exception and not shared.error
    assert any("Completing the photo uploaded as `tall`" in c.value for c in shared.caption)
    assert any(f"Hidden: 0 of {GRID * GRID} patches." in c.value for c in shared.caption)
    missing = open_app("energy_transformer", query={**link, "img": "upload/" + "0" * 24})
    assert any("this server does not have that image" in w.value for w in missing.warning)
    assert missing.query_params.get("img") in (None, "", [""])  # dropped from the address bar
    assert not missing.exception


@pytest.fixture
def weights_dir(monkeypatch, tmp_path):
    """The page loads the ET from a copy of the shipped weights that a test may damage;
    the process-wide cache is emptied before and after."""
    import shutil

    import ui.pages.energy_transformer.cache
    from hopfield_core.et import checkpoint

    folder = tmp_path / "et"
    shutil.copytree(checkpoint.ASSET_DIR, folder)
    monkeypatch.setattr(checkpoint, "ASSET_DIR", folder)
    monkeypatch.setattr(checkpoint, "MODELS", {"harmonic": folder, "paper": folder / "paper"})
    ui.pages.energy_transformer.cache._load.clear()
    yield folder / "paper"  # the model the page opens on
    ui.pages.energy_transformer.cache._load.clear()


def _unavailable(at) -> list[str]:
    return [e.value for e in at.error if "The Energy Transformer is unavailable" in e.value]


@pytest.mark.parametrize("damage", ["missing", "corrupted"])
def test_damaged_weights_are_explained_and_retry_loads_them_once_restored(weights_dir, damage):
    weights = weights_dir / "model.safetensors"
    good = weights.read_bytes()
    if damage == "missing":
        weights.unlink()
    else:
        weights.write_bytes(good[: len(good) // 2] + bytes(len(good) - len(good) // 2))
    at = open_app("energy_transformer")
    errors = _unavailable(at)
    assert errors and ("missing" if damage == "missing" else "sha256") in errors[0]
    assert str(weights_dir.parent) not in errors[0]  # no server path in the message
    at.switch_page("app_pages/classical.py").run()
    assert not at.exception and players(at) == ["classical"]  # the rest of the app runs on
    at.switch_page("app_pages/energy_transformer.py").run()
    at.button(key="energy_transformer_retry").click().run()
    assert _unavailable(at)  # still damaged: still explained, never a traceback
    weights.write_bytes(good)  # restored
    at.button(key="energy_transformer_retry").click().run()
    assert not _unavailable(at) and not at.exception
    assert metric(at, "Masked-patch MSE, ET")


def test_the_settling_sentence_says_which_way_the_error_went():
    from types import SimpleNamespace

    from ui.pages.energy_transformer.sections import settled

    frames = np.zeros((21, 4, 4, 3))
    frames[-1, 0, 0, 0] = 0.25  # the last step moved one pixel value by 0.25
    out = SimpleNamespace(frames=frames, energies=-np.arange(21.0))
    worse = np.linspace(0.02, 0.03, 21)
    said = settled(out, worse, trained=8)
    assert "changes by at most 0.2500" in said
    assert f"the error rises from {worse[8]:.4f} to 0.0300 while the energy keeps falling" in said
    held = np.full(21, 0.02)
    held[-1] = 0.0205  # +2.5 %: within 5 %
    assert "the error stays within 5 % of its value there (0.0200 at step 8, 0.0205 at step 20)" \
        in settled(out, held, trained=8)
    assert "rises" not in settled(out, worse, trained=20)  # not past the trained steps


def test_the_page_describes_the_update_the_shipped_model_runs(et):
    """The lede, the update formula and the law name the dynamics of the loaded model, and the
    settling words are true of that dynamics: only hidden tokens move, along P dE/dg."""
    from dataclasses import replace

    from ui.pages.energy_transformer import explain

    at = open_app("energy_transformer")
    lede = next(m.value for m in at.markdown if "Energy Transformer** (Hoover" in m.value)
    assert explain.how_tokens_move(et.cfg) in lede and explain.where_tokens_are(et.cfg) in lede
    assert explain.where_hidden_start(et.cfg) in lede
    masked = replace(et.cfg, start="mask_token", readout="tokens")
    smooth = replace(et.cfg, start="harmonic", readout="tokens")
    assert "harmonic fill" in explain.where_hidden_start(smooth) and "in the paper" in explain.where_hidden_start(smooth)
    assert explain.where_hidden_start(masked) == "hidden patches start as a learned *mask token*"
    assert explain.watch(et.cfg) in lede
    assert any(explain.first_try(et.cfg) in m.value for m in at.markdown)
    read = replace(smooth, readout="change")
    assert "step 0 shows the fill itself" in explain.where_hidden_start(read)
    assert "step 0 shows" not in explain.where_hidden_start(smooth)
    assert "harmonic fill" in explain.start_picture(read) and "decoder's reading" in explain.start_picture(masked)
    assert "watch the hole fill in" in explain.watch(masked) and "smooth guess" in explain.watch(read)
    assert "Step 0 is the smooth harmonic fill" in explain.first_try(read)
    assert "watch the hole fill in" in explain.first_try(masked)
    assert "flat grey start" in explain.all_hidden(smooth) and "grey" not in explain.all_hidden(masked)
    shown = [x.value.strip("$\n") for x in at.latex]  # st.latex wraps its body in $$ lines
    assert explain.step_latex(et.cfg) in shown and explain.law_latex(et.cfg) in shown
    assert explain.attention_latex(et.cfg) in shown
    placed, plain = replace(et.cfg, energy_positions=True), replace(et.cfg, energy_positions=False)
    assert "g_B + p_B" in explain.attention_latex(placed) and "p_B" not in explain.attention_latex(plain)
    assert "$p_B$" in explain.where_tokens_are(placed) and explain.where_tokens_are(plain) == ""
    paper, ours = replace(et.cfg, project=False, clamp_visible=False), replace(et.cfg, project=True, clamp_visible=True)
    assert "as in the paper" in explain.how_tokens_move(paper)
    assert "not the paper's update" in explain.how_tokens_move(ours)
    assert "s_B" in explain.step_latex(ours) and "s_B" not in explain.step_latex(paper)
    assert "-\\sum_{B\\ \\mathrm{hidden}}" in explain.law_latex(ours)


def test_a_state_at_rest_reads_as_at_rest_not_as_zero_or_as_rising():
    """At a fixed point float32 leaves rounding behind: a pixel change of 4e-5 is not written
    0.0000, an energy that wiggles by an ulp is not a rise, and a rate of +3e-7 after a start at
    -5e4 is rounding of a rate that cannot be positive (what the settled model showed)."""
    from types import SimpleNamespace

    from ui.pages.energy_transformer.sections import rate_here, settled, step_sentence

    frames = np.zeros((21, 4, 4, 3))
    frames[-1, 0, 0, 0] = 4e-5
    E = -15000.0 - 5000.0 * (1 - np.exp(-np.arange(21.0)))  # falls, then flat
    E[15:] = E[15]
    E[[16, 18]] += np.spacing(np.float32(E[15]))  # up by an ulp twice
    rates = -5e4 * np.exp(-np.arange(21.0))
    rates[[17, 19]] = 3e-7
    out = SimpleNamespace(frames=frames, energies=E, rates=rates)
    said = settled(out, np.full(21, 0.02), trained=8)
    assert "at most 4.0e-05 per pixel value" in said and "0.0000" not in said
    words = step_sentence(out, 0.05)
    assert "both say the energy never rises" in words and "2 that raise it by float32 rounding" in words
    assert "float32 rounding of a rate that cannot be positive" in rate_here(rates, 17)
    assert "the state is at rest" in rate_here(rates, 20) and "cannot be positive" not in rate_here(rates, 20)
    assert rate_here(rates, 1) == r"$dE/dt = -1.839 \times 10^{4}$ here."  # -5e4 / e
    assert r"$dE/dt = 3 \times 10^{-7}$ here" in rate_here(rates, 17)  # not 3e-07 in a formula
    # a real rise (0.1 % of |E|) and a clearly positive law are still reported as such
    E2, r2 = E.copy(), rates.copy()
    E2[5] = E2[4] * (1 - 1e-3)
    r2[3] = 10.0
    loud = step_sentence(SimpleNamespace(energies=E2, rates=r2), 0.05)
    assert "1 of 20 steps raised the energy, and the law is sometimes positive" in loud


def test_the_error_change_since_step_0_reads_as_a_percentage_and_never_rounds_to_nothing():
    mse = np.array([0.0080, 0.0079, 0.0079992, 0.0088])
    assert metrics.since_start(mse, 0) is None
    assert metrics.since_start(mse, 1) == "-1.2 % since step 0"
    assert metrics.since_start(mse, 2) == "-0.01 % since step 0"
    assert metrics.since_start(mse, 3) == "+10.0 % since step 0"
    assert metrics.since_start(np.array([0.0, 0.1]), 1) is None  # nothing to compare with
    assert metrics.since_start(np.array([0.008, 0.0080002]), 1) == "+2.5e-03 % since step 0"
    assert metrics.since_start(np.array([0.008, 0.008]), 1) is None  # no arrow for no change
    # where there is no percentage the delta line still says why (it keeps the row's height)
    assert metrics.no_change(mse, 0) == "step 0: the start"
    assert metrics.no_change(np.array([0.008, 0.008]), 1) == "no change since step 0"
    assert metrics.no_change(np.array([0.0, 0.1]), 1) == "step 0's error was 0"


def test_the_change_picture_magnifies_what_the_steps_did_and_stays_in_range():
    start = np.full((4, 4, 3), 0.4)
    frame = start.copy()
    frame[0, 0, 0] += 0.03  # a change of 0.03 shows at x10 (0.3 from grey), not x20 (0.6)
    frame[1, 1, 1] -= 0.01
    pic, gain = player_frames.change_picture(frame, start)
    assert gain == 10
    assert pic[0, 0, 0] == pytest.approx(0.8) and pic[1, 1, 1] == pytest.approx(0.4)
    assert pic[2, 2, 2] == 0.5 and pic.min() >= 0 and pic.max() <= 1
    still, gain = player_frames.change_picture(start, start)
    assert gain == 1000 and np.all(still == 0.5)  # nothing changed: all grey
    big, gain = player_frames.change_picture(np.ones((2, 2, 3)), np.zeros((2, 2, 3)))
    assert gain == 1 and big.max() == 1  # a change larger than half the range is clipped at x1


def test_a_model_that_refines_its_start_shows_the_change_since_step_0(et):
    at = open_app("energy_transformer")
    if et.cfg.readout == "change":
        assert "Change" in picture_titles(at) and "Mean fill" not in picture_titles(at)
        # the caption is the same at every step (Play moves nothing)
        caption = payload(at, PAGE)["panels"]["change"]["caption"]
        img, mask, ref = default_run(et)
        gain = player_frames.change_picture(ref.image, ref.frames[0])[1]
        assert f"Change x{gain}" in picture_titles(at, "end")
        assert "magnified as its title says" in caption
    else:
        assert "Mean fill" in picture_titles(at)
    assert not at.exception


def test_the_start_chooses_between_the_two_shipped_models_and_the_text_follows():
    from hopfield_core.et.checkpoint import MODELS
    from ui.pages.energy_transformer import explain

    img, mask = preset_image("photos", "coffee", SIZE), random_mask(GRID, 0.5, 0)
    for name in ("paper", "harmonic"):
        model = load_pretrained("cpu", MODELS[name])
        ref = model.complete(img, mask)
        at = open_app("energy_transformer", query={"start": name})
        assert at.selectbox(key="energy_transformer_start").value == name
        lede = next(m.value for m in at.markdown if "Energy Transformer** (Hoover" in m.value)
        assert explain.where_hidden_start(model.cfg) in lede
        assert metric(at, "Masked-patch MSE, ET", 0) == f"{masked_patch_mse(ref.frames[0], img, mask, PATCH):.4f}"
        assert metric(at, "Masked-patch MSE, ET") == f"{masked_patch_mse(ref.image, img, mask, PATCH):.4f}"
        fourth = "Change x" if model.cfg.readout == "change" else "Mean fill"
        assert any(t.startswith(fourth) for t in picture_titles(at, "end"))
        assert not at.exception
    paper = load_pretrained("cpu", MODELS["paper"])
    assert paper.cfg.start == "mask_token" and "mask token" in explain.where_hidden_start(paper.cfg)
    bad = open_app("energy_transformer", query={"start": "[click](http://x)"})
    said = [w.value for w in bad.warning if "The link sets start" in w.value]
    assert said and "[click](http://x)" not in said[0].replace("`[click](http://x)`", "")  # inert
    assert bad.selectbox(key="energy_transformer_start").value == "paper" and not bad.exception


def test_what_try_this_says_of_the_two_starts_holds_on_the_held_out_presets():
    """'from the harmonic fill the descent adjusts a smooth guess a little (lowering the energy,
    not always the error); from the mask token
    alone it draws the whole hole, its error falling with the energy from far above the mean
    fill's' (Try this), and docs/energy-transformer.md's 'a few per cent either way' on one image."""
    from hopfield_core.et.checkpoint import MODELS

    smooth, paper = (load_pretrained("cpu", MODELS[n]) for n in ("harmonic", "paper"))
    for name in ("coffee", "cat", "rocket"):  # the presets it never trained on
        img, mask = preset_image("photos", name, SIZE), random_mask(GRID, 0.5, 0)
        assert held_out(name)
        yard = masked_patch_mse(mean_fill(img, mask, PATCH), img, mask, PATCH)
        refined = smooth.complete(img, mask)
        e = [masked_patch_mse(f, img, mask, PATCH) for f in refined.frames]
        assert abs(e[-1] / e[0] - 1) < 0.1  # a little, either way
        assert refined.energies[-1] < refined.energies[0]  # the energy falls
        drawn = paper.complete(img, mask)
        e = [masked_patch_mse(f, img, mask, PATCH) for f in drawn.frames]
        assert e[0] > 2 * yard and e[-1] < e[0] / 3  # from at least twice the yardstick, far down
        assert drawn.energies[-1] < drawn.energies[0]


def test_the_pictures_are_images_that_follow_the_step_and_say_what_they_show(et):
    """The pictures are the model's frames as pixels, each with an alt text per step; the
    result is the model's frame of the step shown."""
    at = open_app("energy_transformer")
    img, mask, ref = default_run(et)
    shown = pictures(at, 0)
    assert set(shown) == {"original", "masked", "frame", "change" if et.cfg.readout == "change"
                          else "meanfill"}
    assert f"{int(mask.sum())} of 64 patches hidden" in shown["masked"][1]
    assert "after step 0" in shown["frame"][1]
    np.testing.assert_array_equal(shown["frame"][0], frames.to_u8(ref.frames[0]))
    np.testing.assert_array_equal(shown["original"][0], frames.to_u8(img))
    shown = pictures(at, 1)
    assert "after step 1" in shown["frame"][1] and "After step 1" in picture_titles(at, 1)
    np.testing.assert_array_equal(shown["frame"][0], frames.to_u8(ref.frames[1]))
    assert all(alt for _, alt in shown.values()) and not at.exception


def test_presenter_mode_puts_the_player_beside_the_input_and_the_result():
    """On a projector the player, the input and the result share the first row, the other
    pictures under them; the lede and the hidden count follow the player."""
    at = open_app("energy_transformer", query={"presenter": "1"})
    rows = payload(at, PAGE)["layout"]
    assert [pid for pid, _ in rows[0]] == ["controls", "masked", "frame"]
    assert [[pid for pid, _ in row] for row in why_payload(at)["layout"]] == [["parts"], ["rate"]]
    caption = [c.value for c in at.caption]
    assert any(c.startswith("Hidden: 32 of 64") for c in caption)
    assert not at.exception


def test_patches_are_hidden_and_shown_from_the_mask_grid():
    """The patches to hide are a grid over the picture (ui/store/grid_editor.py, "flip" mode): a
    click or Space on a patch, as the browser sends it ([seq, r, c, r, c]), hides a shown
    patch or shows a hidden one, once; the link carries it, the count follows, and the grid
    names each patch (hidden, shown) for a screen reader over the picture of the mask."""
    import base64

    from tests.support.apptest import click, grid_sent
    from ui.pages.energy_transformer import controls
    from ui.pages.energy_transformer.settings import mask_text
    from ui.store import grid_editor

    at = open_app("energy_transformer")
    at.radio(key="energy_transformer_mask").set_value("click").run()
    at.button(key="energy_transformer_clear_mask").click().run()
    assert any(f"Hidden: 0 of {GRID * GRID} patches." in c.value for c in at.caption)
    at.session_state[controls.MASK_GRID] = click(2, 5, 1)  # Space on row 3, column 6
    at.run()
    at.session_state[controls.MASK_GRID] = {"ops": [[1, 2, 5, 2, 5], [2, 0, 0, 0, 0]]}
    at.run()  # edit 1 sent again with edit 2: applied once
    hide = at.query_params["hide"]
    want = np.zeros((GRID, GRID), dtype=bool)
    want[2, 5] = want[0, 0] = True
    assert (hide[-1] if isinstance(hide, list) else hide) == mask_text(want)
    assert any(f"Hidden: 2 of {GRID * GRID} patches." in c.value for c in at.caption)
    sent = grid_sent(at, controls.MASK_GRID)
    assert sent["mode"] == "flip" and sent["seen"] == 2 and sent["words"][0] == "hidden"
    assert sent["cells"] == grid_editor.levels((~want).astype(float))
    assert sent["label"].endswith(": 2 hidden")
    png = base64.b64decode(sent["picture"].split(",", 1)[1])
    assert png.startswith(b"\x89PNG")
    at.session_state[controls.MASK_GRID] = click(0, 0, 3)  # shown again
    at.run()
    assert "1 hidden" in grid_sent(at, controls.MASK_GRID)["label"]
    assert not at.exception

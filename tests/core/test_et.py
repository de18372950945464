"""The Energy Transformer: energy descent, closed-form gradient, completion contract,
checkpoints (safe loading), and a two-process DDP run."""
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
import torch

from hopfield_core.analysis import energy_rises
from hopfield_core.et import CheckpointError, ETConfig, checkpoint, load_pretrained
from hopfield_core.et.descent import ROUNDING
from hopfield_core.et.model import EnergyTransformer, patchify, unpatchify
from tests.support.et_models import SMALL_ET

ROOT = Path(__file__).resolve().parents[2]


def shipped_config() -> ETConfig:
    meta = json.loads((checkpoint.ASSET_DIR / checkpoint.CONFIG).read_text())
    return ETConfig.from_dict(meta["config"])


@pytest.fixture
def small_ckpt(tmp_path):
    torch.manual_seed(0)
    model = EnergyTransformer(SMALL_ET)
    checkpoint.save(model, tmp_path)
    return tmp_path, model


@pytest.mark.parametrize("attend_to_self, positions", [(False, False), (True, False), (False, True)])
def test_closed_form_gradient_equals_autograd(attend_to_self, positions):
    torch.manual_seed(1)
    model = EnergyTransformer(replace(SMALL_ET, attend_to_self=attend_to_self,
                                      energy_positions=positions)).double()
    if positions:  # a table unlike the initial one, so that a dropped offset would show
        model.pos_energy.data = torch.randn_like(model.pos_energy)
    g = model.layer_norm(torch.randn(3, SMALL_ET.n_patches, SMALL_ET.dim, dtype=torch.float64))
    g = g.detach().requires_grad_(True)
    (auto,) = torch.autograd.grad(model.energy(g).sum(), g)
    torch.testing.assert_close(model.energy_grad(g), auto, rtol=1e-10, atol=1e-10)


def test_the_energy_positions_enter_the_keys_and_queries_only():
    """With energy_positions, K_B = W_K (g_B + p_B) and Q_C = W_Q (g_C + p_C): the attention
    energy changes with p and equals the plain energy of g + p; the Hopfield part ignores p."""
    torch.manual_seed(2)
    plain = EnergyTransformer(SMALL_ET).double()
    placed = EnergyTransformer(replace(SMALL_ET, energy_positions=True)).double()
    placed.load_state_dict({**plain.state_dict(), "pos_energy": torch.randn(SMALL_ET.n_patches, SMALL_ET.dim)})
    g = plain.layer_norm(torch.randn(2, SMALL_ET.n_patches, SMALL_ET.dim, dtype=torch.float64))
    att_plain, hn_plain = plain.energy_parts(g + placed.pos_energy)
    att, hn = placed.energy_parts(g)
    torch.testing.assert_close(att, att_plain)
    torch.testing.assert_close(hn, plain.energy_parts(g)[1])
    assert not torch.allclose(att, plain.energy_parts(g)[0])
    assert "pos_energy" not in plain.state_dict()  # models without the option load as before


def test_energy_parts_match_the_formulas_by_loops():
    torch.manual_seed(2)
    cfg = replace(SMALL_ET, dim=6, heads=2, head_dim=3, memories=5, image_size=16)  # 4 tokens
    model = EnergyTransformer(cfg).double()
    g = torch.randn(1, cfg.n_patches, cfg.dim, dtype=torch.float64)
    model.requires_grad_(False)
    e_att, e_hn = model.energy_parts(g)
    beta, N = model.beta, cfg.n_patches
    att = 0.0
    for h in range(cfg.heads):
        K = g[0] @ model.Wk[h].T
        Q = g[0] @ model.Wq[h].T
        for C in range(N):
            att -= torch.logsumexp(torch.stack([beta * K[B] @ Q[C] for B in range(N) if B != C]), 0) / beta
    hn = -0.5 * sum(torch.relu(model.memories[m] @ g[0, B]) ** 2 for B in range(N) for m in range(cfg.memories))
    assert float(e_att) == pytest.approx(float(att), rel=1e-10)
    assert float(e_hn) == pytest.approx(float(hn), rel=1e-10)


def test_the_layer_norm_is_the_gradient_of_its_lagrangian():
    torch.manual_seed(3)
    model = EnergyTransformer(SMALL_ET).double()
    with torch.no_grad():
        model.ln_gamma.fill_(1.7)
        model.ln_delta.normal_()
    x = torch.randn(2, 5, SMALL_ET.dim, dtype=torch.float64, requires_grad=True)
    xc = x - x.mean(-1, keepdim=True)
    L = (SMALL_ET.dim * model.ln_gamma * torch.sqrt((xc ** 2).mean(-1) + SMALL_ET.eps)).sum() + (x * model.ln_delta).sum()
    (grad,) = torch.autograd.grad(L, x)
    torch.testing.assert_close(model.layer_norm(x), grad)
    from hopfield_core.et.descent import lagrangian  # the page's L is this L
    torch.testing.assert_close(lagrangian(model, x).sum(), L)


def test_energy_falls_at_every_step_on_random_inputs_with_the_shipped_config():
    torch.manual_seed(4)
    model = EnergyTransformer(shipped_config())
    cfg = model.cfg
    imgs = torch.rand(16, cfg.image_size, cfg.image_size, 3)
    mask = torch.rand(16, cfg.n_patches) < 0.5
    with torch.no_grad():
        _, _, e_att, e_hn = model.evolve(model.tokens(patchify(imgs, cfg.patch_size), mask), record=True,
                                         mask=mask)
    E = e_att + e_hn  # (T+1, B)
    assert torch.all(E[1:] < E[:-1])


def test_the_shipped_model_descends_its_energy_on_photos():
    from hopfield_core.presets import preset_image
    et = load_pretrained("cpu")
    rng = np.random.default_rng(0)
    for name in ("astronaut", "cat", "coffee", "rocket"):
        img = preset_image("photos", name, et.image_size[0])
        out = et.complete(img, rng.random((et.cfg.grid, et.cfg.grid)) < 0.5, steps=30)
        assert np.all(np.diff(out.energies[:et.cfg.steps + 1]) < 0), name
        # past T, once at rest, consecutive float32 energies may differ by an ulp either way
        assert energy_rises(out.energies, rtol=ROUNDING).size == 0, name


def test_complete_keeps_visible_patches_and_returns_documented_shapes(small_ckpt):
    directory, _ = small_ckpt
    et = load_pretrained("cpu", directory=directory)
    H, W = et.image_size
    p = et.patch_size
    img = np.random.default_rng(5).random((H, W, 3))
    mask = np.zeros((H // p, W // p), dtype=bool)
    mask[2:5, 1:6] = True
    out = et.complete(img, mask)
    T = SMALL_ET.steps
    assert out.image.shape == (H, W, 3) and out.frames.shape == (T + 1, H, W, 3)
    assert out.energies.shape == (T + 1,) == out.energies_att.shape == out.energies_hn.shape
    np.testing.assert_allclose(out.energies, out.energies_att + out.energies_hn)
    pix = np.repeat(np.repeat(mask, p, 0), p, 1)
    np.testing.assert_array_equal(out.image[~pix], img.astype(np.float32)[~pix])
    for f in out.frames:
        np.testing.assert_array_equal(f[~pix], img.astype(np.float32)[~pix])
    assert 0 <= out.image.min() and out.image.max() <= 1
    assert et.complete(img, mask, steps=2).frames.shape[0] == 3


def test_complete_refuses_wrong_shapes(small_ckpt):
    et = load_pretrained("cpu", directory=small_ckpt[0])
    with pytest.raises(ValueError, match="image must be"):
        et.complete(np.zeros((10, 10, 3)), np.zeros((8, 8), bool))
    with pytest.raises(ValueError, match="mask must be"):
        et.complete(np.zeros((32, 32, 3)), np.zeros((4, 4), bool))
    with pytest.raises(ValueError, match="steps must be"):
        et.complete(np.zeros((32, 32, 3)), np.zeros((8, 8), bool), steps=101)


def test_checkpoint_round_trips(small_ckpt):
    directory, model = small_ckpt
    loaded = checkpoint.load(directory)
    for (k, a), (_, b) in zip(model.state_dict().items(), loaded.state_dict().items()):
        torch.testing.assert_close(a, b, rtol=0, atol=0, msg=k)
    assert loaded.cfg == SMALL_ET
    assert not any(p.requires_grad for p in loaded.parameters())


def test_missing_checkpoint_is_refused(tmp_path):
    with pytest.raises(CheckpointError, match="missing"):
        checkpoint.load(tmp_path)


def test_truncated_checkpoint_is_refused(small_ckpt):
    directory, _ = small_ckpt
    w = directory / checkpoint.WEIGHTS
    w.write_bytes(w.read_bytes()[:1000])
    with pytest.raises(CheckpointError, match="sha256"):
        checkpoint.load(directory)


def test_wrong_shapes_are_refused_even_with_a_matching_hash(small_ckpt, tmp_path):
    directory, _ = small_ckpt
    other = tmp_path / "other"
    checkpoint.save(EnergyTransformer(replace(SMALL_ET, memories=7)), other)
    meta = json.loads((other / checkpoint.CONFIG).read_text())
    meta["config"] = json.loads((directory / checkpoint.CONFIG).read_text())["config"]
    (other / checkpoint.CONFIG).write_text(json.dumps(meta))  # honest hash, wrong shapes
    with pytest.raises(CheckpointError, match="memories"):
        checkpoint.load(other)


def test_a_pickle_is_refused_without_being_unpickled(small_ckpt):
    directory, model = small_ckpt
    w = directory / checkpoint.WEIGHTS
    torch.save(model.state_dict(), w)  # a zip of pickles, as torch.save writes
    meta = json.loads((directory / checkpoint.CONFIG).read_text())
    meta["sha256"] = checkpoint.sha256_file(w)  # even with its hash recorded
    (directory / checkpoint.CONFIG).write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="pickle"):
        checkpoint.load(directory)


def test_a_damaged_config_is_refused(small_ckpt):
    directory, _ = small_ckpt
    (directory / checkpoint.CONFIG).write_text("{not json")
    with pytest.raises(CheckpointError, match="config"):
        checkpoint.load(directory)


def test_the_shipped_checkpoint_loads_and_matches_its_model_card():
    card = (checkpoint.ASSET_DIR / checkpoint.CARD).read_text()
    digest = checkpoint.sha256_file(checkpoint.ASSET_DIR / checkpoint.WEIGHTS)
    assert digest in card
    assert (checkpoint.ASSET_DIR / checkpoint.WEIGHTS).stat().st_size < 5 * 2 ** 20
    et = load_pretrained("cpu")
    assert et.image_size == (32, 32) and et.patch_size == 4 and et.cfg.grid == 8
    # the page sizes its controls and words its dynamics from the shipped config
    assert checkpoint.shipped_config() == shipped_config() == et.cfg


def test_the_shipped_config_falls_back_to_the_defaults_when_its_file_is_bad(tmp_path):
    assert checkpoint.shipped_config(tmp_path) == ETConfig()  # missing
    (tmp_path / checkpoint.CONFIG).write_text("{not json")
    assert checkpoint.shipped_config(tmp_path) == ETConfig()
    (tmp_path / checkpoint.CONFIG).write_text('{"config": {"dim": 64, "colour": 1}}')
    assert checkpoint.shipped_config(tmp_path) == ETConfig()  # an unknown field


def test_patchify_round_trips():
    x = torch.rand(2, 32, 32, 3)
    P = patchify(x, 4)
    assert P.shape == (2, 64, 48)
    torch.testing.assert_close(P[0, 9].reshape(4, 4, 3), x[0, 4:8, 4:8])
    torch.testing.assert_close(unpatchify(P, 4, 8), x)


def test_two_process_ddp_training_ends_with_equal_weights(tmp_path):
    pytest.importorskip("skimage")
    env = {**os.environ, "OMP_NUM_THREADS": "1", "MASTER_ADDR": "127.0.0.1"}
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2",
           "--master_addr", "127.0.0.1", "--master_port", str(29500 + os.getpid() % 1000),
           "-m", "hopfield_core.et.train", "--batches", "3", "--batch-size", "4", "--dim", "16",
           "--heads", "2", "--head-dim", "4", "--memories", "8", "--steps", "2",
           "--eval-every", "100", "--held-out-per-photo", "1", "--out", str(tmp_path / "ckpt"),
           "--rank-digests", str(tmp_path / "digests"), "--far-max", "3", "--far-batch", "2",
           "--settle-weight", "1", "--dynamics", "settling", "--steps-max", "3"]
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    d0 = (tmp_path / "digests" / "rank0.txt").read_text()
    d1 = (tmp_path / "digests" / "rank1.txt").read_text()
    assert d0 == d1
    cfg = checkpoint.load(tmp_path / "ckpt").cfg
    assert cfg.dim == 16 and cfg.project and cfg.clamp_visible
    card = (tmp_path / "ckpt" / checkpoint.CARD).read_text()  # the fixed-point losses, named
    assert "Settling: plus 1.0 x the last step's relative move" in card
    assert "a random 1 to 3 more steps without gradient and 2 with it" in card
    assert "--far-max 3" in card and "--settle-weight 1.0" in card
    assert "--dynamics settling" in card and "--steps-max 3" in card
    assert "only the hidden patches' tokens move" in card and "between T and 3" in card
    meta = json.loads((tmp_path / "ckpt" / checkpoint.CONFIG).read_text())
    assert len(meta["eval"]["mse_by_step"]) == 101 and "mse_by_step" not in meta["history"][0]


def test_the_learning_rate_decays_over_the_time_limit_when_that_comes_first():
    from types import SimpleNamespace

    from hopfield_core.et.train import lr_at

    args = SimpleNamespace(lr=1.0, warmup=10, batches=1000, time_limit=0)
    assert lr_at(4, args) == pytest.approx(0.5)  # warm-up
    assert lr_at(505, args) == pytest.approx(0.5)  # half-way through the batches
    timed = SimpleNamespace(lr=1.0, warmup=10, batches=1000, time_limit=20.0)
    assert lr_at(20, timed, minutes=10.0) == pytest.approx(0.5)  # half the time gone
    assert lr_at(20, timed, minutes=20.0) == pytest.approx(0.0, abs=1e-12)
    assert lr_at(505, timed, minutes=1.0) == pytest.approx(0.5)  # the batches lead


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU on this machine")
def test_cuda_completion_matches_cpu():
    cpu = load_pretrained("cpu")
    gpu = load_pretrained("cuda")
    img = np.random.default_rng(6).random((*cpu.image_size, 3))
    mask = np.random.default_rng(7).random((8, 8)) < 0.5
    a, b = cpu.complete(img, mask), gpu.complete(img, mask)
    np.testing.assert_allclose(a.image, b.image, atol=2e-4)
    np.testing.assert_allclose(a.energies, b.energies, rtol=1e-4)
    long_a, long_b = cpu.complete(img, mask, steps=100), gpu.complete(img, mask, steps=100)
    np.testing.assert_allclose(long_a.image, long_b.image, atol=2e-3)
    assert np.all(np.diff(long_b.energies) < 0)


# ---------------------------------------------------------------- held-out photos

def test_the_held_out_photos_are_never_trained_on_and_the_card_names_any_overlap():
    """The data module keeps the held-out photos out of training, by name and by pixels
    (skimage's cat is chelsea). A shipped model trained before that fix must say so on its card."""
    pytest.importorskip("skimage")
    from hopfield_core.et.data import load_photo
    from hopfield_core.et.photos import HELD_OUT_PHOTOS, TRAIN_PHOTOS

    def same(a, b):
        return a.shape == b.shape and np.array_equal(a, b)

    assert not set(HELD_OUT_PHOTOS) & set(TRAIN_PHOTOS)
    held = {n: load_photo(n) for n in HELD_OUT_PHOTOS}
    for name in TRAIN_PHOTOS:
        a = load_photo(name)
        assert not any(same(a, b) for b in held.values()), name
    meta = json.loads((checkpoint.ASSET_DIR / checkpoint.CONFIG).read_text())
    card = (checkpoint.ASSET_DIR / checkpoint.CARD).read_text()
    for name in meta["training"]["train_photos"]:
        twins = [h for h, b in held.items() if h != name and same(load_photo(name), b)]
        for twin in twins:  # trained on under another name: the card must say it
            assert f"`{name}` in the training list is the same photo as `{twin}`" in card


def test_training_can_start_from_a_checkpoint_and_change_its_dynamics(small_ckpt, tmp_path):
    """--init takes a checkpoint's sizes and weights (with lr 0 they come out unchanged), and
    --dynamics settling (and --start harmonic) retrains them for another update (and start);
    the card says where it began, where the hidden tokens start, and scores that start."""
    pytest.importorskip("skimage")
    from hopfield_core.et import train

    directory, model = small_ckpt
    threads = torch.get_num_threads()
    try:
        train.main(["--init", str(directory), "--lr", "0", "--batches", "1", "--batch-size", "2",
                    "--held-out-per-photo", "1", "--dynamics", "settling", "--start", "harmonic",
                    "--out", str(tmp_path / "out")])
    finally:
        torch.set_num_threads(threads)
    out = checkpoint.load(tmp_path / "out")
    assert out.cfg == replace(model.cfg, project=True, clamp_visible=True, start="harmonic")
    for name, value in model.state_dict().items():
        torch.testing.assert_close(out.state_dict()[name], value, rtol=0, atol=0)
    card = (tmp_path / "out" / checkpoint.CARD).read_text()
    assert f"Started from the weights in `{directory}`" in card and f"--init {directory}" in card
    assert "--start harmonic" in card and "starts as its harmonic fill" in card
    assert "| harmonic fill, where the ET starts (each hidden pixel the mean of its neighbours) |" in card
    meta = json.loads((tmp_path / "out" / checkpoint.CONFIG).read_text())  # scored by rescore
    assert meta["eval"]["crops"] == 5 and meta["eval_bench"]["crops"] == 240
    assert "crop by crop, biharmonic inpainting fills" in card and "On the 240 crops" in card


@pytest.mark.parametrize("option", [["--dim", "16"], ["--memories", "5"], ["--energy-positions"]])
def test_init_refuses_options_its_weights_do_not_fit(small_ckpt, tmp_path, option):
    from hopfield_core.et import train

    directory, _ = small_ckpt
    with pytest.raises(SystemExit, match="its weights do not fit the options given"):
        train.main(["--init", str(directory), "--batches", "1", "--out", str(tmp_path / "out"), *option])
    assert not (tmp_path / "out").exists()

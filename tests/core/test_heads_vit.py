"""The shipped digits ViT: its held-out accuracy is the card's, its checkpoint is verified and
refused when wrong, its heads are readable, and they show the three kinds on the held-out set."""
import json
import shutil

import numpy as np
import pytest
import torch

from hopfield_core.heads import heldout, kinds, train_vit, vit
from hopfield_core.heads import vit_checkpoint as vc
from hopfield_core.heads.kinds import KINDS


@pytest.fixture(scope="module")
def model():
    torch.set_num_threads(1)
    return vc.load()


@pytest.fixture(scope="module")
def digits():
    return vc.load_heldout()


def test_heldout_accuracy_is_the_cards_and_at_least_95_percent(model, digits):
    images, labels, _ = digits
    correct = int(np.sum(vit.predict(model, images) == labels))
    meta = vc.shipped_meta()
    assert correct == meta["eval"]["heldout_correct"] and len(labels) == meta["eval"]["heldout_n"]
    assert correct / len(labels) == meta["eval"]["heldout_accuracy"] >= 0.95
    card = (vc.ASSET_DIR / vc.CARD).read_text()
    assert f"{correct / len(labels):.2%} ({correct} / {len(labels)})" in card
    assert meta["sha256"] in card and meta["command"] in card
    assert f"{vit.n_parameters(model):,} parameters" in card


def test_the_heldout_digits_are_the_split_the_card_names(digits):
    pytest.importorskip("sklearn", reason="the digits come from scikit-learn (a test and training "
                        "dependency, requirements-dev.txt), not one of the core's")
    images, labels, indices = digits
    seed = vc.shipped_meta()["train"]["seed"]
    _, _, want_images, want_labels, want_indices = train_vit.digits_split(seed)
    assert np.array_equal(indices, want_indices) and np.array_equal(labels, want_labels)
    assert np.array_equal(images, want_images) and images.shape == (360, 8, 8)


def test_the_model_is_the_issues_size(model):
    cfg = model.cfg
    assert (cfg.tokens, cfg.layers, cfg.heads, cfg.d_head) == (17, 4, 4, 16)
    assert vit.n_parameters(model) == 136_138


def test_each_layer_returns_its_heads_queries_keys_and_attention(model, digits):
    x = torch.as_tensor(digits[0][:5], dtype=torch.float32)
    logits, views = model(x, inspect=True)
    assert torch.equal(logits, model(x)) and len(views) == 4
    for v in views:
        assert v.q.shape == v.k.shape == (5, 4, 17, 16) and v.attention.shape == (5, 4, 17, 17)
        direct = torch.softmax(v.q @ v.k.transpose(-1, -2) / 4.0, dim=-1)
        torch.testing.assert_close(v.attention, direct)
    Q, K = vit.layer_heads(model, digits[0][0])[1]
    np.testing.assert_allclose(kinds.attention_weights(Q, K, 0.25), views[1].attention[0].numpy(),
                               atol=1e-6)


def test_the_heads_show_all_three_kinds_on_the_heldout_digits(model, digits):
    table, changed = heldout.table(heldout.vit_layers(model, digits[0]))
    both = table.total_one_step + table.total_fixed
    assert table.total_one_step.sum() == table.total_fixed.sum() == 16
    assert np.all(both > 0), dict(zip(KINDS, both))
    assert 0 < changed < 1 and np.all(table.converged_share > 0.99)


def test_the_batched_heldout_analysis_is_each_images_own(model, digits):
    """heldout.vit_layers analyses every image's heads in one batch: the numbers are those of
    one analysis per image (vit.layer_heads, what the page runs for one digit)."""
    from hopfield_core.heads import analysis

    images = digits[0][:24]
    batched = heldout.vit_layers(model, images)
    for image, layers in zip(images, batched):
        alone = analysis.analyse_model(vit.layer_heads(model, image))
        for a, b in zip(layers, alone):
            for name in ("one_step_k90", "fixed_k90", "iterations", "converged"):
                np.testing.assert_array_equal(getattr(a, name), getattr(b, name), name)


def copy_assets(tmp_path):
    target = tmp_path / "vit"
    shutil.copytree(vc.ASSET_DIR, target)
    return target


def test_damaged_or_foreign_weights_are_refused(tmp_path):
    d = copy_assets(tmp_path)
    blob = bytearray((d / vc.WEIGHTS).read_bytes())
    blob[-1] ^= 1
    (d / vc.WEIGHTS).write_bytes(bytes(blob))
    with pytest.raises(vc.CheckpointError, match="does not match its recorded sha256"):
        vc.load(d)
    (d / vc.WEIGHTS).write_bytes(b"\x80\x04junk")
    with pytest.raises(vc.CheckpointError, match="pickle"):
        vc.load(d)
    (d / vc.HELDOUT).write_bytes(b"PK\x03\x04junk")
    with pytest.raises(vc.CheckpointError, match="pickle"):
        vc.load_heldout(d)
    shutil.rmtree(d)
    with pytest.raises(vc.CheckpointError, match="missing .*Retrain it with"):
        vc.load(d)


def test_a_safetensors_file_is_never_taken_for_a_pickle(tmp_path):
    """A safetensors header length can start with byte 0x80, as a pickle does."""
    import pickle

    from safetensors.torch import save_file

    from hopfield_core.checkpoints import is_safetensors_shaped, looks_like_pickle

    for n in range(1, 400):  # the header length grows with the name: find one starting 0x80
        save_file({"x" * n: torch.zeros(1)}, str(tmp_path / "a.safetensors"))
        if (tmp_path / "a.safetensors").read_bytes()[:1] == b"\x80":
            break
    assert (tmp_path / "a.safetensors").read_bytes()[:1] == b"\x80"
    assert is_safetensors_shaped(tmp_path / "a.safetensors")
    assert not looks_like_pickle(tmp_path / "a.safetensors")
    (tmp_path / "p.bin").write_bytes(pickle.dumps({"w": [1.0]}, protocol=4))  # never loaded
    torch.save({"w": torch.zeros(2)}, tmp_path / "t.pt")
    assert looks_like_pickle(tmp_path / "p.bin") and looks_like_pickle(tmp_path / "t.pt")


def test_weights_of_another_shape_are_refused(tmp_path, digits):
    small = vit.DigitsViT(vit.ViTConfig(dim=32, mlp=64))
    d = tmp_path / "small"
    vc.save(small, d, digits, {})
    meta = json.loads((d / vc.CONFIG).read_text())
    meta["config"] = vit.ViTConfig().to_dict()  # claims the shipped size
    (d / vc.CONFIG).write_text(json.dumps(meta))
    with pytest.raises(vc.CheckpointError, match="does not fit the config"):
        vc.load(d)
    meta["config"]["dim"] = 30  # not a multiple of the heads
    (d / vc.CONFIG).write_text(json.dumps(meta))
    with pytest.raises(vc.CheckpointError, match="no usable ViT config"):
        vc.load(d)


def test_the_training_command_writes_a_loadable_checkpoint_and_card(tmp_path):
    pytest.importorskip("sklearn", reason="the digits come from scikit-learn (a test and training "
                        "dependency, requirements-dev.txt), not one of the core's")
    train_vit.main(["--epochs", "1", "--out", str(tmp_path)])
    meta = vc.shipped_meta(tmp_path)
    model = vc.load(tmp_path)
    images, labels, _ = vc.load_heldout(tmp_path)
    assert int(np.sum(vit.predict(model, images) == labels)) == meta["eval"]["heldout_correct"]
    card = (tmp_path / vc.CARD).read_text()
    assert meta["sha256"] in card and "--epochs 1 --seed 0" in card

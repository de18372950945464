"""The Energy Transformer page: preset, masks, run, frames, yardstick, device, bad input."""
import pytest
from tests.app.conftest import open_app

from hopfield_core.et import load_pretrained
from hopfield_core.et.masks import masked_patch_mse, mean_fill, random_mask, rectangle_mask
from hopfield_core.presets import preset_image
from tests.badfiles import encode, photo


@pytest.fixture(scope="module")
def et():
    return load_pretrained("cpu")


def metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def test_preset_random_mask_run_and_scrub(et):
    at = open_app("energy_transformer")
    assert at.radio(key="et_source").value == "photo"
    name = at.selectbox(key="et_photo").value
    img = preset_image("photos", name, 32)
    mask = random_mask(8, 0.5, 0)
    ref = et.complete(img, mask)
    T = len(ref.energies) - 1
    assert metric(at, "Masked-patch MSE, ET") == f"{masked_patch_mse(ref.frames[0], img, mask, 4):.4f}"
    assert metric(at, "Mean-fill MSE") == f"{masked_patch_mse(mean_fill(img, mask, 4), img, mask, 4):.4f}"
    assert metric(at, "Device") == "CPU"
    at.button(key="et_run_all").click().run()
    assert metric(at, "Masked-patch MSE, ET") == f"{masked_patch_mse(ref.image, img, mask, 4):.4f}"
    assert float(metric(at, "Masked-patch MSE, ET")) < float(metric(at, "Mean-fill MSE"))
    at.slider(key="et_scrub").set_value(2).run()
    assert metric(at, "Masked-patch MSE, ET") == f"{masked_patch_mse(ref.frames[2], img, mask, 4):.4f}"
    assert any(f"step 2 of {T}" in m.value for m in at.markdown)
    assert not at.exception


def test_rectangle_mask_and_other_seed(et):
    at = open_app("energy_transformer")
    at.radio(key="et_mask_mode").set_value("rectangle").run()
    at.slider(key="et_rows").set_value((0, 4)).run()
    at.slider(key="et_cols").set_value((0, 8)).run()
    img = preset_image("photos", at.selectbox(key="et_photo").value, 32)
    mask = rectangle_mask(8, 0, 0, 4, 8)
    ref = et.complete(img, mask)
    at.button(key="et_run_all").click().run()
    assert metric(at, "Masked-patch MSE, ET") == f"{masked_patch_mse(ref.image, img, mask, 4):.4f}"


def test_an_upload_is_cropped_and_a_bad_one_explained():
    at = open_app("energy_transformer")
    at.radio(key="et_source").set_value("upload").run()
    assert any("Choose a preset photo or upload one" in i.value for i in at.info)
    at.file_uploader(key="et_upload").set_value(("doc.png", b"%PDF-1.4", "image/png")).run()
    assert any("`doc.png`: This file is a PDF document" in e.value for e in at.error)
    at.file_uploader(key="et_upload").set_value(("wide.png", encode(photo(90, 30), "PNG"), "image/png")).run()
    assert not at.exception and not at.error
    assert metric(at, "Device") == "CPU"


def test_nothing_hidden_is_explained():
    at = open_app("energy_transformer")
    at.slider(key="et_ratio").set_value(0.05).run()
    assert not at.exception
    at.radio(key="et_mask_mode").set_value("rectangle").run()
    at.slider(key="et_rows").set_value((3, 3)).run()
    assert any("Nothing is hidden" in w.value for w in at.warning)


@pytest.fixture
def weights_dir(monkeypatch, tmp_path):
    """The page loads the ET from a copy of the shipped weights that a test may damage;
    the process-wide cache is emptied before and after."""
    import shutil

    import ui.et_cache
    from hopfield_core.et import checkpoint

    folder = tmp_path / "et"
    shutil.copytree(checkpoint.ASSET_DIR, folder)
    monkeypatch.setattr(checkpoint, "ASSET_DIR", folder)
    ui.et_cache._load.clear()
    yield folder
    ui.et_cache._load.clear()


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
    assert not at.exception and at.metric  # the rest of the app runs on
    at.switch_page("app_pages/energy_transformer.py").run()
    at.button(key="et_retry").click().run()
    assert _unavailable(at)  # still damaged: still explained, never a traceback
    weights.write_bytes(good)  # restored
    at.button(key="et_retry").click().run()
    assert not _unavailable(at) and not at.exception
    assert any(m.label == "Masked-patch MSE, ET" for m in at.metric)


def test_the_link_carries_the_upload_and_the_clicked_mask():
    at = open_app("energy_transformer")
    at.radio(key="et_source").set_value("upload").run()
    at.file_uploader(key="et_upload").set_value(("tall.png", encode(photo(30, 90), "PNG"), "image/png")).run()
    at.radio(key="et_mask_mode").set_value("click").run()
    at.button(key="et_clear_mask").click().run()
    link = {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert link["src"] == "upload" and link["img"].startswith("upload/")
    assert link["mask"] == "click" and link["hide"] == "0" * 16
    shared = open_app("energy_transformer", query=link)  # another student opens the link
    assert not shared.exception and not shared.error
    assert any("Completing the photo uploaded as `tall`" in c.value for c in shared.caption)
    assert any("Hidden: 0 of 64 patches." in c.value for c in shared.caption)
    missing = open_app("energy_transformer", query={**link, "img": "upload/" + "0" * 24})
    assert any("that this server does not have" in e.value for e in missing.error)
    assert not missing.exception

"""Uploads are kept on disk by the hash of their bytes: links carry them, a restart keeps them,
the folder stays bounded, and a link that names a missing upload says so."""
import os
import threading

import numpy as np
import pytest

from hopfield_core.images import ImageError
from tests.app.conftest import open_app
from tests.badfiles import encode, photo
from ui import uploads
from ui.uploads import UploadStore


@pytest.fixture
def store(tmp_path):
    return UploadStore(tmp_path / "uploads")


def test_the_same_bytes_give_the_same_key_and_another_store_on_the_folder_finds_it(store):
    data = encode(photo(90, 60, seed=1), "PNG")
    key = store.put("cat.png", data)
    assert uploads.KEY_PATTERN.match(key)
    assert store.put("other name.png", data) == key
    name, image = UploadStore(store.root).get(key)  # as after a restart of the server
    assert name == "cat" and image.shape == (uploads.KEEP, uploads.KEEP, 3)
    assert store.put("x.png", encode(photo(90, 60, seed=2), "PNG")) != key


def test_the_cached_pixels_are_the_files_own_8_bits_and_give_the_image_exactly(store):
    """The app caches get_pixels (uint8, an eighth of float64's memory); get is the same image
    in [0, 1], to the last bit."""
    key = store.put("cat.png", encode(photo(90, 60, seed=3), "PNG"))
    name, pixels = store.get_pixels(key)
    assert name == "cat" and pixels.dtype == np.uint8 and pixels.nbytes == uploads.KEEP ** 2 * 3
    assert np.array_equal(store.get(key)[1], pixels / 255.0)
    assert store.get_pixels("upload/" + "0" * 24) is None


def test_bad_files_are_refused_and_nothing_is_written(store):
    with pytest.raises(ImageError):
        store.put("notes.png", b"%PDF-1.4")
    assert not list(store.root.glob("*")) if store.root.exists() else True


@pytest.mark.parametrize("key", ["upload/../../etc/passwd", "upload/" + "g" * 24, "upload/abc",
                                 "letters/A", "", "upload/" + "a" * 24 + "/x", None, 5])
def test_keys_that_are_not_upload_names_are_never_paths(store, key):
    assert store.path(key) is None and store.get(key) is None


def test_a_missing_or_damaged_entry_reads_as_gone(store):
    key = store.put("a.png", encode(photo(seed=3), "PNG"))
    store.path(key).write_bytes(b"\x89PNG damaged")
    assert store.get(key) is None
    store.path(key).unlink()
    assert store.get(key) is None


def test_old_entries_go_then_the_least_recently_used_beyond_the_size_cap(store):
    keys = [store.put(f"{i}.png", encode(photo(seed=10 + i), "PNG")) for i in range(4)]
    sizes = [store.path(k).stat().st_size for k in keys]
    now = 1_000_000_000.0
    for age, k in zip((10, 40, 30, 20), keys):  # k0 used last, k1 longest ago
        os.utime(store.path(k), (now - age, now - age))
    store.max_bytes = sum(sizes) - 1  # one must go: the least recently used
    store.prune(now=now)
    assert [store.path(k).exists() for k in keys] == [True, False, True, True]
    store.max_age_s = 25  # k2 (30 s) is now too old
    store.prune(now=now)
    assert [store.path(k).exists() for k in keys] == [True, False, False, True]


def test_two_processes_writing_the_same_upload_at_once_leave_one_whole_file(store):
    data = encode(photo(200, 150, seed=5), "PNG")
    keys, errors = [], []

    def put():
        try:
            keys.append(UploadStore(store.root).put("same.png", data))
        except Exception as e:  # noqa: BLE001  (the test reports any)
            errors.append(e)

    threads = [threading.Thread(target=put) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(set(keys)) == 1
    assert [p.suffix for p in store.root.iterdir()] == [".png"]
    assert store.get(keys[0]) is not None


# ---------------------------------------------------------------- through the app

def _upload(at, name: str, seed: int):
    at.file_uploader(key="uploader").set_value((name, encode(photo(seed=seed), "PNG"), "image/png")).run()
    return at


def test_a_link_carries_uploads_to_a_new_session_and_survives_a_restart():
    at = open_app("classical")
    _upload(at, "holiday.png", seed=21)
    link = dict(at.query_params)
    keys = [k for k in link["presets"].split(",") if k.startswith("upload/")]
    assert len(keys) == 1
    stored = at.session_state["store"][-1]
    # a student opening the link: a new session (and after a restart, a new process: the
    # upload comes back from the disk store, not from this process's memory)
    from ui import state
    state._stored_pixels.clear()
    other = open_app("classical", query=link)
    got = other.session_state["store"][-1]
    assert got.key == stored.key and got.name == "holiday"
    np.testing.assert_allclose(got.image, stored.image, atol=1 / 255)
    assert not other.warning


def test_a_link_naming_an_upload_this_server_lacks_says_so():
    missing = "upload/" + "0" * 24
    at = open_app("classical", query={"presets": f"letters/A,{missing}"})
    notes = [w.value for w in at.warning if "does not have" in w.value]
    assert notes and f"`{missing}`" in notes[0] and "upload it again" in notes[0]
    assert [s.key for s in at.session_state["store"]] == ["letters/A"]
    at.button(key="dismiss_link_messages").click().run()
    assert not [w for w in at.warning if "does not have" in w.value]


def test_an_uploaded_query_image_is_decoded_once_and_carried_by_the_link(monkeypatch):
    from hopfield_core import images
    at = open_app("classical")
    calls = []
    real = images.load_image
    monkeypatch.setattr(images, "load_image", lambda *a, **k: calls.append(1) or real(*a, **k))
    at.file_uploader(key="q_uploader").set_value(("q.png", encode(photo(seed=31), "PNG"), "image/png")).run()
    at.button(key="classical_step").click().run()
    at.run()
    assert len(calls) == 1  # not once per rerun
    link = dict(at.query_params)
    assert link["q_image"].startswith("upload/")
    other = open_app("classical", query=link)
    assert other.session_state["q_image"] == link["q_image"]
    other.button(key="q_image_clear").click().run()
    assert "q_image" not in dict(other.query_params)

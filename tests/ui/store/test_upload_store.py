"""Uploads are kept on disk by the hash of their bytes: links carry them, a restart keeps them,
the folder stays bounded (anonymous uploads out before those a link opened, without a scan of
the folder per upload), and a link that names a missing upload says so."""
import os
import threading
from pathlib import Path

import numpy as np
import pytest

from hopfield_core.image_files import ImageError
from tests.support.apptest import open_app
from tests.support.badfiles import encode, photo
from ui.store import uploads
from ui.store.uploads import UploadStore


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
                                 "letters/A", "", "upload/" + "a" * 24 + "/x", None, 5,
                                 "upload/" + "a" * 24 + "\n", "\nupload/" + "a" * 24])
def test_keys_that_are_not_upload_names_are_never_paths(store, key):
    assert store.path(key) is None and store.get(key) is None
    assert not uploads.is_key(key) and not store.open_link(key)
    if isinstance(key, str):
        assert uploads.KEY_PATTERN.match(key) is None  # `$` would have let a final newline in


def test_a_missing_or_damaged_entry_reads_as_gone(store):
    key = store.put("a.png", encode(photo(seed=3), "PNG"))
    store.path(key).write_bytes(b"\x89PNG damaged")
    assert store.get(key) is None
    store.path(key).unlink()
    assert store.get(key) is None


def test_old_entries_go_then_the_first_arrived_beyond_the_size_cap(store):
    keys = [store.put(f"{i}.png", encode(photo(seed=10 + i), "PNG")) for i in range(4)]
    sizes = [store.path(k).stat().st_size for k in keys]
    now = 1_000_000_000.0
    for age, k in zip((10, 40, 30, 20), keys):  # k1 arrived first
        os.utime(store.path(k), (now - age, now - age))
    store.max_bytes = sum(sizes) - 1  # one must go: the first to arrive
    store.prune(now=now)
    assert [store.path(k).exists() for k in keys] == [True, False, True, True]
    store.max_age_s = 25  # k2 (30 s) is now too old
    store.prune(now=now)
    assert [store.path(k).exists() for k in keys] == [True, False, False, True]


def _sizes(store, keys):
    return [store.path(k).stat().st_size for k in keys]


def _arrived(store, ages, keys, now):
    for age, k in zip(ages, keys):
        os.utime(store.path(k), (now - age, now - age))


def stems(store, keys):
    return [store.path(k).stem for k in keys]


def noise_png(rng) -> bytes:
    """Incompressible pixels at the kept size: the largest entry the store writes."""
    from PIL import Image
    return encode(Image.fromarray(rng.integers(0, 256, (uploads.KEEP, uploads.KEEP, 3), dtype=np.uint8)), "PNG")


def _opened(store, key, at):
    store.path(key).with_suffix(".link").touch()
    os.utime(store.path(key).with_suffix(".link"), (at, at))


def test_reading_or_uploading_the_same_bytes_again_keeps_an_entrys_place_in_the_queue(store):
    """Nothing a visitor does moves an old entry to the back of the queue (a script re-sending
    its old images would otherwise push the teacher's to the front)."""
    data = [encode(photo(seed=20 + i), "PNG") for i in range(3)]
    keys = [store.put(f"{i}.png", d) for i, d in enumerate(data)]
    now = 1_000_000_000.0
    _arrived(store, (30, 20, 10), keys, now)
    store.prune(now=now)
    store.get(keys[0])
    store.put("again.png", data[0])
    assert store.path(keys[0]).stat().st_mtime == now - 30
    store.max_bytes = sum(_sizes(store, keys)) - 1
    store.prune(now=now)
    assert not store.path(keys[0]).exists() and store.has(keys[1]) and store.has(keys[2])


def test_an_upload_a_link_opened_goes_last_within_its_share_of_the_store(store):
    keys = [store.put(f"{i}.png", encode(photo(seed=40 + i), "PNG")) for i in range(6)]
    now = 1_000_000_000.0
    _arrived(store, (60, 50, 40, 30, 20, 10), keys, now)  # k0 arrived first
    assert store.open_link(keys[0]) and store.path(keys[0]).with_suffix(".link").is_file()
    store.max_bytes = sum(_sizes(store, keys)) - 1
    store.prune(now=now)  # the first anonymous one goes, not the linked one that arrived before it
    assert [store.path(k).exists() for k in keys] == [True, False, True, True, True, True]
    # every entry linked (a script opening links to its own uploads): the marks protect at
    # most half the store, the most recently opened; the rest go by arrival
    for age, k in zip((5, 4, 3, 2, 1), keys[1:]):
        if store.has(k):
            _opened(store, k, now - age)
    _opened(store, keys[0], now - 6)  # opened longest ago
    s3, s4, s5 = _sizes(store, keys[3:])
    store.max_bytes = s3 + s4 + s5
    store.linked_share = (s4 + s5) / store.max_bytes  # room for the two opened last
    store.prune(now=now)
    assert store.eviction_order(now) == stems(store, keys[3:])  # k3 by arrival, then k4, k5
    assert [store.path(k).exists() for k in keys] == [False, False, False, True, True, True]


def test_a_link_mark_a_week_old_is_deleted_and_protects_nothing(store):
    keys = [store.put(f"{i}.png", encode(photo(seed=50 + i), "PNG")) for i in range(2)]
    now = 1_000_000_000.0
    _arrived(store, (20, 10), keys, now)
    _opened(store, keys[0], now - store.linked_s - 1)
    store.prune(now=now)
    assert not store.path(keys[0]).with_suffix(".link").exists()
    assert store.eviction_order(now) == stems(store, keys)  # arrival order, as if never linked


def test_a_flood_of_anonymous_uploads_leaves_a_linked_one(store):
    teacher = store.put("teacher.png", encode(photo(seed=60), "PNG"))
    assert store.open_link(teacher)
    store.max_bytes = 5 * store.path(teacher).stat().st_size  # about five uploads
    flood = [store.put(f"s{i}.png", encode(photo(seed=100 + i), "PNG")) for i in range(30)]
    assert store.get(teacher) is not None
    assert sum(store.path(k).exists() for k in flood) < 6  # the flood pushed out its own
    assert store.path(flood[-1]).exists()  # the newest stays


def test_the_server_wide_rate_fills_the_unprotected_store_no_sooner_than_the_hold():
    """The arithmetic docs/classroom.md states: at the largest entry and the fastest rate,
    an hour of new images fits in the half of the store links cannot protect."""
    for mb, hold in ((256, 3600), (64, 3600), (3, 120)):
        rate = uploads.per_minute(mb * 2 ** 20, hold)
        assert rate * (hold / 60) * uploads.MAX_PNG_BYTES <= (1 - uploads.LINKED_SHARE) * mb * 2 ** 20
        assert (rate + 1) * (hold / 60) * uploads.MAX_PNG_BYTES > (1 - uploads.LINKED_SHARE) * mb * 2 ** 20
    assert uploads.per_minute(512 * 2 ** 20, 3600) == 87  # the defaults: 512 MB, an hour
    assert uploads.MAX_BYTES == 512 * 2 ** 20 and uploads.HOLD_S == 3600


def test_the_largest_entry_is_within_the_bound_the_rate_assumes(store):
    """Incompressible pixels at the kept size, with a long name: the largest PNG the store writes."""
    key = store.put("n" * 300 + ".png", noise_png(np.random.default_rng(0)))
    assert 0.9 * uploads.MAX_PNG_BYTES < store.path(key).stat().st_size <= uploads.MAX_PNG_BYTES


def test_whatever_a_flood_does_an_upload_stays_for_the_hold(tmp_path):
    """An hour's worth of the fastest flood (a scaled store: 3 MB and 2 minutes) after the
    teacher's upload, which no link opened: the flood marks its own uploads as linked, reads and
    re-sends old ones, and the teacher's stays; the next minute's worth pushes it out, in turn."""
    store = UploadStore(tmp_path / "u", max_bytes=3 * 2 ** 20)
    rate = uploads.per_minute(store.max_bytes, 120)
    rng = np.random.default_rng(1)
    olds = [noise_png(rng) for _ in range(store.max_bytes // 49_000)]
    old = [store.put(f"old{i}.png", d) for i, d in enumerate(olds)]  # a full store before class
    teacher = store.put("teacher.png", noise_png(rng))
    flood = []
    for i in range(2 * rate):  # two minutes at the server-wide rate
        flood.append(store.put(f"f{i}.png", noise_png(rng)))
        store.open_link(flood[-1])
        store.get(old[i % len(old)])
        store.put("again.png", olds[i % len(olds)])
    assert store.has(teacher), "pushed out within the hold"
    assert sum(store.has(k) for k in old) < len(old)
    for i in range(rate * 2):  # and later arrivals do push it out: the store is bounded
        store.put(f"g{i}.png", noise_png(rng))
    assert not store.has(teacher)


def test_a_link_to_an_upload_the_server_lacks_marks_nothing(store):
    missing = "upload/" + "0" * 24
    assert not store.open_link(missing)
    assert not store.root.exists() or not list(store.root.iterdir())


class _Calls:
    """Counts the calls that read a folder listing or a file's status."""

    def __init__(self, monkeypatch):
        self.listings = self.stats = 0
        real_scandir, real_listdir, real_stat = os.scandir, os.listdir, os.stat

        def scandir(*a, **k):
            self.listings += 1
            return real_scandir(*a, **k)

        def listdir(*a, **k):
            self.listings += 1
            return real_listdir(*a, **k)

        def stat(*a, **k):
            self.stats += 1
            return real_stat(*a, **k)

        monkeypatch.setattr(os, "scandir", scandir)
        monkeypatch.setattr(os, "listdir", listdir)
        monkeypatch.setattr(os, "stat", stat)
        for name in ("glob", "rglob", "iterdir"):
            real = getattr(Path, name)
            monkeypatch.setattr(Path, name, lambda p, *a, _real=real, **k: (
                setattr(self, "listings", self.listings + 1), _real(p, *a, **k))[1])


def _fill(root: Path, n: int, data: bytes) -> None:
    """n entries as another process would have left them (the index reads sizes and times)."""
    root.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (root / f"{i:024x}.png").write_bytes(data)


def test_a_put_does_not_scan_a_folder_of_thousands(store, monkeypatch):
    data = encode(photo(seed=1), "PNG")
    _fill(store.root, 3000, data)
    store.put("first.png", encode(photo(seed=70), "PNG"))  # a process's first put reads the folder
    calls = _Calls(monkeypatch)
    for i in range(10):
        store.put(f"{i}.png", encode(photo(seed=71 + i), "PNG"))
    assert calls.listings == 0 and calls.stats <= 10 * 3, (calls.listings, calls.stats)
    listed = calls.listings
    store.prune()  # on demand: the whole folder, as every put used to do
    assert calls.listings == listed + 1


def test_puts_read_the_folder_again_every_rescan_s(store, monkeypatch):
    store.rescan_s = 0.0  # every put is past the interval
    store.put("a.png", encode(photo(seed=80), "PNG"))
    calls = _Calls(monkeypatch)
    store.put("b.png", encode(photo(seed=81), "PNG"))
    assert calls.listings == 1


def test_what_another_process_adds_or_deletes_is_seen_and_breaks_nothing(store):
    other = UploadStore(store.root)  # another app process sharing the folder
    mine = [store.put(f"m{i}.png", encode(photo(seed=90 + i), "PNG")) for i in range(3)]
    theirs = [other.put(f"t{i}.png", encode(photo(seed=95 + i), "PNG")) for i in range(3)]
    for k in mine[:2]:
        store.path(k).unlink()  # the other process pruned two of mine
    size = store.path(theirs[0]).stat().st_size
    store.max_bytes = 3 * size
    new = store.put("n.png", encode(photo(seed=99), "PNG"))  # evicts files that are gone: fine
    assert store.get(new) is not None and store.get(mine[0]) is None
    store.prune()  # reads the folder again: their uploads count, the least recently used go
    left = [k for k in mine + theirs + [new] if store.path(k).exists()]
    assert len(left) == 3 and new in left and sum(_sizes(store, left)) <= store.max_bytes


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
    from ui.store import store
    store._stored_pixels.clear()
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
    from hopfield_core import image_files
    at = open_app("classical")
    calls = []
    real = image_files.load_image
    monkeypatch.setattr(image_files, "load_image", lambda *a, **k: calls.append(1) or real(*a, **k))
    at.file_uploader(key="q_uploader").set_value(("q.png", encode(photo(seed=31), "PNG"), "image/png")).run()
    at.run()
    at.run()
    assert len(calls) == 1  # not once per rerun
    link = dict(at.query_params)
    assert link["q_image"].startswith("upload/")
    other = open_app("classical", query=link)
    assert other.session_state["q_image"] == link["q_image"]
    other.button(key="q_image_clear").click().run()
    assert "q_image" not in dict(other.query_params)


def test_the_default_folder_is_the_repositorys_and_git_ignores_it():
    """`<repo>/.uploads/` as docs/classroom.md says (the move of uploads.py into ui/store/ had
    made it ui/.uploads/, which git did not ignore: a server started without
    $HOPFIELD_UPLOAD_DIR wrote its ledger into the checkout)."""
    import subprocess

    root = Path(__file__).resolve().parents[3]
    assert uploads.DEFAULT_ROOT == root / ".uploads"
    probe = uploads.DEFAULT_ROOT / ".budget" / "entry"
    ignored = subprocess.run(["git", "check-ignore", "-q", str(probe)], cwd=root)
    if ignored.returncode == 128:
        pytest.skip("not a git checkout")
    assert ignored.returncode == 0, "git would track the upload folder"

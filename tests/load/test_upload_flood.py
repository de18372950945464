"""Issue 44's flood, against a real server (`streamlit run app.py`, the protocol client): a
script opens fresh sessions as fast as the server lets it and uploads from each, for over a
minute, into a store set small (3 MB, a 2-minute hold: 15 new images a minute for the class,
7 of them for tabs opened in the last 30 s) and full of older uploads. The teacher's earlier
upload, which no link opened, stays; a student already in class uploads within a minute of
the flood starting; after the flood, uploads work again within a minute, and after a restart.
Bounded: two flood threads for FLOOD_S seconds, then it stops by itself."""
from __future__ import annotations

import os
import threading
import time

import pytest

from tests.support.server import Server, tracebacks
from tests.support.st_client import StClient, opened, store_heading
from tests.support.student import png
from ui.store import upload_budget, uploads
from ui.store.uploads import UploadStore

FLOOD_S = 75.0
NEW_TAB_S = 30


def big(seed: int) -> bytes:
    return png(seed, size=uploads.KEEP)  # incompressible: the largest entry the store keeps


def client(url: str, query: str = "") -> StClient:
    return opened(url, "classical", query)


def try_upload(c: StClient, name: str, data: bytes) -> tuple[bool, list[str]]:
    before = store_heading(c)
    run = c.upload("uploader", name, data)
    return store_heading(c) != before and not run.errors, list(run.errors)


def upload_from_new_tabs(url: str, seed: int, within: float = 70) -> tuple[float | None, list[str]]:
    """A fresh tab every 5 s tries a new image: the seconds until one is stored (None: none
    within `within`) and the last refusal."""
    t0, said = time.monotonic(), []
    while time.monotonic() - t0 < within:
        c = client(url)
        ok, said = try_upload(c, "later.png", big(seed + int(time.monotonic() - t0)))
        c.close()
        if ok:
            return time.monotonic() - t0, said
        time.sleep(5)
    return None, said


@pytest.fixture
def env(tmp_path):
    e = {**os.environ, uploads.ROOT_ENV: str(tmp_path / "uploads"), uploads.SIZE_ENV: "3",
         uploads.HOLD_ENV: "2", upload_budget.NEW_TAB_ENV: str(NEW_TAB_S)}
    return e


def test_a_flood_of_sessions_cannot_take_the_teachers_upload_or_lock_the_store(env, tmp_path):
    folder = tmp_path / "uploads"
    disk = UploadStore(folder, max_bytes=3 * 2 ** 20)
    old = [disk.put(f"old{i}.png", big(70_000 + i)) for i in range(60)]  # last week's: a full store
    for k in old:
        os.utime(disk.path(k), (time.time() - 86_400,) * 2)
    server = Server(env=env)
    try:
        server.skip_unless_healthy(timeout=90)
        teacher = client(server.url)
        ok, said = try_upload(teacher, "lesson.png", big(1))
        assert ok, said
        lesson = uploads.key_of(big(1))
        student = client(server.url)  # in class before the flood
        time.sleep(NEW_TAB_S + 1)

        stop, flood = threading.Event(), {"stored": 0, "refused": 0, "sessions": 0}
        lock = threading.Lock()

        def script(offset: int) -> None:
            n = 0
            while not stop.is_set():
                c = client(server.url)
                with lock:
                    flood["sessions"] += 1
                t0 = time.monotonic()
                while not stop.is_set() and time.monotonic() - t0 < NEW_TAB_S - 5:  # a fresh tab
                    n += 1
                    good, _ = try_upload(c, f"f{n}.png", big(offset + n))
                    with lock:
                        flood["stored" if good else "refused"] += 1
                c.close()

        threads = [threading.Thread(target=script, args=(10 ** 6 * (i + 1),), daemon=True) for i in range(2)]
        start = time.monotonic()
        for t in threads:
            t.start()
        time.sleep(5)
        waited, said = None, []
        while time.monotonic() - start < 60:  # the student tries every few seconds
            ok, said = try_upload(student, "mine.png", big(2))
            if ok:
                waited = time.monotonic() - start
                break
            time.sleep(3)
        assert waited is not None and waited < 60, said
        while time.monotonic() - start < FLOOD_S:
            time.sleep(1)
        stop.set()
        for t in threads:
            t.join(timeout=60)
        assert flood["refused"] > 0 and flood["sessions"] >= 4, flood
        per_minute = uploads.per_minute(3 * 2 ** 20, 120)
        assert flood["stored"] <= (FLOOD_S / 60 + 1) * per_minute + 2, flood  # the budget held

        assert disk.has(lesson), "the flood pushed out the teacher's upload"
        assert sum(disk.has(k) for k in old) < len(old)  # it pushed out last week's instead
        after = client(server.url, f"presets=letters/A,{lesson}")  # the teacher's link
        assert store_heading(after) == "Pattern store (2/40)", after.texts("alert")
        after.close()

        recovered, said = upload_from_new_tabs(server.url, seed=3)  # the ledger holds a minute
        assert recovered is not None, said
        teacher.close()
        student.close()
    finally:
        server.stop()
    assert not tracebacks(server.log()), tracebacks(server.log())[0]

    again = Server(env=env)  # a restart on the same folder: nothing on disk locks it out
    try:
        again.skip_unless_healthy(timeout=90)
        c = client(again.url, f"presets=letters/A,{lesson}")
        assert store_heading(c) == "Pattern store (2/40)"  # the teacher's link still works
        c.close()
        restarted, said = upload_from_new_tabs(again.url, seed=10 ** 5)
        assert restarted is not None, said
    finally:
        again.stop()
    print(f"\nflood: {flood}; the student's upload after {waited:.1f} s; uploads again "
          f"{recovered:.1f} s after the flood, {restarted:.1f} s after a restart")

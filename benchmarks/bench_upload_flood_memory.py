"""The server's memory before, at the peak of and after a flood of uploads (issue 44: 405 MB
before, about 1.0 GB after 5,400 uploads, still 995 MB three minutes after the last session
closed).

    python benchmarks/bench_upload_flood_memory.py [sessions] [files per session]

A fresh `streamlit run app.py` on a free loopback port, its own upload folder. The flood:
THREADS scripted clients, each opening fresh sessions one after another (the protocol client,
tests/support/st_client.py) and uploading FILES distinct 256 x 256 noise PNGs (197 KB each)
into the sidebar's uploader, then closing the session; SESSIONS in all. The peer is the same
server idle: its resident memory (VmRSS) after start-up and one visit, beside the peak during
the flood (sampled every 0.2 s) and the memory 3 minutes after the last session closed (its
sessions' reconnection window, 120 s, and the housekeeping's tidy-up, every 30 s, are over).
Also printed: what the class's budget let in (ui/store/upload_budget.py).
"""
from __future__ import annotations

import os
import sys
import tempfile
import threading
import time

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import print_table_head  # noqa: E402
from tests.support.server import Server  # noqa: E402
from tests.support.st_client import StClient  # noqa: E402
from tests.support.student import png  # noqa: E402
from ui.store import uploads  # noqa: E402

THREADS = 4
SESSIONS = 60
FILES = 40
AFTER_S = 180
MB = 2 ** 20


def rss(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def flood(url: str, sessions: int, files: int, counts: dict, lock: threading.Lock, seed: int) -> None:
    n = 0
    while True:
        with lock:
            if counts["sessions"] >= sessions:
                return
            counts["sessions"] += 1
        c = StClient(url, timeout=120)
        c.connect()
        c.open("classical")
        for _ in range(files):
            n += 1
            run = c.upload("uploader", f"f{n}.png", png(seed + n, size=256))
            with lock:
                counts["refused" if run.errors else "stored"] += 1
        c.close()


def main(sessions: int = SESSIONS, files: int = FILES) -> None:
    folder = tempfile.mkdtemp(prefix="flood-uploads-")
    server = Server(env={**os.environ, uploads.ROOT_ENV: folder})
    try:
        server.wait_healthy(timeout=120)
        pid = server.proc.pid
        visit = StClient(server.url)
        visit.connect()
        visit.open("classical")
        visit.close()
        time.sleep(5)
        idle = rss(pid)
        counts, lock, peak, done = {"sessions": 0, "stored": 0, "refused": 0}, threading.Lock(), [idle], threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], rss(pid))
                time.sleep(0.2)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        t0 = time.monotonic()
        threads = [threading.Thread(target=flood, args=(server.url, sessions, files, counts, lock, 10 ** 6 * (i + 1)))
                   for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        flood_s = time.monotonic() - t0
        at_close = rss(pid)
        time.sleep(AFTER_S)
        done.set()
        after = rss(pid)
    finally:
        server.stop()
    print(f"{counts['sessions']} sessions x {files} uploads in {flood_s:.0f} s: {counts['stored']} "
          f"stored, {counts['refused']} refused by the class's budget\n")
    print_table_head("server memory (VmRSS)", "MB", "vs idle")
    for what, value in (("idle, after one visit", idle), ("peak during the flood", peak[0]),
                        ("when the last session closed", at_close),
                        (f"{AFTER_S // 60} minutes after the last session closed", after)):
        print(f"| {what} | {value / MB:.0f} | {value / idle:.2f} |")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))

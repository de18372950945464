"""A live class under load: N students in one class through the deploy (K app processes behind
nginx), over Streamlit's own websocket protocol (tests/support/st_client.py).

    python benchmarks/load_live_class.py [--students 100] [--processes 2] [--json OUT]

Starts `deploy/classroom.py --processes K` on a free port with a fresh lessons' database (a
temporary HOPFIELD_DATA_DIR, shared by its processes), then two phases, one after the other:

1. without a class (the peer): each student opens the classical page and changes a setting (the
   query's seed) twice; the page open's and the settings change's times are kept;
2. a live class: a teacher's session opens the class's link; each student joins by the QR code's
   link (Home, `join`), sends a prediction, does phase 1's actions in another tab while the class
   polls, and from then on does what the browser's timers do (tick: the page's 2 s fragment); the
   teacher's session ticks every second (its counts and histogram). When every prediction is in, the teacher reveals (each student's
   next tick reruns the page with the whole run, which the browser then plays by itself) and then
   presses Next at time T0; each student's tick that finds the new step is timed from T0.

Reported: answers lost (sent and acknowledged, not in the database), the teacher's histogram
staleness (from an answer's acknowledgement to the first teacher tick that counts it: p50, p95),
Next's latency per student (p50, p95, and the share within 3 s), and the page open's and the
settings change's p95 with the class against phase 1 (their ratio: what polling costs). Every
loop is bounded by --timeout; the launcher is stopped at the end.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
os.environ["HOPFIELD_DATA_DIR"] = tempfile.mkdtemp(prefix="live_class_data_")  # before the app's modules
from benchmarks.common import ROOT  # noqa: E402
from benchmarks.load_classroom import Launcher  # noqa: E402
from tests.support.live_lesson import BODY  # noqa: E402
from tests.support.server import free_port  # noqa: E402
from tests.support.st_client import OK, StClient  # noqa: E402
from ui.lessons import lesson_store  # noqa: E402
from ui.live import class_store  # noqa: E402

TICK_S = 2.0          # a student's page: ui/live/class_bar.POLL_S
TEACHER_TICK_S = 1.0  # the teacher's counts: ui/live/class_bar.TEACHER_POLL_S


def pct(xs, q):
    return float(np.percentile(xs, q)) if xs else float("nan")


def timed(fn, *args):
    t0 = time.perf_counter()
    run = fn(*args)
    if run is not None and not isinstance(run, list) and run.status not in OK:
        raise RuntimeError(f"{run}")
    return time.perf_counter() - t0


class Phase:
    def __init__(self):
        self.lock = threading.Lock()
        self.open, self.settings, self.errors = [], [], []

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            getattr(self, kind).append(seconds)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text[:300])


def peer(url: str, i: int, phase: Phase, spread: float) -> None:
    """Phase 1: open the classical page, change the query's seed twice, leave."""
    time.sleep(random.uniform(0, spread))
    c = StClient(url, timeout=90)
    try:
        c.connect()
        phase.add("open", timed(c.open, "classical", "mode=async&T=0"))
        for seed in (1 + i % 5, 2 + i % 5):
            phase.add("settings", timed(c.set_value, "q_seed", seed))
    except Exception as e:  # noqa: BLE001 - counted and reported
        phase.error(f"peer {i}: {e!r}")
    finally:
        c.close()


class Class:
    """Phase 2's shared clock: what each student acknowledged, when Next was pressed."""

    def __init__(self, n: int):
        self.lock = threading.Lock()
        self.acked: list[float] = []  # when each answer was acknowledged
        self.sent = 0
        self.revealed = threading.Event()
        self.next_at: float | None = None
        self.next_seen: list[float] = []
        self.joins: list[float] = []  # joining by the QR code's link: Home, the lesson, the class
        self.n = n

    def add_join(self, seconds: float) -> None:
        with self.lock:
            self.joins.append(seconds)


def pupil(url: str, code: str, i: int, room: Class, phase: Phase, spread: float, deadline: float) -> None:
    time.sleep(random.uniform(0, spread))
    c = StClient(url, timeout=90)
    try:
        c.connect()
        room.add_join(timed(c.open, "", f"join={code}"))
        options = list(c.widget("class_option_0").proto.options)
        c.set_value("class_option_0", options[i % len(options)])
        c.click("class_send")
        with room.lock:
            room.acked.append(time.time())
            room.sent += 1
        other = StClient(url, timeout=90)  # another tab of the same student: phase 1's actions,
        other.connect()                     # now while the class polls
        try:
            phase.add("open", timed(other.open, "classical", "mode=async&T=0"))
            for seed in (1 + i % 5, 2 + i % 5):
                phase.add("settings", timed(other.set_value, "q_seed", seed))
        finally:
            other.close()
        while time.time() < deadline:  # the browser's 2 s timer, from now on
            time.sleep(TICK_S)
            c.tick()
            if "step=2" in c.query_string:
                with room.lock:
                    room.next_seen.append(time.time() - room.next_at)
                return
    except Exception as e:  # noqa: BLE001 - counted and reported
        phase.error(f"student {i}: {e!r}")
    finally:
        c.close()


def metric(c: StClient, label: str) -> int | None:
    body = next((el.proto.body for el in c.elements.values() if el.kind == "metric" and el.label == label), None)
    return None if body is None else int(body)


def teacher(url: str, lesson: str, code: str, key: str, room: Class, phase: Phase, deadline: float) -> dict:
    c = StClient(url, timeout=90)
    c.connect()
    c.open("", f"lesson={lesson}&class={code}&ckey={key}")
    seen: list[tuple[float, int]] = []  # (tick time, predicted shown)
    try:
        while time.time() < deadline:
            time.sleep(TEACHER_TICK_S)
            c.tick()
            shown = metric(c, "Predicted")
            seen.append((time.time(), shown or 0))
            if shown == room.n:
                break
        c.click("class_reveal")
        time.sleep(3 * TICK_S)  # every student's page reruns with the whole run
        with room.lock:
            room.next_at = time.time()
        c.click("class_next_t")
    except Exception as e:  # noqa: BLE001 - reported
        phase.error(f"teacher: {e!r}")
    finally:
        c.close()
    return {"seen": seen}


def staleness(acked: list[float], seen: list[tuple[float, int]]) -> list[float]:
    """For the k-th acknowledged answer: the first teacher tick that showed at least k answers."""
    out = []
    for k, at in enumerate(sorted(acked), start=1):
        shown = next((t for t, n in seen if n >= k and t >= at), None)
        if shown is not None:
            out.append(shown - at)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=100)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--spread", type=float, default=20.0, help="arrivals spread over this many s")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    n = args.students
    launcher = Launcher(ROOT, free_port(), [], args.processes)
    report: dict = {"students": n, "processes": args.processes}
    try:
        launcher.wait_healthy()
        url = launcher.url
        # phase 1: the peer, no class
        base = Phase()
        threads = [threading.Thread(target=peer, args=(url, i, base, args.spread)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(args.timeout)
        # phase 2: the class
        lesson, _ = lesson_store.create(BODY, BODY["title"])
        code, key = class_store.start(lesson)
        live, room = Phase(), Class(n)
        deadline = time.time() + args.timeout
        out: dict = {}
        t_teacher = threading.Thread(target=lambda: out.update(teacher(url, lesson, code, key, room, live, deadline)))
        t_teacher.start()
        threads = [threading.Thread(target=pupil, args=(url, code, i, room, live, args.spread, deadline))
                   for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(args.timeout)
        t_teacher.join(args.timeout)
        kept = class_store.tally(code, 0)
        stale = staleness(room.acked, out.get("seen", []))
        nxt = room.next_seen
        report.update({
            "answers_sent": room.sent, "answers_kept": kept.answered, "answers_lost": room.sent - kept.answered,
            "joined": kept.joined, "join_p50_s": pct(room.joins, 50), "join_p95_s": pct(room.joins, 95),
            "staleness_p50_s": pct(stale, 50), "staleness_p95_s": pct(stale, 95),
            "next_reached": len(nxt), "next_p50_s": pct(nxt, 50), "next_p95_s": pct(nxt, 95),
            "next_within_3s": sum(1 for x in nxt if x <= 3.0) / max(1, n),
            "open_p95_peer_s": pct(base.open, 95), "open_p95_class_s": pct(live.open, 95),
            "settings_p95_peer_s": pct(base.settings, 95), "settings_p95_class_s": pct(live.settings, 95),
            "errors_peer": base.errors[:5], "errors_class": live.errors[:5],
        })
        report["open_ratio"] = report["open_p95_class_s"] / report["open_p95_peer_s"]
        report["settings_ratio"] = report["settings_p95_class_s"] / report["settings_p95_peer_s"]
    finally:
        launcher.proc.terminate()
        try:
            launcher.proc.wait(30)
        except Exception:  # noqa: BLE001
            launcher.proc.kill()
    for k, v in report.items():
        print(f"{k:24s} {v:.3f}" if isinstance(v, float) else f"{k:24s} {v}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0 if report.get("answers_lost", 1) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

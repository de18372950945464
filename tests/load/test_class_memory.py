"""The real server's memory under a class: it stays within the plan's 2 GB (ui/serving/memory_plan.py).

`streamlit run app.py` from the repository, driven by the protocol client
(tests/support/st_client.py). Ten sessions open the modern page at the largest size a link can
ask for (32 x 32 in colour, d = 3072, a store of 40 patterns, gamma 0.01 and 2000 steps: runs
of hundreds of steps, up to 1516, 36 MB of trajectory), each with its own beta and query seed
so that no run, picture, sweep or figure is shared, all at once; then each changes gamma once
(what reaches the server now: its Steps are the browser's, ui/player/browser.py).
The server's resident memory is sampled every 0.1 s (and its high-water mark read from
/proc/<pid>/status where there is one): the idle process stays within the plan's IDLE_BYTES,
and the peak within CLASS_BYTES. Measured here: 404 MB idle, 868 MB at the peak, in 9 s.
"""
from __future__ import annotations

import threading

from tests.support.load_memory import sessions_at_once
from tests.support.server import tracebacks
from tests.support.st_client import OK, StClient
from ui.pages.modern.settings import BETAS
from ui.serving import memory_plan

SESSIONS = 10
GAMMAS = (0.02,)  # the changes of settings each session makes after opening
STEPS = len(GAMMAS)
STORE = ",".join([f"letters/{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
                 + [f"digits/{i}" for i in range(10)]
                 + ["shapes/circle", "shapes/square", "shapes/triangle", "shapes/cross"])
LINK = f"size=32&colour=1&presets={STORE}&steps=2000&gamma=0.01"


def _session(url: str, i: int, barrier: threading.Barrier, problems: list) -> None:
    beta, seed = BETAS[8 + i], 1000 + i  # 2, 3, 5, 7, 10, ...: a run of its own each
    c = StClient(url, timeout=80)
    try:
        c.connect()
        barrier.wait(timeout=30)
        run = c.open("modern", f"{LINK}&beta={beta:g}&q_seed={seed}")
        problems.extend(f"open: {e}" for e in run.errors)
        if run.status not in OK:
            problems.append(f"open: {run.status}")
        for k in range(STEPS):  # changes of settings: each a new run and its player's frames
            run = c.set_value("modern_gamma", GAMMAS[k])
            problems.extend(f"settings: {e}" for e in run.errors)
            if run.status not in OK:
                problems.append(f"settings: {run.status}")
        problems.extend(f"on the page: {e}" for e in c.exceptions())
    except Exception as e:  # a closed socket, a time-out, a broken barrier
        problems.append(f"{type(e).__name__}: {e}")
    finally:
        c.close()


def test_ten_large_distinct_sessions_keep_the_server_within_the_class_budget(server):
    m = sessions_at_once(server, _session, range(SESSIONS), deadline_s=75)
    print(m.report())
    assert not m.stuck, f"sessions still running: {m.report()}"
    assert not m.failures(), m.failures()
    assert not tracebacks(server.log()), tracebacks(server.log())[0]
    assert m.idle <= memory_plan.IDLE_BYTES, m.report()
    assert m.peak <= memory_plan.CLASS_BYTES, m.report()

"""The capacity lab's memory on the real server (`streamlit run app.py` from the repository),
driven by the protocol client (tests/support/st_client.py).

The issue's heaviest curves link, the modern network at d = 1000 with N up to 3000
(/capacity_lab?view=curves&v_modern=1&d=1000&n_lo=1&n_hi=3000&points=2&trials=20&beta=1,
which runs on opening) cost about 0.9 GB a session, and 4.5 GB more with trials=100 and Run,
because every trial's patterns were made at once in float64. Now the core makes them a chunk
at a time within ui.serving.budget.RUN_BYTES. Five sessions open that link with trials=100, each with
its own seed (so that no run is shared or cached), and press Run together; the server's
resident memory, sampled every 0.1 s (and its high-water mark), rises by less than 1 GB in
all, and every session draws its curves.
"""
from __future__ import annotations

import threading

from tests.support.load_memory import sessions_at_once
from tests.support.server import tracebacks
from tests.support.st_client import OK, StClient

SESSIONS = 5
LINK = ("view=curves&v_sync=0&v_async=0&v_dense=0&v_exp=0&v_modern=1&d=1000&n_lo=1&n_hi=3000"
        "&points=2&trials=100&beta=1")
RISE = 2 ** 30  # bytes the five runs may add to the idle server, all together


def _session(url: str, seed: int, barrier: threading.Barrier, problems: list) -> None:
    c = StClient(url, timeout=90)
    try:
        c.connect()
        run = c.open("capacity_lab", f"{LINK}&seed={seed}")
        if run.status not in OK or run.errors or not c.has("capacity_lab_run_curve"):
            problems.append(f"open: {run.status} {run.errors} {c.button_labels()}")
            return
        barrier.wait(timeout=60)
        run = c.click("capacity_lab_run_curve")  # computes, or waits its turn, then computes
        if run.status not in OK:
            problems.append(f"run: {run.status}")
        problems.extend(f"run: {e}" for e in run.errors)
        charts = [el for el in c.elements.values() if el.kind == "plotly_chart"]
        if len(charts) != 2:
            problems.append(f"{len(charts)} charts after Run: {c.texts()[-3:]}")
        problems.extend(f"on the page: {e}" for e in c.exceptions())
    except Exception as e:  # a closed socket, a time-out, a broken barrier
        problems.append(f"{type(e).__name__}: {e}")
    finally:
        c.close()


def test_five_sessions_on_the_heaviest_curves_link_stay_within_a_gigabyte(server):
    m = sessions_at_once(server, _session, range(101, 101 + SESSIONS), deadline_s=100)
    print(m.report())
    assert not m.stuck, f"sessions still running: {m.report()}"
    assert not m.failures(), m.failures()
    assert not tracebacks(server.log()), tracebacks(server.log())[0]
    assert m.peak - m.idle < RISE, m.report()

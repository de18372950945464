"""A cold rush: 30 students open a just-started server at the same instant.

Regression test for "partially initialized module 'pandas' has no attribute ...": when 30
sessions' script threads made the process's first imports of pandas / plotly / torch
together, one of them could get a half-initialised module (ui.serving.boot.warm() now runs under
one process-wide lock, at the server's start-up). Here `streamlit run app.py` starts from
the repository (its .streamlit/config.toml applies); as soon as /_stcore/health answers,
30 protocol clients (tests/support/st_client.py) connect, wait at a barrier, and all send
their first rerun together, each opening one of the pages that import the heavy modules;
then each clicks Step once where the page has a player. No exception element, no st.error,
no closed socket, no time-out: every run must finish.
"""
from __future__ import annotations

import threading

import pytest

from tests.support.server import Server, tracebacks
from tests.support.st_client import OK, StClient

SESSIONS = 30
# page url name -> the key of its server-side Step button, "browser" where its player runs in
# the browser (its frames come with the page), None where the page has no player
PAGES = {"classical": "browser", "dense": "browser", "modern": "browser",
         "attention": None, "energy_transformer": "browser"}


@pytest.fixture
def cold_server():
    server = Server()
    server.skip_unless_healthy()
    yield server
    server.stop()


def _session(url: str, page: str, barrier: threading.Barrier, problems: list[str]) -> None:
    c = StClient(url, timeout=50)
    try:
        c.connect()
        barrier.wait(timeout=30)
        run = c.open(page)
        if run.status not in OK:
            problems.append(f"open: {run.status}")
        problems.extend(f"open: {e}" for e in run.errors)
        step = PAGES[page]
        if step == "browser":
            p = c.player(page)
            if not p["T"] or p["shown"] != p["T"]:
                problems.append(f"the player's run is not all there: {p['shown']} of {p['T']}")
        elif step is not None:
            if not c.has(step):
                problems.append(f"no Step button {step!r} after opening")
            else:
                run = c.click(step)
                if run.status not in OK:
                    problems.append(f"step: {run.status}")
                problems.extend(f"step: {e}" for e in run.errors)
        problems.extend(f"on the page: {e}" for e in c.exceptions())
    except Exception as e:  # a closed socket, a time-out, a broken barrier
        problems.append(f"{type(e).__name__}: {e}")
    finally:
        c.close()


def test_thirty_sessions_at_once_on_a_cold_server(cold_server):
    pages = list(PAGES)
    barrier = threading.Barrier(SESSIONS)
    out = {f"session {i} ({pages[i % len(pages)]})": [] for i in range(SESSIONS)}
    threads = [threading.Thread(target=_session, daemon=True, args=(
        cold_server.url, pages[i % len(pages)], barrier, problems))
        for i, problems in enumerate(out.values())]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    stuck = [t.name for t in threads if t.is_alive()]
    failures = {k: v for k, v in out.items() if v}
    assert not stuck, f"{len(stuck)} sessions still running after 120 s"
    assert not failures, f"{len(failures)} of {SESSIONS} sessions failed: {failures}"
    assert not tracebacks(cold_server.log()), tracebacks(cold_server.log())[0]


def test_a_started_servers_warm_up_stays_quiet(cold_server):
    """The start-up warm-up imports the pages outside any script run: its harmless "missing
    ScriptRunContext" warnings stay out of the teacher's terminal. (The click grids of the ET
    mask and the pattern editor, ui/store/grid_editor.py, are st.components.v2 components: their
    code travels with the page, so one declared at the warm-up needs no registration with the
    server; tests/e2e/test_et_mask_keyboard_e2e.py uses one on a server warmed at start.)"""
    assert "missing ScriptRunContext" not in cold_server.log()

"""Faults a classroom meets, against the real server (`streamlit run app.py` from the repo,
so its .streamlit/config.toml applies), driven by the protocol client (tests/support/st_client.py).

a) a tab closed mid-run: the socket goes away before the run's script_finished; the
   server stays healthy, the next student is served, and nothing is logged as a traceback;
b) reruns that overlap an Energy Transformer completion: each new seed arrives while the
   previous run is still executing; the last run finishes cleanly with its metrics;
c) a server restart during a lesson: the link the app wrote (an uploaded pattern in
   `presets`, an uploaded query image in `q_image`) still works on the new process,
   because uploads are stored on disk (HOPFIELD_UPLOAD_DIR, a throw-away folder that
   tests/conftest.py sets for the test session and the servers inherit).

The ET weights missing / corrupted, then Retry, is in tests/app/test_energy_transformer_page.py.
"""
from __future__ import annotations

import re
import time
from urllib.parse import parse_qs

import pytest

from tests.support.server import Server, tracebacks
from tests.support.st_client import OK, StClient
from tests.support.student import png

HEAVY_LINK = "size=32&colour=1&T=1.0"  # d = 3072 at temperature 1: a run up to the CPU budget


@pytest.fixture(scope="module")
def server():
    s = Server()
    s.skip_unless_healthy()
    yield s
    s.stop()


def _client(url: str) -> StClient:
    c = StClient(url, timeout=45)
    c.connect()
    return c


def _store_heading(c: StClient) -> str:
    return next((t for t in c.texts("heading") if t.startswith("Pattern store")), "")


def _metric_labels(c: StClient) -> list[str]:
    """The labels of the page's metrics and of its player's (ui/player/browser.py)."""
    labels = [el.label for el in c.elements.values() if el.kind == "metric"]
    players = [el.key.removesuffix("_player") for el in c.elements.values()
               if el.kind == "bidi_component" and (el.key or "").endswith("_player")]
    for page in players:
        labels += [p["label"] for p in c.player(page)["panels"].values() if p["kind"] == "metric"]
    return labels


def test_a_tab_closed_mid_run(server):
    c = _client(server.url)
    run = c.open("classical", HEAVY_LINK)
    assert run.status in OK and not run.errors, run
    run = c.set_value("classical_steps", 200)
    assert run.status in OK and not run.errors, run
    assert any("This run stopped at" in t for t in c.texts()), "the step limit is not capped"
    # a query no one has run yet: a fresh run up to the CPU budget (~1 s), then the tab goes
    finishes = len(c.finishes)
    c.set_value("q_seed", 4242, wait=False)
    c.wait_started()
    assert len(c.finishes) == finishes, "the run ended before the tab could close"
    c.close()

    time.sleep(2.0)  # the orphaned run ends on the server, its messages go nowhere
    assert server.healthy()
    c2 = _client(server.url)
    try:
        run = c2.open("classical", HEAVY_LINK + "&q_seed=4242")
        assert run.status in OK and not run.errors, run
        assert c2.player("classical")["T"] >= 1  # the run's frames went to the browser
        run = c2.set_value("classical_mode", "sync")
        assert run.status in OK and not run.errors, run
        assert not c2.exceptions()
    finally:
        c2.close()
    assert server.proc.poll() is None, "the server died"
    assert not tracebacks(server.log()), tracebacks(server.log())[0]


def test_reruns_during_an_et_completion(server):
    c = _client(server.url)
    try:
        run = c.open("energy_transformer")
        assert run.status in OK and not run.errors, run
        assert "Masked-patch MSE, ET" in _metric_labels(c)
        # seeds no one has used: each rerun starts a completion; the next one arrives while
        # it is still executing (right after the server announced the run)
        seen, started = len(c.finishes), c.starts
        c.set_value("energy_transformer_seed", 7001, wait=False)
        c.wait_started()
        c.set_value("energy_transformer_seed", 7002, wait=False)
        c.wait_started()
        c.set_value("energy_transformer_seed", 7003, wait=False)
        run = c.settle()
        finishes, starts = c.finishes[seen:], c.starts - started
        # a run stopped for the next rerun has a start and no finish (or FINISHED_EARLY_...)
        interrupted = starts - sum(f != "FINISHED_EARLY_FOR_RERUN" for f in finishes)
        assert interrupted >= 1, f"no run was interrupted: {starts} started, {finishes}"
        assert run.status == "FINISHED_SUCCESSFULLY" and not run.errors, (run, finishes)
        assert not c.exceptions()
        assert "Masked-patch MSE, ET" in _metric_labels(c), _metric_labels(c)
    finally:
        c.close()
    assert not tracebacks(server.log()), tracebacks(server.log())[0]


def test_a_server_restart_keeps_the_link_working():
    first = Server()
    first.skip_unless_healthy()
    port = first.port
    try:
        c = _client(first.url)
        run = c.open("classical")
        assert run.status in OK and not run.errors, run
        assert _store_heading(c).startswith("Pattern store (3/"), _store_heading(c)
        run = c.upload("uploader", "mine.png", png(31337))
        assert not run.errors, run
        assert _store_heading(c).startswith("Pattern store (4/"), _store_heading(c)
        presets = parse_qs(c.query_string).get("presets", [""])[0]
        assert re.search(r"(^|,)upload/[0-9a-f]{24}($|,)", presets), c.query_string
        run = c.upload("q_uploader", "query.png", png(4711))
        assert not run.errors, run
        assert c.has("q_image_clear"), "the uploaded query image is not in use"
        q_image = parse_qs(c.query_string).get("q_image", [""])[0]
        assert re.fullmatch(r"upload/[0-9a-f]{24}", q_image), c.query_string
        link = c.query_string
        c.close()
    finally:
        code = first.stop()  # SIGTERM: Streamlit's own shutdown
    assert not tracebacks(first.log()), tracebacks(first.log())[0]

    second = Server(port=port)  # the same address: the students' tabs reconnect here
    second.skip_unless_healthy()
    try:
        c = _client(second.url)
        run = c.open("classical", link)
        assert run.status in OK and not run.errors, run
        assert _store_heading(c) == "Pattern store (4/40)", _store_heading(c)
        missing = [t for t in c.texts("alert") if "does not have" in t]
        assert not missing, missing
        assert c.has("q_image_clear"), "the query image from the link is not in use"
        assert any("uploaded image" in t for t in c.texts()), c.texts()
        c.close()
    finally:
        second.stop()
    assert code in (0, -15), f"the first server exited with {code} on SIGTERM"
    assert not tracebacks(second.log()), tracebacks(second.log())[0]

"""The protocol-level client against the real app (`streamlit run` on a free loopback port).

The fast tests (well under 60 s) check the client: open a page from a link, read its player's
frames, change a setting, upload a PNG, see a closed socket reported. The classroom ramp is marked `load` and runs
only when asked for: `python -m pytest -m load tests/load`.
"""
from __future__ import annotations

import re

import pytest

from tests.support.server import Server
from tests.support.st_client import Closed, StClient, StError
from tests.support.student import png


@pytest.fixture(scope="module")
def server():
    srv = Server()
    srv.skip_unless_healthy()
    yield srv.url
    srv.stop()


@pytest.fixture
def client(server):
    c = StClient(server, timeout=45)
    c.connect()
    yield c
    c.close()


def _store_count(c: StClient) -> int:
    heading = next(t for t in c.texts("heading") if t.startswith("Pattern store"))
    return int(re.search(r"\((\d+)/", heading).group(1))


def test_open_a_link_read_the_players_run_and_change_a_setting(client):
    run = client.open("classical", "mode=async&T=0")
    assert run.status == "FINISHED_SUCCESSFULLY" and not run.errors, run
    assert client.session_id and "classical" in client.pages
    p = client.player("classical")
    assert p["T"] >= 2 and p["shown"] == p["T"], "the whole run went to the browser"
    assert p["panels"]["describe"]["text"][0].startswith(f"Step 0 of {p['T']}")
    assert not {"Reset", "Step", "Run", "Play"} & set(client.button_labels())  # the browser's buttons
    assert "mode=async" in client.query_string  # the page wrote its settings into the URL
    run = client.set_value("classical_mode", "sync")
    assert run.status == "FINISHED_SUCCESSFULLY" and not run.errors and run.seconds > 0, run
    assert "mode=sync" in client.query_string and client.player("classical")["run"]


def test_a_rerun_that_keeps_the_run_sends_its_frames_as_a_reference(client):
    """docs/classroom.md: the player's frames go to the browser once a run; a rerun that does
    not change the run sends the same bytes, which Streamlit's message cache sends as a
    reference to the browser's copy."""
    client.open("modern", "gamma=0.3")
    assert client.player("modern")["T"] > 10
    before = len(client.refs)
    client.set_value("modern_view", "bound")  # another section below the player: the same run
    assert "modern_player" in client.refs[before:], client.refs[before:]
    assert client.player("modern")["T"] > 10


def test_set_values_and_upload_a_png(client):
    client.open("classical", "")
    before = _store_count(client)
    run = client.upload("uploader", "mine.png", png(7))
    assert not run.errors, run
    assert _store_count(client) == before + 1
    client.set_value("q_amount", 0.4)
    client.set_value("q_corruption", "Gaussian noise")
    assert "q_amount=0.4" in client.query_string and "q_corruption=noise" in client.query_string
    with pytest.raises(StError, match="not one of"):
        client.set_value("q_corruption", "no such corruption")
    run = client.switch_page("energy_transformer")
    assert not run.errors and client.has("energy_transformer_seed"), run
    run = client.set_value("energy_transformer_seed", 4242)
    assert not run.errors and client.player("energy_transformer")["panels"]["took"]["label"] == "Completion took", run


def test_a_closed_socket_is_reported(client):
    client.open("", "")
    client.ws.send(b"\xff\xff\xff not a BackMsg")  # the server closes with 1002
    with pytest.raises(Closed, match="closed"):
        client.open("", "")
    assert client.closed


@pytest.mark.load
def test_classroom_ramp(request, tmp_path):
    """30 students, arriving over 5 s, on one warm server: every one completes."""
    if "load" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the classroom ramp runs only with `-m load`")
    from benchmarks.load_classroom import main

    out = tmp_path / "load.json"
    code = main(["--sessions", "30", "--chromium", "0", "--timeout", "900", "--json", str(out)])
    assert out.exists()
    assert code == 0, out.read_text()[-3000:]


def test_the_ramp_report_reads_memory_after_the_kept_sessions_are_reaped(server):
    """benchmarks/load_classroom.py: past Streamlit's 120 s session TTL one visitor comes and
    goes (its disconnect makes Streamlit drop the expired sessions), and the report prints
    that reading after the timed ones."""
    from streamlit import config

    from benchmarks.load_classroom import SESSION_TTL_S, after_rows, reap

    assert SESSION_TTL_S == config.get_option("server.disconnectedSessionTTL")
    reap(server)  # opens the home page and leaves, without an error
    ramps = [{"rss_after_s_mb": {"150": 440.0, "30": 450.0, "reaped": 420.0}}, {"rss_after_s_mb": {}}]
    assert after_rows(ramps) == [("30", "RSS 30 s after all left (MB)"),
                                 ("150", "RSS 150 s after all left (MB)"),
                                 ("reaped", "RSS after the kept sessions were reaped (MB)")]
    assert after_rows([{"rss_after_s_mb": {"30": 1.0}}]) == [("30", "RSS 30 s after all left (MB)")]


def test_a_playing_student_gets_the_run_once_and_stays_until_stopped(server):
    """benchmarks/load_classroom.py --players: a student who opens the Energy Transformer page at
    100 steps (its run and frames come with the page) and plays in the browser, connected and
    silent until the ramp ends."""
    import threading
    import time

    from tests.support.student import player

    stop, out = threading.Event(), []
    th = threading.Thread(target=player, args=(server, 0, stop, time.monotonic() + 120, 90, out))
    th.start()
    deadline = time.monotonic() + 100
    while time.monotonic() < deadline and not (out and out[0].latencies.get("open")):
        time.sleep(0.2)
    assert out and out[0].latencies.get("open"), out and out[0].failures
    assert th.is_alive() and not out[0].ended  # still there, playing
    stop.set()
    th.join(30)
    assert out[0].completed and not out[0].failures, out[0].failures

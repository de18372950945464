"""ui/serving/housekeeping.py against a real server: a closed tab whose reconnection window has
passed is shut down (its media files are gone), one still within the window is kept; and what
Streamlit does without the tidy-up."""
from __future__ import annotations

import os
import time
import urllib.error
import urllib.request

import pytest

from tests.support.server import Server
from tests.support.st_client import StClient


def _media_urls(c: StClient) -> list[str]:
    return [img.url for el in c.elements.values() if el.kind == "imgs" for img in el.proto.imgs]


def _status(url: str) -> int:
    try:
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(url, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


@pytest.fixture(scope="module")
def short_window_server():
    """Closed tabs kept 3 s instead of 120, a tidy-up every second."""
    srv = Server(env={**os.environ, "HOPFIELD_TIDY_EVERY_S": "1"},
                 extra=["--server.disconnectedSessionTTL", "3"])
    srv.skip_unless_healthy(timeout=90)
    yield srv
    srv.stop()


def test_a_closed_tab_is_shut_down_once_its_reconnection_window_has_passed(short_window_server):
    srv = short_window_server
    c = StClient(srv.url, timeout=45)
    c.connect()
    run = c.open("classical")
    assert run.status == "FINISHED_SUCCESSFULLY" and not run.errors, run
    urls = _media_urls(c)
    assert urls, "the classical page shows its patterns as images (media files)"
    media = srv.url + urls[0]
    assert _status(media) == 200
    c.close()
    time.sleep(1.5)  # the tab is closed, its reconnection window (3 s) is still open
    assert _status(media) == 200, "a session that can still come back keeps its files"
    deadline = time.monotonic() + 20
    while _status(media) == 200 and time.monotonic() < deadline:
        time.sleep(0.5)
    # Streamlit alone keeps them until a later visitor writes its session store
    assert _status(media) == 404, "the expired session was not shut down"
    assert "Shut down 1 closed session(s) whose 3 s reconnection window had passed (the " \
        "tidy-up took" in srv.log()
    assert "Traceback" not in srv.log()


def test_without_the_tidy_up_an_expired_session_stays_until_a_visitor_comes():
    """What the tidy-up is for: Streamlit alone drops an expired session only when a later
    session writes its store."""
    srv = Server(env={**os.environ, "HOPFIELD_TIDY_EVERY_S": "100000"},
                 extra=["--server.disconnectedSessionTTL", "1"])
    srv.skip_unless_healthy(timeout=90)
    try:
        c = StClient(srv.url, timeout=45)
        c.connect()
        c.open("classical")
        media = srv.url + _media_urls(c)[0]
        c.close()
        time.sleep(4)
        assert _status(media) == 200, "expired a while ago, still served: nobody came"
        visitor = StClient(srv.url, timeout=45)
        visitor.connect()
        visitor.open("")
        visitor.close()
        deadline = time.monotonic() + 10
        while _status(media) == 200 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert _status(media) == 404
    finally:
        srv.stop()

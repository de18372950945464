"""A real browser on the real app: `streamlit run` on a free loopback port (tests.support.server),
Debian's Chromium driven by Playwright (tests.support.chromium). Screenshots land in
artifacts/e2e/ (look at them); the helpers the tests use are in tests.support.browser."""
import os

import pytest

from tests.support import chromium
from tests.support.browser import ARTIFACTS, wait_idle
from tests.support.server import Server

_PIDS: dict[str, int] = {}  # a server's address -> its process (the streamlit process itself)


@pytest.fixture(scope="session")
def server():
    why = chromium.missing()
    if why:
        pytest.skip(why)
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # each xdist worker has its own server
    srv = Server(extra=["--server.fileWatcherType", "none"],
                 log_path=ARTIFACTS / (f"server-{worker}.log" if worker else "server.log"))
    try:
        srv.wait_healthy()
        _PIDS[srv.url] = srv.proc.pid
        yield srv.url
    finally:
        srv.stop(timeout=10)


@pytest.fixture
def server_pid(server) -> int:
    """The process id of the app's server (to read its CPU time from /proc)."""
    return _PIDS[server]


@pytest.fixture(scope="module")
def browser(server):
    """Chromium, one per test file (0.7 s to start): Playwright's sync API runs an asyncio loop
    in this thread while it is open, so a session-long browser would break a later test of the
    same process that runs its own loop (asyncio.run, a second sync_playwright), as in an xdist
    worker that takes tests/deploy after an e2e file."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = chromium.launch(p)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    """A fresh browser session (its own Streamlit session) on the app's home page."""
    context = browser.new_context(viewport={"width": 1500, "height": 2000})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    pg.goto(server + "/")
    wait_idle(pg)
    yield pg
    context.close()

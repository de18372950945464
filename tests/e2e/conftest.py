"""A real browser on the real app: `streamlit run` on a free loopback port, Debian's Chromium
driven by Playwright. Screenshots land in artifacts/e2e/ (look at them)."""
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "e2e"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited early with code {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise TimeoutError("streamlit did not become healthy in time")


@pytest.fixture(scope="session")
def server():
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip(f"no Chromium at {CHROMIUM}: install it with `apt-get install -y chromium`")
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    port = _free_port()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER")  # each xdist worker has its own server
    log = open(ARTIFACTS / (f"server-{worker}.log" if worker else "server.log"), "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser(server):
    """Chromium, one per test file (0.7 s to start): Playwright's sync API runs an asyncio loop
    in this thread while it is open, so a session-long browser would break a later test of the
    same process that runs its own loop (asyncio.run, a second sync_playwright), as in an xdist
    worker that takes tests/deploy after an e2e file."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
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


IDLE_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !!document.querySelector('[data-testid="stMainBlockContainer"] h1')
    && !document.querySelector('[data-testid="stStatusWidget"]')
    && !document.querySelector('[data-testid="stSkeleton"]');
}"""


def wait_idle(pg, settle_ms: int = 400, timeout_s: float = 60) -> None:
    """Wait until the script run has finished and the page is drawn: Streamlit's own run state
    on stApp (`data-test-script-state`) reads notRunning, the page's h1 is there, no status
    widget shows and no placeholder (stSkeleton) waits for its element, twice in a row settle_ms apart (a click's rerun, or a run the page asks for
    at its end, starts within that). The state, not only the status widget's absence, is
    trusted: the widget appears only some time into a run, so its absence alone let a test
    measure a half-drawn page."""
    pg.wait_for_selector('[data-testid="stApp"]')
    deadline = time.time() + timeout_s
    while time.time() < deadline:
        if pg.evaluate(IDLE_JS):
            pg.wait_for_timeout(settle_ms)
            if pg.evaluate(IDLE_JS):
                return
        pg.wait_for_timeout(100)
    raise TimeoutError(f"the app did not finish its run in {timeout_s} s")


def store_uploader(pg):
    """The sidebar's "Upload images" (the store's), waited for: the query's uploader below it
    takes files too, and a page still drawing its sidebar may show that one first."""
    box = pg.locator('[data-testid="stSidebar"] [data-testid="stFileUploader"]').filter(
        has_text="Upload images")
    box.wait_for()
    return box.locator('input[type="file"]')


def goto(pg, server: str, path: str) -> None:
    pg.goto(f"{server}/{path}")
    wait_idle(pg)


def shot(pg, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    return path


def assert_healthy(pg) -> None:
    """No exception box, no Streamlit error about the script."""
    assert pg.locator('[data-testid="stException"]').count() == 0, \
        pg.locator('[data-testid="stException"]').first.inner_text()


def player_button(pg, label: str):
    """The first player button labelled `label` (Reset, Step, Run, Play, Pause): its accessible
    name is the label and the shortcut key Streamlit shows after it ("Step S", or "Step Shortcut
    S" where the browser names the key's box); the icon is aria-hidden."""
    return pg.get_by_role("button", name=player_name(label)).first


def player_name(label: str):
    """The accessible name of the player button labelled `label`, as a pattern."""
    import re
    return re.compile(rf"^{label}(?: (?:Shortcut )?\S)?$")

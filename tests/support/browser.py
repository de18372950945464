"""What the browser tests do on a page: wait until Streamlit has drawn it, go to a page, take a
screenshot (artifacts/e2e/, look at them), find the store's uploader and the player's buttons,
and read the focus through shadow roots."""
from __future__ import annotations

import re
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "e2e"


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
    return re.compile(rf"^{label}(?: (?:Shortcut )?\S)?$")


DEEP_ACTIVE_LABEL = """() => {
  let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return [a.getAttribute("role"), a.getAttribute("aria-label")];
}"""


# every grid's edits applied by the server (ui/store/grid_editor.py keeps the rest pending)
APPLIED = """() => [...document.querySelectorAll('[data-testid=stBidiComponentIsolated]')]
  .map((h) => h.shadowRoot && h.shadowRoot.querySelector('.hf-root'))
  .every((r) => !r || !r.__hf || r.__hf.pending.length === 0)"""

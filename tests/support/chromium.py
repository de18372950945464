"""Debian's Chromium for the browser tests and benchmarks: where it is, the one list of flags it
runs with here (no sandbox as root, no GPU, nothing fetched from the network), and why a test
skips where it is missing."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]


def missing() -> str | None:
    """Why no browser test can run here (no Chromium, no Playwright), or None."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        return f"no Chromium at {CHROMIUM}: install it with `apt-get install -y chromium`"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    return None


def launch(playwright, **kwargs):
    """Chromium, headless, with the flags above: `playwright` is sync_playwright()'s object."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                      headless=True, **kwargs)

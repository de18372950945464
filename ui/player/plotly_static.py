"""Plotly's own script for the browser player's charts, served by Streamlit's static file serving
(`server.enableStaticServing`, .streamlit/config.toml) from `static/` beside app.py.

The file is plotly.js exactly as the pinned `plotly` package ships it (requirements.txt): copied
from the package when the server starts, not kept in the repository, never downloaded. The
browser loads it once per page visit and keeps it in its cache (its name carries plotly.js's
version, so an upgrade is a new name)."""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import plotly

ROOT = Path(__file__).resolve().parents[2]   # the folder of app.py
STATIC = ROOT / "static"                      # Streamlit serves it at <app>/app/static/
SOURCE = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def version() -> str:
    """plotly.js's version, as the script itself states it (its first comment)."""
    with SOURCE.open("r", encoding="utf-8") as f:
        head = f.read(200)
    marker = "plotly.js v"
    start = head.find(marker)
    if start < 0:
        return hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:12]
    end = start + len(marker)
    while end < len(head) and (head[end].isalnum() or head[end] in ".-"):
        end += 1
    return head[start + len(marker):end]


NAME = f"plotly-{version()}.min.js"
URL = f"app/static/{NAME}"  # relative to the app's root (browser_player.js resolves it)


def ensure(folder: Path = STATIC) -> Path:
    """static/<NAME>, a byte-for-byte copy of the package's plotly.min.js: written once (atomically,
    so a second server process starting at the same moment never reads half a file), checked
    by size afterwards."""
    target = folder / NAME
    size = SOURCE.stat().st_size
    if target.is_file() and target.stat().st_size == size:
        return target
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".plotly-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(SOURCE.read_bytes())
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target

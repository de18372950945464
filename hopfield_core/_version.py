"""The package's version: its installed metadata (pyproject.toml's, as pip installed it); in a
checkout that was not installed, pyproject.toml's own line."""
from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "hopfield-core"
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _from_checkout() -> str | None:
    try:
        text = PYPROJECT.read_text()
    except OSError:
        return None
    found = re.search(r'^version\s*=\s*"([^"]+)"', text, re.MULTILINE)
    return found.group(1) if found else None


def _version() -> str:
    mine = _from_checkout()
    if mine is not None:  # this copy sits in the checkout: its own pyproject.toml says
        return mine
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "0+unknown"


version = _version()

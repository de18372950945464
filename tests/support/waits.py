"""Waiting for another thread in a test: poll a condition, fail after LIMIT seconds."""
from __future__ import annotations

import time

LIMIT = 10.0  # seconds any wait in these tests may take before it counts as stuck


def until(condition, timeout: float = LIMIT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.005)

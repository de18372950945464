"""How many new images one session may add to the shared upload store: at most FILES in any
WINDOW_S. The store is shared by the class and bounded (ui.store.uploads): without a quota, one
scripted session sent 5,437 distinct images in 7.5 minutes and pushed the teacher's upload
out. An upload whose bytes the store already holds costs nothing and is not counted.
No streamlit here; ui.store.store keeps one Quota in each session's state."""
from __future__ import annotations

import math
import time
from collections import deque

from hopfield_core.image_files import ImageError

FILES = 40          # new images a session may add ...
WINDOW_S = 600      # ... in any 10 minutes: a class's worth of experiments, not a flood


class QuotaExceeded(ImageError):
    """A new image refused because its session has added its quota lately. An ImageError, so
    that every uploader that explains a refused file explains this one too."""


def when(seconds: float) -> str:
    minutes = math.ceil(max(seconds, 1) / 60)
    return "in a minute" if minutes == 1 else f"in {minutes} minutes"


class Quota:
    """The times of one session's recent new images."""

    def __init__(self):
        self.times: deque[float] = deque()  # time.monotonic() of each counted image

    def take(self, now: float | None = None) -> None:
        """Count one new image, or raise QuotaExceeded with a sentence that names the limit
        and when more are allowed. FILES and WINDOW_S are read at each call."""
        now = time.monotonic() if now is None else now
        while self.times and now - self.times[0] >= WINDOW_S:
            self.times.popleft()
        if len(self.times) >= FILES:
            wait = self.times[0] + WINDOW_S - now
            raise QuotaExceeded(
                f"This tab has added {FILES} new images in the last {WINDOW_S // 60} minutes, "
                f"the most one tab may add to the class's shared store; you can upload more "
                f"{when(wait)}. Presets and images already uploaded can still be added.")
        self.times.append(now)

    def give_back(self) -> None:
        """Uncount the last image (refused after all, by the class's budget)."""
        if self.times:
            self.times.pop()

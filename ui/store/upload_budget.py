"""How many new images the class's shared upload store takes in, all tabs and all processes
together: at most `uploads.per_minute()` in any minute (87 for the default 512 MB and an hour), so that no
burst of sessions can push an upload out within `uploads.hold_s()` of its arrival; and of those,
at most NEW_TABS_SHARE from tabs opened less than NEW_TAB_S ago, so that a script opening fresh
sessions as fast as the server lets it leaves the other half to the students already in class.

The ledger lives beside the images (`<upload folder>/.budget/`, one empty file a new image,
named by its time and its kind of tab), so every process that shares the images shares it; the
files of the last minute are all it holds, and each admission deletes the older ones, so no
state on disk outlives a flood by more than a minute. Only images the store took in count (a
file that does not decode costs its tab's quota, ui.store.upload_quota, not the class's
budget); uploads checked at the same instant may let one or two more through, so the bound is
"about". No streamlit here: ui.store.store checks before a session's new image is decoded and
records it once stored.
"""
from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from ui.serving.boot import positive_number_env

from . import uploads
from .upload_quota import QuotaExceeded, when

WINDOW_S = 60.0       # the budget is per minute
NEW_TAB_S = 60.0      # a tab younger than this is new ...
NEW_TABS_SHARE = 0.5  # ... and new tabs together take at most half the budget
NEW_TAB_ENV = "HOPFIELD_UPLOAD_NEW_TAB_SECONDS"
FOLDER = ".budget"


class BudgetExceeded(QuotaExceeded):
    """A new image refused because the class's store has taken in its minute's worth."""


def new_tab_s() -> float:
    return positive_number_env(NEW_TAB_ENV, NEW_TAB_S)


class Budget:
    def __init__(self, root: str | os.PathLike, per_minute: int, new_tab_s: float = NEW_TAB_S):
        self.folder = Path(root) / FOLDER
        self.per_minute = per_minute
        self.new_tabs = int(NEW_TABS_SHARE * per_minute)
        self.new_tab_s = new_tab_s

    def recent(self, now: float) -> list[tuple[float, str]]:
        """(time, kind) of the images admitted in the last minute, oldest first; older entries
        are deleted on the way."""
        out = []
        try:
            names = os.listdir(self.folder)
        except FileNotFoundError:
            return out
        for name in names:
            stamp, _, rest = name.partition("-")
            kind = rest.partition("-")[0]
            try:
                t = int(stamp) / 1e9
            except ValueError:
                t = -float("inf")  # not ours: cleared like an old entry
            if now - t >= WINDOW_S or now < t - WINDOW_S:  # old, or from a clock far ahead
                try:
                    (self.folder / name).unlink()
                except FileNotFoundError:
                    pass
                continue
            out.append((t, kind))
        return sorted(out)

    def check(self, tab_age_s: float, now: float | None = None) -> None:
        """Raise BudgetExceeded, with a sentence that says why and when to try again, when the
        minute's budget has no room for a new image from a tab opened tab_age_s ago."""
        now = time.time() if now is None else now
        recent = self.recent(now)
        new_tab = tab_age_s < self.new_tab_s
        if len(recent) >= self.per_minute:
            wait = recent[0][0] + WINDOW_S - now
            raise BudgetExceeded(
                f"The class's shared store is taking in new images as fast as it allows ("
                f"{self.per_minute} a minute from all tabs together, so that no upload is pushed "
                f"out soon after it arrives); try again {when(wait)}. Presets and images already "
                "uploaded can still be added.")
        fresh = [t for t, kind in recent if kind == "n"]
        if new_tab and len(fresh) >= self.new_tabs:
            wait = min(fresh[0] + WINDOW_S - now, self.new_tab_s - tab_age_s)
            raise BudgetExceeded(
                f"Tabs opened in the last minute are sending many new images, more than the "
                f"class's shared store takes in from new tabs ({self.new_tabs} a minute); this "
                f"tab can upload again {when(wait)}. Presets and images already uploaded can "
                "still be added.")

    def record(self, tab_age_s: float, now: float | None = None) -> None:
        """Count one new image the store took in from a tab opened tab_age_s ago."""
        now = time.time() if now is None else now
        self.folder.mkdir(parents=True, exist_ok=True)
        name = f"{int(now * 1e9)}-{'n' if tab_age_s < self.new_tab_s else 's'}-{secrets.token_hex(4)}"
        (self.folder / name).touch()


def default_budget() -> Budget:
    """The budget of the configured upload folder (a new object each time: the state is on disk)."""
    store = uploads.default_store()
    return Budget(store.root, uploads.per_minute(store.max_bytes), new_tab_s())

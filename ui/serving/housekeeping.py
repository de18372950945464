"""Keeping a long-running classroom server's memory near its idle size.

One process serves every student for a whole class (app.py's `st.App`). Three things made
its RSS grow, and stay grown, after the students had left (docs/classroom.md, "Memory after a class",
has the measurements):

- Closed sessions stayed. Streamlit keeps a closed tab's session for
  `server.disconnectedSessionTTL` (120 s) so that a dropped connection comes back with its
  state, but drops an expired one from its session store only when the store is next
  written (a later visitor), and does not shut it down: its state, uploaded files and media
  files (every st.image it was shown) go when the garbage collector frees the session
  object. After the last student of a class left, all of it stayed until someone came.
  `reap_closed_sessions()` removes the expired sessions on a timer and shuts each one down,
  as Streamlit does for a session that cannot be resumed.
- With `runner.postScriptGC = false` (.streamlit/config.toml: a full collection after every
  run took 77 % of the server's time at 30 students), Python's collector runs a full pass
  only when the objects that survived the last one have grown by a quarter: the start-up
  alone leaves about 300 000 of them (torch, plotly, pandas, the pages), so a class's cyclic
  garbage waited. `freeze_start_up()` moves the start-up's objects out of the collector's
  view (`gc.freeze()`): a full pass then looks only at what the class made, and comes as
  often as the class makes garbage.
- glibc's malloc spread the script threads over up to 8 arenas per core and, once the first
  large mapped array was freed, put arrays of up to 32 MB inside those arenas rather than
  mapping them: the peak of a class stayed resident as fragments. `tune_malloc()` caps the
  arenas at two and maps every block from 256 KiB up, so a freed array goes back at once;
  `malloc_trim(0)` in each tidy-up returns the free pages that remain.

`tidy()` does all three steps of the tidy-up; app.py runs it every `tidy_every_s()` seconds on
the server's event loop, where Streamlit itself opens and closes sessions. Nothing here runs
in a session or touches a session that is connected or can still be resumed.
"""
from __future__ import annotations

import asyncio
import ctypes
import gc
import platform
import time
from dataclasses import dataclass

from streamlit.logger import get_logger

from .boot import positive_int_env

_log = get_logger(__name__)

TIDY_EVERY_S = 30  # seconds between tidy-ups; $HOPFIELD_TIDY_EVERY_S changes it (tests: 1)
# glibc's mallopt parameters (malloc.h)
M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8
MMAP_THRESHOLD = 256 * 1024  # bytes: blocks this large are mapped, and unmapped when freed
ARENA_MAX = 2                # malloc arenas shared by the script threads (one per core here)


def _glibc() -> ctypes.CDLL | None:
    """The C library, when it is glibc (Linux); None elsewhere (macOS, Windows, musl)."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


def tune_malloc() -> dict[str, int]:
    """Cap glibc's malloc arenas and fix its mmap threshold (see the module's docstring).
    Returns the settings that were applied ({} where the C library is not glibc). Call it
    before the script threads start: a thread keeps the arena it was given."""
    libc = _glibc()
    if libc is None:
        return {}
    applied = {}
    for name, param, value in (("M_ARENA_MAX", M_ARENA_MAX, ARENA_MAX),
                               ("M_MMAP_THRESHOLD", M_MMAP_THRESHOLD, MMAP_THRESHOLD)):
        if libc.mallopt(ctypes.c_int(param), ctypes.c_int(value)) == 1:
            applied[name] = value
    return applied


def freeze_start_up() -> int:
    """Collect once, then keep every object that exists now (the start-up's) out of all
    later collections. Returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def _session_store():
    """(cache, lock): the cache in which Streamlit keeps closed sessions for reconnection and
    the lock its session manager writes it under; None outside a running server or where
    this Streamlit keeps them otherwise (tests/ui/serving/test_housekeeping.py checks against
    a real server that the installed Streamlit does)."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return None
    mgr = getattr(Runtime.instance(), "_session_mgr", None)
    cache = getattr(getattr(mgr, "_session_storage", None), "_cache", None)
    lock = getattr(mgr, "_storage_lock", None)
    if cache is None or lock is None or not hasattr(cache, "expire"):
        return None
    return cache, lock


def reap_closed_sessions() -> int:
    """Remove the closed sessions whose reconnection window has passed from Streamlit's
    store and shut each one down (its uploaded and media files go). Returns how many."""
    store = _session_store()
    if store is None:
        return 0
    cache, lock = store
    with lock:
        expired = cache.expire()
    for _session_id, info in expired:
        session = getattr(info, "session", None)
        if session is not None:
            session.shutdown()
    return len(expired)


def trim_malloc() -> bool:
    """Return malloc's free pages to the system (glibc only); True when some were."""
    libc = _glibc()
    return bool(libc is not None and libc.malloc_trim(ctypes.c_size_t(0)))


@dataclass(frozen=True)
class Tidied:
    sessions: int   # closed sessions shut down
    collected: int  # unreachable objects the collector freed
    trimmed: bool   # malloc returned free pages to the system
    seconds: float  # how long the event loop was held


def tidy() -> Tidied:
    """Shut down expired closed sessions, collect garbage, return free pages to the system."""
    t0 = time.perf_counter()
    sessions = reap_closed_sessions()
    collected = gc.collect()
    trimmed = trim_malloc()
    done = Tidied(sessions, collected, trimmed, time.perf_counter() - t0)
    if sessions:
        _log.info("Shut down %d closed session(s) whose %d s reconnection window had passed "
                  "(the tidy-up took %.0f ms).", sessions, _reconnect_window_s(),
                  1000 * done.seconds)
    return done


def _reconnect_window_s() -> int:
    from streamlit import config

    return int(config.get_option("server.disconnectedSessionTTL"))


def tidy_every_s() -> int:
    """Seconds between tidy-ups: $HOPFIELD_TIDY_EVERY_S (a positive integer), else 30."""
    return positive_int_env("HOPFIELD_TIDY_EVERY_S", TIDY_EVERY_S)


async def tidy_every(seconds: float | None = None) -> None:
    """`tidy()` every `seconds` (default `tidy_every_s()`) until cancelled (app.py's lifespan
    runs it on the server's event loop). A failed tidy-up is logged and the next one goes
    ahead."""
    seconds = seconds or tidy_every_s()
    while True:
        await asyncio.sleep(seconds)
        try:
            tidy()
        except Exception:  # never take the server down for housekeeping
            _log.exception("the memory tidy-up failed")

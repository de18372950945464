"""One simulated student of a classroom, and the probe that measures stalls, over StClient.

A student: opens the home page, follows the teacher's link to the classical page
(`classical?mode=async&T=0`), adds two presets, uploads a small PNG of their own, changes
the corruption, changes the query's seed 20 times (going through five seeds: each a new run
for the player, whose Step, Play and scrubber are the browser's and reach no server),
opens the Energy Transformer page and completes a mask of their own (a seed no one else
uses, so the completion is not cached), visits two more pages and leaves.

`think` > 0 makes the student pause between actions, uniformly between 0.5 and 1.5 times
`think` seconds (from a generator seeded by the student's index), as a person looks at the
result before clicking again; 0 (the default) clicks again the moment a run finishes, a
stress test no class produces.

Each action's latency (send to script_finished) is kept by kind: open, settings, et, switch,
and "other" (presets, upload, corruption). A failure is an exception element or an
st.error the app showed, a time-out or a closed socket, kept with its text.
"""
from __future__ import annotations

import io
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field

import numpy as np
from PIL import Image

from .st_client import Closed, RunTimeout, StClient, StError

CLASS_LINK = ("classical", "mode=async&T=0")
STEPS = 20   # changes of settings a student makes on the classical page (Step is the browser's)
SEEDS = (1, 2, 3, 4, 5)  # the query seeds they go through: five runs, the class's cache shares them
OTHER_PAGES = ("dense", "modern")


@dataclass
class Record:
    name: str
    latencies: dict = field(default_factory=lambda: defaultdict(list))  # kind -> [seconds]
    failures: list = field(default_factory=list)                        # texts
    completed: bool = False
    started: float = 0.0
    ended: float = 0.0


def png(seed: int, size: int = 24) -> bytes:
    """A small PNG that no other student uploads (random pixels from `seed`)."""
    pixels = (np.random.default_rng(seed).random((size, size, 3)) * 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="PNG")
    return buf.getvalue()


class _Actor:
    """Runs actions on one client, recording latencies and failures; stops on a
    closed socket, a time-out or the global deadline."""

    def __init__(self, rec: Record, client: StClient, deadline: float, think: float = 0.0,
                 seed: int = 0):
        self.rec, self.c, self.deadline, self.think = rec, client, deadline, think
        self.rng = np.random.default_rng(seed)

    def do(self, kind: str, fn, *args):
        if self.think > 0:
            time.sleep(min(self.think * self.rng.uniform(0.5, 1.5),
                           max(0.0, self.deadline - time.monotonic())))
        if time.monotonic() > self.deadline:
            raise RunTimeout("global time-out of the load test")
        try:
            run = fn(*args)
        except (Closed, RunTimeout):
            raise
        except StError as e:
            self.rec.failures.append(f"{fn.__name__}{args[:1]}: {e}")
            return None
        self.rec.latencies[kind].append(run.seconds)
        self.rec.failures.extend(f"{run.action}: {err}" for err in run.errors)
        return run


def student(base_url: str, index: int, et_seed: int, deadline: float,
            timeout: float = 60.0, out: list | None = None, think: float = 0.0) -> Record:
    """Runs one student; `out` gets the record at once, so a caller sees partial results."""
    rec = Record(f"student {index}", started=time.monotonic())
    if out is not None:
        out.append(rec)
    c = StClient(base_url, timeout=timeout)
    a = _Actor(rec, c, deadline, think, seed=et_seed)
    try:
        rec.latencies["connect"].append(c.connect())
        a.do("open", c.open, "", "")
        a.do("open", c.open, *CLASS_LINK)
        a.do("other", c.set_value, "preset_names", ["A", "T"])
        a.do("other", c.click, "add_presets")
        a.do("other", c.upload, "uploader", f"student{index}.png", png(10_000 + et_seed))
        a.do("other", c.set_value, "q_corruption", "Gaussian noise")
        a.do("other", c.set_value, "q_amount", 0.35)
        for k in range(STEPS):  # Step is the browser's: a change of settings is what reaches us
            a.do("settings", c.set_value, "q_seed", SEEDS[k % len(SEEDS)])
        a.do("switch", c.switch_page, "energy_transformer")
        a.do("et", c.set_value, "energy_transformer_seed", et_seed)
        for page in OTHER_PAGES:
            a.do("switch", c.switch_page, page)
        rec.completed = not rec.failures
    except (Closed, RunTimeout) as e:
        rec.failures.append(f"{type(e).__name__}: {e}")
    except Exception as e:  # a bug in the client or an unexpected reply: keep the text
        rec.failures.append(f"{type(e).__name__}: {e}")
    finally:
        c.close()
        rec.ended = time.monotonic()
    return rec


def _session(name: str, base_url: str, deadline: float, timeout: float, out: list | None, act) -> Record:
    """One client that connects, runs act(actor, client) and leaves; its record (in `out` at
    once, if given) keeps the failures, an exception included."""
    rec = Record(name, started=time.monotonic())
    if out is not None:
        out.append(rec)
    c = StClient(base_url, timeout=timeout)
    a = _Actor(rec, c, deadline)
    try:
        c.connect()
        act(a, c)
        rec.completed = not rec.failures
    except Exception as e:
        rec.failures.append(f"{type(e).__name__}: {e}")
    finally:
        c.close()
        rec.ended = time.monotonic()
    return rec


def probe(base_url: str, stop: threading.Event, deadline: float, period: float = 0.5,
          timeout: float = 60.0, out: list | None = None) -> Record:
    """Changes a setting (the query's seed, back and forth) every `period` seconds until `stop`
    is set: its largest latency is the longest stall a student at the projector would see."""
    def act(a, c):
        a.do("open", c.open, *CLASS_LINK)
        for n in range(int((deadline - time.monotonic()) / period) + 1):
            if stop.is_set():
                break
            t0 = time.monotonic()
            a.do("settings", c.set_value, "q_seed", SEEDS[n % 2])
            stop.wait(max(0.0, period - (time.monotonic() - t0)))
    return _session("probe", base_url, deadline, timeout, out, act)


PLAY_LINK = ("energy_transformer", "steps=100")  # what a student pressing Play has open


def player(base_url: str, index: int, stop: threading.Event, deadline: float, timeout: float = 60.0,
           out: list | None = None) -> Record:
    """A student who opens the Energy Transformer page at 100 steps and presses Play: the run and
    its frames come with the page (kept as "open"); Play then runs in their browser and sends
    the server nothing (tests/e2e/test_player_e2e.py), so the session stays open, silent, until
    `stop` is set."""
    def act(a, c):
        a.do("open", c.open, *PLAY_LINK)
        stop.wait(max(0.0, deadline - time.monotonic()))
    return _session(f"player {index}", base_url, deadline, timeout, out, act)

"""The server's CPU for each thing a student does, one action at a time on a quiet warm server,
beside the same kind of action on a bare Streamlit app measured in the same run.

    python benchmarks/bench_actions.py [--students 5]

Starts `streamlit run app.py` as the README does (tests/support/server.py: headless, 127.0.0.1,
the project's .streamlit/config.toml), lets one student warm it, then runs --students more,
one after another, each doing the classroom student's actions (tests/support/student.py) over
Streamlit's own websocket protocol, with a 0.3 s pause after each so that the server has
sent everything. Per action: the server process's CPU time (user + system, from psutil)
from sending it to 0.3 s after its run finished, less the CPU of 0.3 s of idling measured the
same way, averaged over every time the action ran. The peer is a bare app (a title, a line of
text and a button) started the same way with the same .streamlit/config.toml: its page open
and its rerun on a button click.

The kernel counts CPU time in 10 ms ticks, so one action's number is a multiple of 10 ms;
the averages over several students (and 20 changes of the query seed each, Step being the
browser's) are what the table shows.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import psutil

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import BARE_APP, ROOT, print_table_head  # noqa: E402
from tests.support.server import Server  # noqa: E402
from tests.support.st_client import StClient  # noqa: E402
from tests.support.student import CLASS_LINK, OTHER_PAGES, SEEDS, STEPS, png  # noqa: E402

PAUSE = 0.3
PEER_REPEATS = 41  # the bare app's actions cost about a tick: many, to average
BARE_BUTTON_APP = BARE_APP + "st.button('again', key='again')\n"


class Meter:
    """CPU seconds of the server process per action, kept by name."""

    def __init__(self, server: Server):
        self.ps = psutil.Process(server.proc.pid)
        self.spent: dict[str, list[float]] = defaultdict(list)
        self.idle = self._idle()

    def _cpu(self) -> float:
        t = self.ps.cpu_times()
        return t.user + t.system

    def _idle(self) -> float:
        c0 = self._cpu()
        for _ in range(10):
            time.sleep(PAUSE)
        return (self._cpu() - c0) / 10

    def __call__(self, name: str, fn, *args):
        c0 = self._cpu()
        run = fn(*args)
        time.sleep(PAUSE)
        self.spent[name].append(max(0.0, self._cpu() - c0 - self.idle))
        if run is not None and run.errors:
            raise RuntimeError(f"{name}: {run.errors}")
        return run


def one_student(url: str, meter: Meter, index: int) -> None:
    c = StClient(url)
    c.connect()
    try:
        meter("open the home page", c.open, "", "")
        meter("open the class link", c.open, *CLASS_LINK)
        meter("choose presets", c.set_value, "preset_names", ["A", "T"])
        meter("add them", c.click, "add_presets")
        meter("upload a picture", c.upload, "uploader", f"student{index}.png", png(20_000 + index))
        meter("change the corruption", c.set_value, "q_corruption", "Gaussian noise")
        meter("change the amount", c.set_value, "q_amount", 0.35)
        for k in range(STEPS):  # Step is the browser's now: a change of settings reaches the server
            meter("change the query's seed", c.set_value, "q_seed", SEEDS[k % len(SEEDS)])
        meter("switch to the ET page", c.switch_page, "energy_transformer")
        meter("an ET completion (new seed)", c.set_value, "energy_transformer_seed", 5_000 + index)
        for page in OTHER_PAGES:
            meter(f"switch to the {page} page", c.switch_page, page)
    finally:
        c.close()


def bare_peer() -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "app.py").write_text(BARE_BUTTON_APP)
        (Path(tmp) / ".streamlit").mkdir()  # the same production settings as the app's
        shutil.copy(ROOT / ".streamlit" / "config.toml", Path(tmp) / ".streamlit")
        server = Server(app_dir=Path(tmp))
        try:
            server.wait_healthy()
            meter = Meter(server)
            for _ in range(PEER_REPEATS):
                c = StClient(server.url)
                c.connect()
                meter("open", c.open, "", "")
                meter("rerun", c.click, "again")
                c.close()
            return {k: statistics.mean(v[1:]) for k, v in meter.spent.items()}
        finally:
            server.stop()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--students", type=int, default=5, help="students measured after the warm one")
    args = ap.parse_args(argv)
    peer = bare_peer()
    server = Server()
    try:
        server.wait_healthy()
        warm = Meter(server)
        one_student(server.url, warm, 0)  # the warm-up and every cache's first fill
        meter = Meter(server)
        for i in range(1, args.students + 1):
            one_student(server.url, meter, i)
    finally:
        server.stop()
    print(f"## Server CPU per action, one student at a time on a warm server "
          f"({args.students} students; idle {meter.idle * 1000:.1f} ms per {PAUSE} s subtracted)\n")
    print_table_head("action", "ours (ms)", "n", "bare app, same kind (ms)", "ratio")
    for name, xs in meter.spent.items():
        kind = "open" if name.startswith(("open", "switch")) else "rerun"
        ours = statistics.mean(xs)
        print(f"| {name} | {ours * 1000:.0f} | {len(xs)} | {kind} {peer[kind] * 1000:.1f} | "
              f"{ours / max(peer[kind], 1e-4):.1f} |")
    print(f"\nThe first student (every cache's first fill; the process warmed up at start-up): "
          f"{sum(sum(v) for v in warm.spent.values()):.1f} s of server CPU in all.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A classroom on one server: N simulated students over Streamlit's own websocket protocol.

    python benchmarks/load_classroom.py [--sessions 1,10,30] [--chromium 2] [--port P]
        [--app-dir DIR] [--warm | --fresh] [--server-args "--server.fileWatcherType none"]
        [--processes K] [--think S] [--players N] [--timeout 1200] [--json OUT]

Starts `streamlit run app.py --server.headless true --server.address 127.0.0.1 --server.port P`
in the app dir (the repo by default; its .streamlit/config.toml applies as is, and
--server-args adds flags), waits for /_stcore/health, then for each ramp starts that many
students (tests/support/student.py, arrivals spread over --spread seconds), a probe that changes
a setting every 0.5 s (its largest latency is the longest stall), --players students who open
the Energy Transformer page at 100 steps and press Play before the others start (their browser
plays and sends the server nothing; they stay connected through the ramp), and --chromium real Chromium sessions
(Playwright, /usr/bin/chromium) that step in the browser player and open the ET page. Per ramp:
sessions completed / failed and the first failure texts; p50 / p95 / p99 of a settings change,
page open, ET completion and page switch; the
probe's longest stall; the server's CPU (% of one core, children included) and peak RSS;
its RSS 30 s (--after) after everyone left beside its idle RSS before the ramp; the CPU the load
generator and everything else on the machine used (a disturbed run shows there). Streamlit keeps
a closed tab's session for 120 s (server.disconnectedSessionTTL); the app's tidy-up
(ui/serving/housekeeping.py) shuts the expired ones down within 30 s more, so read the RSS past 150 s
(--after 30,160). Streamlit alone drops expired sessions only when its session store is next
written, so with an --after past 120 s one visitor then opens the home page and leaves, and
the RSS is read once more ("reaped"): for an app without the tidy-up, e.g. an older commit.

--warm (the default): one server; one student opens it before the first ramp.
--fresh: every ramp starts on a newly started server that no session has opened yet: a cold
rush of N arriving at once (ML model, caches and imports all cold).

--processes K: instead of one `streamlit run`, start the classroom launcher
`python deploy/classroom.py --processes K --port P --address 127.0.0.1` (K app processes
behind nginx, a sticky cookie per browser), wait for its `ready:` line and drive everyone
through nginx. CPU and RSS are then summed over the launcher and all its children (the app
processes and nginx). Per ramp, nginx's access log says which process served each
websocket session (`upstreams`) and whether any request with a route cookie went to
another process than the cookie names (`sticky_violations`, must be 0). The launcher
warms every process before `ready:`, so --fresh there means a just-started launcher. The
probe, like any student, sits on one of the processes.

--think S: each student pauses 0.5 S to 1.5 S between actions (a person reading the result);
the default 0 clicks again the moment a run finishes, a stress test no class produces.

Everything goes to 127.0.0.1; every loop is bounded by --timeout; the server is stopped at
the end, also on Ctrl-C.
"""
from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import psutil

if not __package__:  # run as a script: only benchmarks/ is on sys.path
    import common  # noqa: F401 - puts the repository root on sys.path
from benchmarks.common import ROOT  # noqa: E402
from tests.support import chromium  # noqa: E402
from tests.support import server as support_server  # noqa: E402
from tests.support.server import free_port  # noqa: E402
from tests.support.st_client import StClient  # noqa: E402
from tests.support.student import CLASS_LINK, Record, player, probe, student  # noqa: E402

KINDS = ("settings", "open", "et", "switch")
SETTLE_S = 30
SESSION_TTL_S = 120  # Streamlit's server.disconnectedSessionTTL: a closed tab's session is kept


# ---------------------------------------------------------------- the server

class Measured:
    """The CPU seconds and resident memory of a server process and all its children."""

    ps: psutil.Process

    def procs(self) -> list[psutil.Process]:
        try:
            return [self.ps] + self.ps.children(recursive=True)
        except psutil.Error:
            return []

    def cpu_seconds(self) -> float:
        total = 0.0
        for p in self.procs():
            try:
                t = p.cpu_times()
                total += t.user + t.system + t.children_user + t.children_system
            except psutil.Error:
                pass
        return total

    def rss(self) -> int:
        total = 0
        for p in self.procs():
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
        return total


class Server(support_server.Server, Measured):
    """One `streamlit run app.py` (tests/support/server.py), measured."""

    def __init__(self, app_dir: Path, port: int, extra: list[str]):
        super().__init__(port=port, extra=extra, app_dir=app_dir)
        self.ps = psutil.Process(self.proc.pid)


class Launcher(Measured):
    """deploy/classroom.py: K app processes behind nginx, on 127.0.0.1:port."""

    def __init__(self, app_dir: Path, port: int, extra: list[str], processes: int):
        self.url = f"http://127.0.0.1:{port}"
        self.workdir = Path(tempfile.mkdtemp(prefix="load_classroom_room_"))
        self.access_log = self.workdir / "nginx" / "logs" / "access.log"
        self.log = tempfile.NamedTemporaryFile("w+", prefix="load_classroom_", suffix=".log",
                                               delete=False)
        cmd = [sys.executable, str(app_dir / "deploy" / "classroom.py"),
               "--processes", str(processes), "--port", str(port), "--address", "127.0.0.1",
               "--workdir", str(self.workdir), *(f"--streamlit-arg={a}" for a in extra)]
        self.proc = subprocess.Popen(cmd, cwd=app_dir, stdout=self.log, stderr=subprocess.STDOUT)
        self.ps = psutil.Process(self.proc.pid)

    def wait_healthy(self, timeout: float = 400) -> None:
        """Until the launcher prints `ready: http://...` (every process started and warm)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the launcher exited with code {self.proc.returncode}:\n"
                                   f"{self.tail()}")
            if re.search(r"ready: http://", self.tail(20_000)):
                return
            time.sleep(0.3)
        raise TimeoutError(f"the launcher not ready in {timeout} s:\n{self.tail()}")

    def log_offset(self) -> int:
        return self.access_log.stat().st_size if self.access_log.exists() else 0

    def routing(self, since: int) -> dict:
        """From nginx's access log after byte `since`: websocket sessions per upstream, and
        requests whose route cookie named another process than the one that served them."""
        if not self.access_log.exists():
            return {"upstreams": {}, "sticky_violations": -1, "requests": 0}
        with open(self.access_log, "rb") as f:
            f.seek(since)
            lines = f.read().decode(errors="replace").splitlines()
        streams: dict[str, int] = {}
        violations = 0
        for line in lines:
            m = re.search(r"route=(\S*) upstream=(\S*)", line)
            if not m:
                continue
            route, upstream = m.group(1), m.group(2).split(",")[-1].strip()
            if route not in ("", "-") and upstream not in ("", "-") and route != upstream:
                violations += 1
            if "/_stcore/stream" in line:
                streams[upstream] = streams.get(upstream, 0) + 1
        return {"upstreams": streams, "sticky_violations": violations, "requests": len(lines)}

    def tail(self, n: int = 4000) -> str:
        return Path(self.log.name).read_text(errors="replace")[-n:]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=5)
        self.log.close()
        shutil.rmtree(self.workdir, ignore_errors=True)


class Monitor(threading.Thread):
    """Samples the server's RSS every 0.25 s and keeps the peak, until stopped."""

    def __init__(self, server: Server):
        super().__init__(daemon=True)
        self.server, self.peak, self.halt = server, 0, threading.Event()

    def run(self) -> None:
        while not self.halt.wait(0.25):
            self.peak = max(self.peak, self.server.rss())


# ---------------------------------------------------------------- Chromium

def chromium_session(base: str, index: int, deadline: float, out: list) -> Record:
    """Open the classical page, click Step a few times, open the ET page, in real Chromium."""
    rec = Record(f"chromium {index}", started=time.monotonic())
    out.append(rec)
    try:
        from playwright.sync_api import sync_playwright
        timeout_ms = max(1000, int((deadline - time.monotonic()) * 1000))
        with sync_playwright() as p:
            browser = chromium.launch(p)
            try:
                page = browser.new_context(viewport={"width": 1400, "height": 1600}).new_page()
                page.set_default_timeout(min(timeout_ms, 120_000))
                step_text = re.compile(r"step (\d+) of (\d+)")

                def shown_step() -> tuple[int, int]:
                    text = page.get_by_text(step_text).first.inner_text()
                    return tuple(int(x) for x in step_text.search(text).groups())

                t0 = time.perf_counter()
                page.goto(f"{base}/{CLASS_LINK[0]}?{CLASS_LINK[1]}")
                page.get_by_text(step_text).first.wait_for()
                rec.latencies["open"].append(time.perf_counter() - t0)
                for _ in range(4):
                    t, T = shown_step()
                    name, want = ("^Reset$", 0) if t >= T else ("^(step )?Step$", t + 1)
                    t0 = time.perf_counter()
                    page.get_by_role("button", name=re.compile(name, re.I)).first.click()
                    page.get_by_text(re.compile(rf"step {want} of {T}")).first.wait_for()
                    rec.latencies["step" if want else "reset"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                page.goto(f"{base}/energy_transformer")
                page.get_by_text(re.compile(r"Completion took")).first.wait_for()
                rec.latencies["et"].append(time.perf_counter() - t0)
                exc = page.locator('[data-testid="stException"]')
                if exc.count():
                    rec.failures.append("exception: " + exc.first.inner_text()[:300])
            finally:
                browser.close()
        rec.completed = not rec.failures
    except Exception as e:
        rec.failures.append(f"{type(e).__name__}: {str(e)[:300]}")
    rec.ended = time.monotonic()
    return rec


# ---------------------------------------------------------------- one ramp

_seed = iter(range(1, 10_001))  # ET mask seeds: unique per student over the whole command


def run_ramp(server: Server, n: int, n_chromium: int, spread: float, deadline: float,
             action_timeout: float, after: tuple[float, ...] = (SETTLE_S,), think: float = 0.0,
             n_players: int = 0) -> dict:
    results: list[Record] = []  # each session appends its record when it starts

    rss_before = server.rss()
    log_at = server.log_offset() if isinstance(server, Launcher) else 0
    me, machine0 = psutil.Process(), psutil.cpu_times()
    me0 = sum(me.cpu_times()[:4])
    cpu0, t0 = server.cpu_seconds(), time.monotonic()
    mon = Monitor(server)
    mon.start()
    stop_probe = threading.Event()
    probe_rec: list[Record] = []
    probe_thread = threading.Thread(target=probe, daemon=True, args=(
        server.url, stop_probe, deadline, 0.5, action_timeout, probe_rec))
    probe_thread.start()
    # students who opened the ET page and pressed Play: their browsers play, the server hears nothing
    playing: list[Record] = []
    player_threads = [threading.Thread(target=player, daemon=True, args=(
        server.url, i, stop_probe, deadline, action_timeout, playing)) for i in range(n_players)]
    for th in player_threads:
        th.start()
    while time.monotonic() < deadline and (len(playing) < n_players or any(  # all playing before the class acts
            not r.latencies.get("open") and not r.failures for r in playing)):
        time.sleep(0.1)
    threads = [threading.Thread(target=chromium_session, args=(server.url, i, deadline, results),
                                daemon=True) for i in range(n_chromium)]
    for t in threads:
        t.start()
    begin = time.monotonic()  # the class's arrivals spread from here (after the players opened)
    for i in range(n):
        start_at = begin + spread * i / max(1, n)
        time.sleep(max(0.0, min(start_at, deadline) - time.monotonic()))
        th = threading.Thread(target=student, daemon=True, args=(
            server.url, i, next(_seed), deadline, action_timeout, results, think))
        th.start()
        threads.append(th)
    for th in threads:
        th.join(max(0.0, deadline - time.monotonic()))
    stop_probe.set()
    probe_thread.join(max(1.0, min(action_timeout, deadline - time.monotonic())))
    for th in player_threads:
        th.join(max(1.0, min(action_timeout, deadline - time.monotonic())))
    elapsed = time.monotonic() - t0
    cpu = server.cpu_seconds() - cpu0
    me_cpu = sum(me.cpu_times()[:4]) - me0
    machine1 = psutil.cpu_times()
    machine_busy = (sum(machine1) - machine1.idle - getattr(machine1, "iowait", 0)) - \
        (sum(machine0) - machine0.idle - getattr(machine0, "iowait", 0))
    mon.halt.set()
    mon.join()
    unfinished = sum(th.is_alive() for th in threads)
    for r in results + probe_rec + playing:
        if not r.ended:  # still in an action at the global time-out: partial latencies kept
            r.completed = False
            r.failures.append("unfinished at the global time-out")

    left_at, rss_at = time.monotonic(), {}
    for s_after in sorted(after):  # RSS this long after everyone left
        time.sleep(max(0.0, min(deadline, left_at + s_after) - time.monotonic()))
        rss_at[f"{s_after:g}"] = server.rss() / 2**20
    rss_after = rss_at[f"{min(after):g}"] * 2**20
    if max(after) > SESSION_TTL_S:  # the kept sessions have expired, but Streamlit drops expired
        reap(server.url)            # ones only when its session store is written: one visit does
        time.sleep(5)
        rss_at["reaped"] = server.rss() / 2**20

    students = [r for r in results if r.name.startswith("student")]
    browsers = [r for r in results if r.name.startswith("chromium")]
    lat = {k: [x for r in students for x in r.latencies.get(k, [])] for k in
           KINDS + ("reset", "other", "connect")}
    pr = probe_rec[0] if probe_rec else Record("probe", failures=["probe did not finish"])
    failures = [f"{r.name}: {f}" for r in students + browsers + [pr] + playing for f in r.failures]
    routing = server.routing(log_at) if isinstance(server, Launcher) else None
    return {
        "sessions": n, "players": n_players, "elapsed_s": elapsed,
        "player_open_s": [x for r in playing for x in r.latencies.get("open", [])],
        "players_completed": sum(r.completed for r in playing), "unfinished_threads": unfinished,
        "routing": routing,
        "completed": sum(r.completed for r in students), "failed": sum(not r.completed for r in students),
        "failures": failures,
        "latencies_s": lat,
        "chromium": {"completed": sum(r.completed for r in browsers), "failed": sum(not r.completed for r in browsers),
                     "latencies_s": {k: [x for r in browsers for x in r.latencies.get(k, [])]
                                     for k in ("open", "step", "reset", "et")}},
        "probe": {"clicks": len(pr.latencies.get("settings", [])), "latencies_s": pr.latencies.get("settings", []),
                  "longest_stall_s": max(pr.latencies.get("settings", [0.0]))},
        "server_cpu_pct": 100 * cpu / elapsed, "loadgen_cpu_pct": 100 * me_cpu / elapsed,
        "other_cpu_pct": 100 * max(0.0, machine_busy - cpu - me_cpu) / elapsed,
        "rss_before_mb": rss_before / 2**20, "rss_peak_mb": mon.peak / 2**20,
        "rss_after_mb": rss_after / 2**20, "rss_after_s_mb": rss_at,
    }


def reap(url: str) -> None:
    """One visitor opens the home page and leaves. Its disconnect writes to Streamlit's
    session store, which then drops the sessions kept past server.disconnectedSessionTTL
    (Streamlit drops them lazily, on a write, not on a timer; this app's own tidy-up does it
    on a timer, and shuts them down)."""
    c = StClient(url, timeout=30)
    try:
        c.connect()
        c.open("")
    finally:
        c.close()


# ---------------------------------------------------------------- the report

def pct(xs, q):
    return float(np.percentile(xs, q)) * 1000 if xs else float("nan")


def after_rows(ramps: list[dict]) -> list[tuple[str, str]]:
    """(key in rss_after_s_mb, row name) for the RSS readings after everyone left: the timed
    ones in order, then the one after the kept sessions were reaped."""
    kinds = {t for r in ramps for t in r.get("rss_after_s_mb", {})}
    timed = [(t, f"RSS {t} s after all left (MB)") for t in sorted(kinds - {"reaped"}, key=float)]
    return timed + [("reaped", "RSS after the kept sessions were reaped (MB)")] * ("reaped" in kinds)


def table(ramps: list[dict], label: str) -> str:
    def row(name, f):
        return f"| {name} | " + " | ".join(f(r) for r in ramps) + " |"

    lines = [f"### {label}", "", "| | " + " | ".join(f"{r['sessions']} students" + (
                 f" + {r['players']} playing" if r.get("players") else "") for r in ramps) + " |",
             "|---" * (len(ramps) + 1) + "|",
             row("students completed / failed", lambda r: f"{r['completed']} / {r['failed']}"),
             row("Chromium completed / failed", lambda r: f"{r['chromium']['completed']} / {r['chromium']['failed']}")]
    for kind, name in (("settings", "settings change"), ("open", "page open"), ("et", "ET completion"),
                       ("switch", "page switch")):
        lines.append(row(f"{name} p50 / p95 / p99 (ms)", lambda r, k=kind: "{:.0f} / {:.0f} / {:.0f}".format(
            *(pct(r["latencies_s"][k], q) for q in (50, 95, 99))) + f" (n={len(r['latencies_s'][k])})"))
    lines += [
        row("Chromium step / ET p50 (ms)", lambda r: "{:.0f} / {:.0f}".format(
            pct(r["chromium"]["latencies_s"]["step"], 50), pct(r["chromium"]["latencies_s"]["et"], 50))),
        row("playing students: opened / ET page open p50 / p95 (ms)", lambda r: "{} of {} / {:.0f} / {:.0f}".format(
            r.get("players_completed", 0), r.get("players", 0), pct(r.get("player_open_s", []), 50),
            pct(r.get("player_open_s", []), 95))),
        row("probe longest stall (ms)", lambda r: f"{r['probe']['longest_stall_s'] * 1000:.0f} ({r['probe']['clicks']} clicks)"),
        row("ramp wall time (s)", lambda r: f"{r['elapsed_s']:.0f}"),
        row("server CPU, % of one core", lambda r: f"{r['server_cpu_pct']:.0f}"),
        row("load generator / other CPU %", lambda r: f"{r['loadgen_cpu_pct']:.0f} / {r['other_cpu_pct']:.0f}"),
        row("RSS idle before / peak (MB)", lambda r: f"{r['rss_before_mb']:.0f} / {r['rss_peak_mb']:.0f}"),
    ]
    for t, name in after_rows(ramps):
        lines.append(row(name, lambda r, t=t: (
            f"{r['rss_after_s_mb'][t]:.0f} ({r['rss_after_s_mb'][t] - r['rss_before_mb']:+.0f})"
            if t in r.get("rss_after_s_mb", {}) else "-")))
    if any(r.get("routing") for r in ramps):
        lines.append(row("websocket sessions per process / sticky violations", lambda r: (
            " + ".join(str(v) for _, v in sorted(r["routing"]["upstreams"].items()))
            + f" / {r['routing']['sticky_violations']}") if r.get("routing") else "-"))
    for r in ramps:
        for f in r["failures"][:5]:
            lines.append(f"- {r['sessions']} students: {f[:400]}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", default="1,10,30", help="the ramps: students per ramp")
    ap.add_argument("--chromium", type=int, default=0, help="real Chromium sessions per ramp")
    ap.add_argument("--port", type=int, default=0, help="server port (default: a free one)")
    ap.add_argument("--app-dir", type=Path, default=ROOT)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--warm", dest="fresh", action="store_false", help="one warm server (default)")
    mode.add_argument("--fresh", dest="fresh", action="store_true", help="a cold server per ramp")
    ap.set_defaults(fresh=False)
    ap.add_argument("--server-args", default="", help='extra flags, e.g. "--runner.postScriptGC false"')
    ap.add_argument("--processes", type=int, default=0,
                    help="K app processes behind nginx (deploy/classroom.py); 0: one streamlit")
    ap.add_argument("--after", default=str(SETTLE_S),
                    help="RSS is read this many seconds after everyone left, e.g. 30,150 "
                         "(Streamlit keeps a closed tab's session for 120 s)")
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean pause between a student's actions in s (0: none, a stress test)")
    ap.add_argument("--spread", type=float, default=5.0, help="arrivals spread over this many s")
    ap.add_argument("--timeout", type=float, default=1200, help="global time-out in s")
    ap.add_argument("--action-timeout", type=float, default=90, help="one action's time-out in s")
    ap.add_argument("--players", type=int, default=0,
                    help="students per ramp who open the ET page at 100 steps and press Play (their "
                         "browser plays; they stay connected until the ramp's students are done)")
    ap.add_argument("--json", type=Path, help="write the raw numbers here")
    args = ap.parse_args(argv)
    ramps_n = [int(x) for x in args.sessions.split(",") if x.strip()]
    deadline = time.monotonic() + args.timeout
    extra = shlex.split(args.server_args)
    label = (f"{'fresh' if args.fresh else 'warm'}, app {args.app_dir}, "
             + (f"{args.processes} processes behind nginx, " if args.processes else "")
             + f"Chromium x{args.chromium}" + (f", think {args.think:g} s" if args.think else "")
             + (f", {args.server_args}" if extra else ""))
    ramps, server = [], None
    try:
        for i, n in enumerate(ramps_n):
            if server is None or args.fresh:
                if server is not None:
                    server.stop()
                if args.processes:
                    server = Launcher(args.app_dir, args.port or free_port(), extra, args.processes)
                else:
                    server = Server(args.app_dir, args.port or free_port(), extra)
                server.wait_healthy()
                if not args.fresh:
                    warm = student(server.url, -1, next(_seed), deadline, args.action_timeout)
                    print(f"warm-up student: completed={warm.completed} {warm.failures[:2]}", flush=True)
                    time.sleep(3)
            print(f"ramp: {n} students, {args.chromium} Chromium ...", flush=True)
            ramps.append(run_ramp(server, n, args.chromium, args.spread, deadline, args.action_timeout,
                                  tuple(float(x) for x in args.after.split(",")), args.think, args.players))
            print(table(ramps[-1:], f"ramp {n}"), flush=True)
            if time.monotonic() > deadline:
                print("global time-out reached: stopping", flush=True)
                break
    except KeyboardInterrupt:
        print("interrupted: stopping the server", flush=True)
    finally:
        if server is not None:
            server.stop()
    if ramps:
        print()
        print(table(ramps, label))
    if args.json:
        args.json.write_text(json.dumps({"label": label, "ramps": ramps}, indent=1))
    return 0 if ramps and all(r["failed"] == 0 for r in ramps) else 1


if __name__ == "__main__":
    sys.exit(main())

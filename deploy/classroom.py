"""One command for a classroom: K Streamlit processes behind nginx, with sticky sessions.

    python deploy/classroom.py                      # K = CPU cores, http://<this host>:8501
    python deploy/classroom.py --processes 2 --port 8501 --address 127.0.0.1
    python deploy/classroom.py --processes 2 --upstream 10.0.0.12:8601 --upstream 10.0.0.12:8602
    python deploy/classroom.py --backend-only --processes 2 --app-address 0.0.0.0 --app-port 8601
    python deploy/classroom.py --frame-ancestors https://lms.school.org   # may be embedded there

Starts K `streamlit run app.py` processes on free loopback ports (cwd = the repository, so
its .streamlit/config.toml applies), waits until each answers /_stcore/health, warms each
one with a real session (deploy/warmup.py: every page, so imports and the shared caches
are hot before the first student arrives), renders deploy/nginx.conf.template into a
private directory (deploy/nginx_conf.py) and runs nginx from there in the foreground (no
root, nothing under /etc/nginx). Then it supervises (deploy/supervisor.py): a process that
dies, an app process or nginx, is started again with the same command, on the same port,
with a back-off if it keeps dying; meanwhile nginx sends that process's students to the
others. Only Ctrl-C or SIGTERM stops everything. See deploy/README.md.
"""
from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: deploy.* and ui.pages from the repo
    sys.path.insert(0, str(ROOT))

from deploy.app_settings import (  # noqa: E402
    ANY_ADDRESS,
    allowed_hosts,
    app_command,
    streamlit_args,
    upload_cap_mb,
)
from deploy.nginx_conf import render_nginx_conf  # noqa: E402
from deploy.supervisor import Child  # noqa: E402
from deploy.warmup import pages_to_warm, poll_health, warm  # noqa: E402
from ui.serving.frame_policy import parse_origins  # noqa: E402


def log(msg: str) -> None:
    print(f"[classroom] {msg}", flush=True)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


@dataclass
class App:
    index: int
    address: str
    port: int
    log_path: Path
    child: Child | None = None
    warm_report: list[str] = field(default_factory=list)

    @property
    def proc(self) -> subprocess.Popen | None:
        return self.child.proc if self.child else None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.address in ANY_ADDRESS else self.address
        return f"http://{host}:{self.port}"

    @property
    def upstream(self) -> str:
        return f"127.0.0.1:{self.port}" if self.address in ANY_ADDRESS \
            else f"{self.address}:{self.port}"


class Classroom:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.apps: list[App] = []
        self.nginx: Child | None = None
        self.own_workdir = args.workdir is None
        self.workdir = Path(args.workdir or tempfile.mkdtemp(prefix="classroom-")).resolve()
        self.stopping = False
        self.pages = pages_to_warm(args.warm)
        self.url = ""

    # ----------------------------------------------------------------- start
    def app_env(self) -> dict[str, str]:
        env = dict(os.environ)
        # one cookie secret for every process (on every machine: set it in the environment
        # there too), so anything Streamlit signs verifies in whichever process gets it
        env.setdefault("STREAMLIT_SERVER_COOKIE_SECRET", secrets.token_hex(32))
        # a process per core: keep each one's math libraries to one thread, or K processes
        # each spawning a thread per core fight over the cores
        for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "HOPFIELD_MATH_THREADS"):  # the last one: what ui/serving/boot.py sets at warm-up
            env.setdefault(var, str(self.args.threads))
        return env

    def ready(self, app: App, timeout: float) -> float:
        """Wait until `app` answers its health check, then warm it; returns the seconds."""
        t0 = time.monotonic()
        poll_health(app.url, app.proc,
                    f"app process {app.index} (port {app.port}) exited with code {{code}}; "
                    f"see {app.log_path}",
                    f"app process {app.index} (port {app.port}) not healthy after "
                    f"{timeout:.0f} s; see {app.log_path}", timeout)
        if self.pages:
            app.warm_report = warm(app.url, self.pages)
        return time.monotonic() - t0

    def start_apps(self) -> None:
        a = self.args
        hosts = allowed_hosts(a.allowed_host or [], None if a.backend_only else a.address)
        env, extra = self.app_env(), streamlit_args(a, hosts)
        if hosts:
            log(f"allowed hosts: {' '.join(hosts)} (a student who types another name gets "
                "no session: add it with --allowed-host NAME)")
        for i in range(a.processes):
            port = a.app_port + i if a.app_port else free_port()
            app = App(i, a.app_address, port, self.workdir / "logs" / f"app-{i}-{port}.log")
            app.child = Child(f"app {i} (port {port})", app_command(app.address, port, extra),
                              app.log_path, log, cwd=ROOT, env=env,
                              on_restart=lambda _c, app=app: self.back_in_background(app))
            app.child.start()
            self.apps.append(app)
            log(f"app {i}: pid {app.proc.pid}, {app.url}, log {app.log_path}")
        errors: list[BaseException] = []

        def ready(app: App) -> None:
            try:
                seconds = self.ready(app, a.start_timeout)
                if app.warm_report:
                    log(f"app {app.index} warm in {seconds:.1f} s: " + "; ".join(app.warm_report))
            except BaseException as e:  # noqa: BLE001 - reported below
                errors.append(e)

        threads = [threading.Thread(target=ready, args=(app,), daemon=True) for app in self.apps]
        for t in threads:
            t.start()
        for t in threads:
            while t.is_alive():
                t.join(0.2)
                if self.stopping:
                    return
        if errors:
            raise RuntimeError(f"an app process did not start: {errors[0]}")

    def back_in_background(self, app: App) -> None:
        """After a restart: log when the process answers again, and warm it."""
        def back() -> None:
            try:
                seconds = self.ready(app, self.args.start_timeout)
                log(f"app {app.index} (port {app.port}) is back: healthy and warm in "
                    f"{seconds:.1f} s" + (f": {'; '.join(app.warm_report)}"
                                          if app.warm_report else ""))
            except Exception as e:  # noqa: BLE001 - it died again: the supervisor sees it
                if not self.stopping:
                    log(f"app {app.index} (port {app.port}) did not come back: {e}")
        threading.Thread(target=back, daemon=True).start()

    def start_nginx(self) -> str:
        a = self.args
        nginx = shutil.which(a.nginx) or (a.nginx if Path(a.nginx).exists() else None)
        if nginx is None:
            raise RuntimeError(f"nginx not found ({a.nginx}): apt-get install -y nginx-light "
                               "(or nginx), or pass --nginx /path/to/nginx")
        prefix = self.workdir / "nginx"
        for sub in ("logs", "tmp"):
            (prefix / sub).mkdir(parents=True, exist_ok=True)
        # nginx started as root runs its workers as `nobody`: they must reach the temp dirs
        for p in (self.workdir, prefix, prefix / "logs", prefix / "tmp"):
            p.chmod(0o755)
        upstreams = [app.upstream for app in self.apps] + list(a.upstream or [])
        listen = f"{a.address}:{a.port}" if a.address not in ("", "*") else str(a.port)
        conf = prefix / "nginx.conf"
        conf.write_text(render_nginx_conf(prefix, listen, upstreams,
                                          upload_cap_mb(streamlit_args=a.streamlit_arg or []),
                                          workers=a.nginx_workers,
                                          frame_ancestors=a.frame_ancestors,
                                          cross_site=a.cross_site_cookies))
        base = [nginx, "-p", str(prefix), "-c", str(conf),
                "-e", str(prefix / "logs" / "error.log")]
        test = subprocess.run([*base, "-t", "-q"], capture_output=True, text=True)
        if test.returncode != 0:
            raise RuntimeError(f"nginx rejected {conf}:\n{test.stderr}")
        host = "127.0.0.1" if a.address in ANY_ADDRESS else a.address
        self.url = f"http://{host}:{a.port}"
        # nginx that dies is started again too: its config was checked above and its state
        # is in the work dir, so what kills it (a stray kill, the OOM killer) passes, and
        # the students' tabs reconnect by themselves; a teacher may not watch this terminal
        self.nginx = Child("nginx", [*base, "-g", "daemon off;"],
                           prefix / "logs" / "nginx.stderr", log, on_restart=self.nginx_back)
        self.nginx.start()
        poll_health(self.url, self.nginx.proc,
                    f"nginx exited with code {{code}}; see {prefix / 'logs'}",
                    "nginx did not answer in 15 s", 15)
        log(f"nginx: pid {self.nginx.proc.pid}, config {conf}, access log "
            f"{prefix / 'logs' / 'access.log'}")
        log(f"upstreams: {' '.join(upstreams)}")
        return self.url

    def nginx_back(self, child: Child) -> None:
        def back() -> None:
            try:
                poll_health(self.url, child.proc, "nginx exited again with code {code}",
                            "nginx did not answer in 15 s", 15)
                log(f"nginx is back: {self.url}")
            except (RuntimeError, TimeoutError) as e:
                if not self.stopping:
                    log(f"nginx did not come back: {e}; see {child.log_path}")
        threading.Thread(target=back, daemon=True).start()

    # ------------------------------------------------------------------ stop
    def children(self) -> list[Child]:
        return ([self.nginx] if self.nginx else []) + [a.child for a in self.apps if a.child]

    def stop(self) -> None:
        self.stopping = True
        children = self.children()
        for c in children:  # nginx: fast shutdown, its websockets would hold a graceful one
            c.signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        for c in children:
            c.wait(deadline)
        if self.own_workdir and not self.args.keep_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def watch(self) -> int:
        """Keep every process running until a signal (exit 0)."""
        while not self.stopping:
            for child in self.children():
                if not self.stopping:
                    child.check()
            time.sleep(0.2)
        return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                    help="Streamlit processes on this machine (default: CPU cores)")
    ap.add_argument("--port", type=int, default=8501, help="nginx's port (default 8501)")
    ap.add_argument("--address", default="0.0.0.0",
                    help="nginx's address (default 0.0.0.0: every interface)")
    ap.add_argument("--upstream", action="append", metavar="HOST:PORT",
                    help="an app process on another machine (repeatable)")
    ap.add_argument("--backend-only", action="store_true",
                    help="start and warm the app processes, no nginx (a worker machine)")
    ap.add_argument("--app-address", default="127.0.0.1",
                    help="address the app processes bind (0.0.0.0 on a worker machine)")
    ap.add_argument("--app-port", type=int, default=0,
                    help="first app port (then +1, +2...); default: free ports")
    ap.add_argument("--warm", default="all",
                    help="pages to run once per process before opening: 'all' (every page of "
                         "ui/pages/__init__.py), 'none' or a comma list of url names ('' is "
                         "Home), e.g. ',classical'")
    ap.add_argument("--allowed-host", action="append", metavar="NAME",
                    help="a name students type for this server (or, on a worker, for the "
                         "front machine), added to server.allowedHosts (repeatable)")
    ap.add_argument("--frame-ancestors", action="append", default=[], metavar="ORIGIN",
                    help="a site that may show the pages in a frame, e.g. "
                         "https://lms.school.org (repeatable; the app's own pages always may)")
    ap.add_argument("--cross-site-cookies", action="store_true",
                    help="cookies a cross-site frame sends back (SameSite=None; Secure): "
                         "for a frame on another site, served over HTTPS only")
    ap.add_argument("--threads", type=int, default=1,
                    help="OMP/MKL threads per app process (default 1)")
    ap.add_argument("--nginx", default=os.environ.get("NGINX", "nginx"),
                    help="the nginx binary (default: nginx on PATH, or $NGINX)")
    ap.add_argument("--nginx-workers", type=int, default=1)
    ap.add_argument("--workdir", help="directory for logs, nginx config and temp files "
                                      "(default: a fresh temp dir, removed on exit)")
    ap.add_argument("--keep-workdir", action="store_true")
    ap.add_argument("--start-timeout", type=float, default=120)
    ap.add_argument("--streamlit-arg", action="append", metavar="ARG",
                    help="passed on to every `streamlit run` (repeat per token), "
                         "e.g. --streamlit-arg=--server.maxUploadSize --streamlit-arg=50")
    a = ap.parse_args(argv)
    if a.processes < 0 or (a.processes == 0 and not a.upstream):
        ap.error("--processes must be >= 1, or 0 with --upstream")
    if a.backend_only and a.processes < 1:
        ap.error("--backend-only needs --processes >= 1")
    try:
        a.frame_ancestors = parse_origins(a.frame_ancestors)
    except ValueError as e:
        ap.error(f"--frame-ancestors: {e}")
    return a


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    room = Classroom(args)

    def on_signal(signum, frame):  # noqa: ARG001
        if not room.stopping:
            log(f"got {signal.Signals(signum).name}: stopping")
        room.stopping = True

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    code = 0
    try:
        room.start_apps()
        if not room.stopping:
            if args.backend_only:
                ups = " ".join(f"--upstream {socket.gethostname()}:{a.port}" for a in room.apps)
                log(f"backend ready; on the front machine add: {ups}")
            else:
                url = room.start_nginx()
                log(f"ready: {url}  ({len(room.apps)} local process(es), "
                    f"{len(args.upstream or [])} remote)")
                if args.address == "0.0.0.0":
                    log(f"students: http://{socket.gethostname()}:{args.port}")
            code = room.watch()
    except Exception as e:  # noqa: BLE001 - printed, then everything is stopped
        log(f"error: {e}")
        code = 1
    finally:
        room.stop()
        log("stopped")
    return code


if __name__ == "__main__":
    sys.exit(main())

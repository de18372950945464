"""One command for a classroom: K Streamlit processes behind nginx, with sticky sessions.

    python deploy/classroom.py                      # K = CPU cores, http://<this host>:8501
    python deploy/classroom.py --processes 2 --port 8501 --address 127.0.0.1
    python deploy/classroom.py --processes 2 --upstream 10.0.0.12:8601 --upstream 10.0.0.12:8602
    python deploy/classroom.py --backend-only --processes 2 --app-address 0.0.0.0 --app-port 8601

Starts K `streamlit run app.py` processes on free loopback ports (cwd = the repository, so
its .streamlit/config.toml applies), waits until each answers /_stcore/health, warms each
one with a real session (a websocket that runs the pages, so imports and the shared caches
are hot before the first student arrives), renders deploy/nginx.conf.template into a
private directory and runs nginx from there in the foreground (no root, nothing under
/etc/nginx). Ctrl-C or SIGTERM stops nginx and every app process; if any of them dies the
launcher stops the rest and exits non-zero. See deploy/README.md.
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
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = Path(__file__).resolve().with_name("nginx.conf.template")
DEFAULT_UPLOAD_MB = 20  # the app's upload cap; raised to server.maxUploadSize when that is larger
# url names of the pages (st.Page takes them from the file names in app_pages/); "" is Home
ALL_PAGES = ["", "classical", "dense", "modern", "landscape", "side_by_side", "attention",
             "energy_transformer"]


def log(msg: str) -> None:
    print(f"[classroom] {msg}", flush=True)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def upload_cap_mb(root: Path = ROOT) -> int:
    """server.maxUploadSize from the repository's .streamlit/config.toml (MB), at least 20."""
    cfg = root / ".streamlit" / "config.toml"
    mb = DEFAULT_UPLOAD_MB
    if cfg.exists():
        import tomllib
        try:
            mb = max(mb, int(tomllib.loads(cfg.read_text()).get("server", {})
                             .get("maxUploadSize", mb)))
        except (ValueError, TypeError, tomllib.TOMLDecodeError):
            pass
    return mb


def resolve(upstream: str) -> str:
    """host:port -> ip:port (the form nginx reports in $upstream_addr, so the cookie)."""
    host, _, port = upstream.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"not host:port: {upstream!r}")
    ip = socket.getaddrinfo(host.strip("[]"), int(port), socket.AF_INET,
                            socket.SOCK_STREAM)[0][4][0]
    return f"{ip}:{port}"


def render_nginx_conf(prefix: Path, listen: str, upstreams: list[str], max_body_mb: int,
                      workers: int = 1, template: Path = TEMPLATE) -> str:
    """The nginx config for one run: everything nginx writes lives under `prefix`."""
    if not upstreams:
        raise ValueError("no upstreams")
    addrs = list(dict.fromkeys(resolve(u) for u in upstreams))
    server = "server {} max_fails=1 fail_timeout=5s"
    route_map = "\n".join(f'        "{a}" app_{i};' for i, a in enumerate(addrs))
    pool = "\n".join(f"        {server.format(a)};" for a in addrs)
    blocks = []
    for i, a in enumerate(addrs):
        backups = "".join(f"\n        server {b} backup;" for b in addrs if b != a)
        blocks.append(f"    upstream app_{i} {{\n        {server.format(a)};{backups}\n"
                      f"        keepalive 8;\n    }}")
    text = template.read_text()
    for key, value in {"PREFIX": str(prefix), "LISTEN": listen, "ROUTE_MAP": route_map,
                       "POOL_SERVERS": pool, "APP_UPSTREAMS": "\n".join(blocks),
                       "MAX_BODY": f"{max_body_mb + 1}m", "WORKERS": str(workers)}.items():
        text = text.replace("{{" + key + "}}", value)
    assert "{{" not in text, "unrendered placeholder in the nginx template"
    return text


def http_get(url: str, timeout: float = 5) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


@dataclass
class App:
    index: int
    address: str
    port: int
    log_path: Path
    proc: subprocess.Popen | None = None
    warm_report: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.address in ("0.0.0.0", "") else self.address
        return f"http://{host}:{self.port}"

    @property
    def upstream(self) -> str:
        return f"127.0.0.1:{self.port}" if self.address in ("0.0.0.0", "") \
            else f"{self.address}:{self.port}"


def _die_with_parent() -> None:
    """In the child, before exec: get SIGTERM if the launcher itself is killed (Linux)."""
    try:
        import ctypes
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except Exception:
        pass


def start_app(app: App, env: dict[str, str], extra: list[str]) -> None:
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py",
           "--server.headless", "true",
           "--server.address", app.address, "--server.port", str(app.port),
           "--server.fileWatcherType", "none", "--server.runOnSave", "false",
           "--browser.gatherUsageStats", "false", *extra]
    app.log_path.parent.mkdir(parents=True, exist_ok=True)
    out = open(app.log_path, "ab")
    # its own process group: Ctrl-C reaches only the launcher, which stops children in order
    app.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, process_group=0,
                                preexec_fn=_die_with_parent)
    out.close()


def poll_health(url: str, proc, exited: str, slow: str, timeout: float) -> None:
    """Poll url/_stcore/health until it answers 200; RuntimeError(exited + code) if `proc`
    ends first, TimeoutError(slow) after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(exited.format(code=proc.returncode))
        try:
            if http_get(f"{url}/_stcore/health", timeout=2)[0] == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(slow)
        time.sleep(0.2)


def wait_healthy(app: App, timeout: float) -> None:
    poll_health(app.url, app.proc,
                f"app process {app.index} (port {app.port}) exited with code {{code}}; "
                f"see {app.log_path}",
                f"app process {app.index} (port {app.port}) not healthy after {timeout:.0f} s; "
                f"see {app.log_path}", timeout)


def warm(app_url: str, pages: list[str], timeout: float = 180) -> list[str]:
    """Open one real session on one app process and run `pages` in it, one after another.

    Speaks Streamlit's own protocol (a websocket of BackMsg / ForwardMsg protobufs, what the
    browser does), so `streamlit_app.py` and each page run exactly as for a student: the
    modules are imported (app.py's start-up has done most) and st.cache_data /
    st.cache_resource, which every session of a process shares, hold the default demos.
    Returns one line per page: its run time, and any exception the page showed.
    Falls back to /_stcore/script-health-check (Home only) without the websockets package.
    """
    http_get(f"{app_url}/", timeout=30)  # the index page, as a browser would
    try:
        from websockets.sync.client import connect
    except ImportError:  # older Streamlit (tornado) does not bring websockets
        status, body = http_get(f"{app_url}/_stcore/script-health-check", timeout=timeout)
        return [f"script-health-check: {status} {body.decode(errors='replace')}"]
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    report = []
    ws_url = app_url.replace("http://", "ws://", 1) + "/_stcore/stream"
    with connect(ws_url, subprotocols=["streamlit"], max_size=None, open_timeout=30,
                 close_timeout=5) as ws:
        for page in pages:
            msg = BackMsg()
            msg.rerun_script.query_string = ""
            msg.rerun_script.page_name = page
            t0 = time.monotonic()
            ws.send(msg.SerializeToString())
            errors = []
            while True:
                left = timeout - (time.monotonic() - t0)
                if left <= 0:
                    raise TimeoutError(f"warming page {page or 'home'!r} took over {timeout} s")
                fwd = ForwardMsg()
                fwd.ParseFromString(ws.recv(timeout=left))
                kind = fwd.WhichOneof("type")
                if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element" \
                        and fwd.delta.new_element.WhichOneof("type") == "exception":
                    exc = fwd.delta.new_element.exception
                    errors.append(f"{exc.type}: {exc.message}"[:200])
                elif kind == "page_not_found":
                    errors.append("page not found")
                elif kind == "script_finished":
                    break
            line = f"{page or 'home'} {time.monotonic() - t0:.1f} s"
            report.append(line + (f" EXCEPTION {errors}" if errors else ""))
    return report


class Classroom:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.apps: list[App] = []
        self.nginx: subprocess.Popen | None = None
        self.own_workdir = args.workdir is None
        self.workdir = Path(args.workdir or tempfile.mkdtemp(prefix="classroom-")).resolve()
        self.stopping = False

    # ----------------------------------------------------------------- start
    def start_apps(self) -> None:
        a = self.args
        env = dict(os.environ)
        # one cookie secret for every process (on every machine: set it in the environment
        # there too), so anything Streamlit signs verifies in whichever process gets it
        env.setdefault("STREAMLIT_SERVER_COOKIE_SECRET", secrets.token_hex(32))
        # a process per core: keep each one's math libraries to one thread, or K processes
        # each spawning a thread per core fight over the cores
        for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "HOPFIELD_MATH_THREADS"):  # the last one: what ui/boot.py sets at warm-up
            env.setdefault(var, str(a.threads))
        for i in range(a.processes):
            port = a.app_port + i if a.app_port else free_port()
            app = App(i, a.app_address, port, self.workdir / "logs" / f"app-{i}-{port}.log")
            start_app(app, env, a.streamlit_arg or [])
            self.apps.append(app)
            log(f"app {i}: pid {app.proc.pid}, {app.url}, log {app.log_path}")
        errors: list[BaseException] = []

        def ready(app: App) -> None:
            try:
                wait_healthy(app, a.start_timeout)
                t0 = time.monotonic()
                pages = [p for p in a.warm.split(",")] if a.warm != "none" else []
                if pages == ["all"]:
                    pages = ALL_PAGES
                if pages:
                    app.warm_report = warm(app.url, [p.strip() for p in pages])
                    log(f"app {app.index} warm in {time.monotonic() - t0:.1f} s: "
                        + "; ".join(app.warm_report))
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
        conf.write_text(render_nginx_conf(prefix, listen, upstreams, upload_cap_mb(),
                                          workers=a.nginx_workers))
        test = subprocess.run([nginx, "-t", "-q", "-p", str(prefix), "-c", str(conf),
                               "-e", str(prefix / "logs" / "error.log")],
                              capture_output=True, text=True)
        if test.returncode != 0:
            raise RuntimeError(f"nginx rejected {conf}:\n{test.stderr}")
        err = open(prefix / "logs" / "nginx.stderr", "ab")
        self.nginx = subprocess.Popen(
            [nginx, "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "logs" / "error.log"),
             "-g", "daemon off;"], stdout=err, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, process_group=0, preexec_fn=_die_with_parent)
        err.close()
        host = "127.0.0.1" if a.address in ("0.0.0.0", "", "*") else a.address
        url = f"http://{host}:{a.port}"
        poll_health(url, self.nginx, f"nginx exited with code {{code}}; see {prefix / 'logs'}",
                    "nginx did not answer in 15 s", 15)
        log(f"nginx: pid {self.nginx.pid}, config {conf}, access log "
            f"{prefix / 'logs' / 'access.log'}")
        log(f"upstreams: {' '.join(upstreams)}")
        return url

    # ------------------------------------------------------------------ stop
    def stop(self) -> None:
        self.stopping = True
        procs = ([self.nginx] if self.nginx else []) + [a.proc for a in self.apps if a.proc]
        for p in procs:
            if p.poll() is None:
                try:
                    p.send_signal(signal.SIGQUIT if p is self.nginx else signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 10
        for p in procs:
            try:
                p.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if self.own_workdir and not self.args.keep_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    def watch(self) -> int:
        """Block until a signal (exit 0) or until a child dies (exit 1)."""
        while not self.stopping:
            for name, p in [("nginx", self.nginx)] + [(f"app {a.index} (port {a.port})", a.proc)
                                                      for a in self.apps]:
                if p is not None and p.poll() is not None and not self.stopping:
                    log(f"{name} exited with code {p.returncode}: stopping everything")
                    return 1
            time.sleep(0.5)
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
                    help="pages to run once per process before opening: 'all', 'none' or a "
                         "comma list of url names ('' is Home), e.g. ',classical'")
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

"""What the launcher tells each `streamlit run`: the project's config values it reads
(.streamlit/config.toml), the Host names the app accepts, the command line.

Standard library only.
"""
from __future__ import annotations

import argparse
import math
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STREAMLIT_UPLOAD_MB = 200  # Streamlit's own server.maxUploadSize where the project sets none
ANY_ADDRESS = ("0.0.0.0", "", "*", "::")
LOOPBACK = ("localhost", "::1")


def server_config(root: Path = ROOT) -> dict:
    """The [server] table of the repository's .streamlit/config.toml ({} if none)."""
    import tomllib
    try:
        return tomllib.loads((root / ".streamlit" / "config.toml").read_text()).get("server", {})
    except (OSError, tomllib.TOMLDecodeError):
        return {}


def upload_cap_mb(root: Path = ROOT, streamlit_args: list[str] = ()) -> int:
    """The app's upload cap (MB), stated once: server.maxUploadSize of the repository's
    .streamlit/config.toml (Streamlit's default where it sets none), unless the launcher's
    --streamlit-arg passes the app another (the last one wins, as in Streamlit). nginx's body
    limit is written above it."""
    value = server_config(root).get("maxUploadSize", STREAMLIT_UPLOAD_MB)
    args = list(streamlit_args)
    for i, arg in enumerate(args):
        if arg == "--server.maxUploadSize" and i + 1 < len(args):
            value = args[i + 1]
        elif arg.startswith("--server.maxUploadSize="):
            value = arg.split("=", 1)[1]
    try:
        return math.ceil(float(value))
    except (ValueError, TypeError):
        return STREAMLIT_UPLOAD_MB


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (no packet is sent)."""
    found = []
    try:
        found += [ai[4][0] for ai in socket.getaddrinfo(socket.gethostname(), None,
                                                        socket.AF_INET)]
    except OSError:
        pass
    try:  # the interface a packet out would leave by (a UDP "connect" only picks a route)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: documentation only, never answered
            found.append(s.getsockname()[0])
    except OSError:
        pass
    return [a for a in dict.fromkeys(found) if not a.startswith("127.")]


def allowed_hosts(extra: list[str], address: str | None = None, root: Path = ROOT) -> list[str]:
    """server.allowedHosts for the app processes: the Host names whose websocket Streamlit
    accepts (nginx passes the browser's Host through). The project's list, the names given
    with --allowed-host and, when nginx listens beyond loopback (`address`, None on a worker
    machine), the names students type for this machine: its host name, full name and LAN
    addresses. [] when the project sets no list: any Host, and nothing is passed."""
    configured = list(server_config(root).get("allowedHosts", []))
    if not configured:
        return []
    names = [*configured, *extra]
    if address is not None and address not in ANY_ADDRESS:
        names.append(address)
    if address is not None and address not in LOOPBACK and not address.startswith("127."):
        names += [socket.gethostname(), socket.getfqdn(), *lan_addresses()]
    return list(dict.fromkeys(n for n in names if n))


def app_command(address: str, port: int, extra: list[str]) -> list[str]:
    """`streamlit run app.py` on address:port (run in the repository)."""
    return [sys.executable, "-m", "streamlit", "run", "app.py",
            "--server.headless", "true",
            "--server.address", address, "--server.port", str(port),
            "--server.fileWatcherType", "none", "--server.runOnSave", "false",
            "--browser.gatherUsageStats", "false", *extra]


def streamlit_args(a: argparse.Namespace, hosts: list[str]) -> list[str]:
    """What every `streamlit run` gets beyond the basics: the allowed hosts, the XSRF
    cookie a cross-site frame needs, then --streamlit-arg."""
    extra = [arg for h in hosts for arg in ("--server.allowedHosts", h)]
    if a.cross_site_cookies:
        extra += ["--server.xsrfCookieSameSite", "none"]
    return extra + list(a.streamlit_arg or [])

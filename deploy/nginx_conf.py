"""The nginx config of one classroom run, from deploy/nginx.conf.template.

The template's double-brace placeholders are filled in here: the run's own directory for
pid, logs and temp files; the listen address; the app processes (the pool, and one
upstream per process whose backups are the others); the body cap; the worker count; the
frame policy; the route cookie's SameSite attributes.
"""
from __future__ import annotations

import socket
from pathlib import Path

from ui.serving.frame_policy import policy

TEMPLATE = Path(__file__).resolve().with_name("nginx.conf.template")
# a server that refused a connection is left out for fail_timeout, its requests passed on
SERVER = "server {} max_fails=1 fail_timeout=5s"
# what a browser in a cross-site frame needs to send the route cookie back (HTTPS only)
CROSS_SITE_COOKIE = "SameSite=None; Secure"


def resolve(upstream: str) -> str:
    """host:port -> ip:port (the form nginx reports in $upstream_addr, so the cookie)."""
    host, _, port = upstream.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"not host:port: {upstream!r}")
    ip = socket.getaddrinfo(host.strip("[]"), int(port), socket.AF_INET,
                            socket.SOCK_STREAM)[0][4][0]
    return f"{ip}:{port}"


def render_nginx_conf(prefix: Path, listen: str, upstreams: list[str], max_body_mb: int,
                      workers: int = 1, frame_ancestors: list[str] = (),
                      cross_site: bool = False, template: Path = TEMPLATE) -> str:
    """The nginx config for one run: everything nginx writes lives under `prefix`."""
    if not upstreams:
        raise ValueError("no upstreams")
    addrs = list(dict.fromkeys(resolve(u) for u in upstreams))
    route_map = "\n".join(f'        "{a}" app_{i};' for i, a in enumerate(addrs))
    pool = "\n".join(f"        {SERVER.format(a)};" for a in addrs)
    blocks = []
    for i, a in enumerate(addrs):
        backups = "".join(f"\n        server {b} backup;" for b in addrs if b != a)
        blocks.append(f"    upstream app_{i} {{\n        {SERVER.format(a)};{backups}\n"
                      f"        keepalive 8;\n    }}")
    text = template.read_text()
    for key, value in {"PREFIX": str(prefix), "LISTEN": listen, "ROUTE_MAP": route_map,
                       "POOL_SERVERS": pool, "APP_UPSTREAMS": "\n".join(blocks),
                       "MAX_BODY": f"{max_body_mb + 1}m", "WORKERS": str(workers),
                       "FRAME_POLICY": policy(frame_ancestors),
                       "COOKIE_SAMESITE": CROSS_SITE_COOKIE if cross_site else "SameSite=Lax",
                       }.items():
        text = text.replace("{{" + key + "}}", value)
    assert "{{" not in text, "unrendered placeholder in the nginx template"
    return text

"""Which sites may show the app's pages inside a frame (DESIGN.md 5.2).

Teachers embed the app in their school's learning platform or in slides, so the policy is an
allowlist: `Content-Security-Policy: frame-ancestors 'self' <origins>`. No X-Frame-Options:
it can only say DENY or SAMEORIGIN, never name another site. The nginx deploy renders the
header into its config (deploy/classroom.py --frame-ancestors); the plain `streamlit run
app.py` server sends it from app.py with `FrameAncestors`, the origins read from
$HOPFIELD_FRAME_ANCESTORS. Without origins only the app's own pages may frame it.

Standard library only (no streamlit): the launcher imports it without starting an app.
"""
from __future__ import annotations

import os
import re
from collections.abc import Iterable

ENV = "HOPFIELD_FRAME_ANCESTORS"
HEADER = "Content-Security-Policy"
# a CSP host-source with its scheme: https://lms.school.org, https://*.school.org,
# http://10.0.0.5:8080. Nothing else gets through: the value is written into nginx's config
LABEL = r"[a-z0-9]([a-z0-9-]*[a-z0-9])?"  # one dot-separated part of a host name
ORIGIN = re.compile(rf"https?://(\*\.)?{LABEL}(\.{LABEL})*(:(\d{{1,5}}|\*))?", re.IGNORECASE)


def parse_origins(items: str | Iterable[str]) -> list[str]:
    """Origins from text ("https://a.org https://b.org", commas too) or a list of such texts.

    ValueError names the first one that is not scheme://host[:port]."""
    texts = [items] if isinstance(items, str) else list(items)
    found = [o.rstrip("/") for t in texts for o in re.split(r"[\s,]+", t) if o]
    for o in found:
        if not ORIGIN.fullmatch(o):
            raise ValueError(f"{o!r} is not an origin: write it as scheme://host[:port], "
                             "e.g. https://lms.school.org or https://*.school.org")
    return list(dict.fromkeys(found))


def policy(origins: Iterable[str] = ()) -> str:
    """The header's value: the app's own pages, then the configured origins."""
    return " ".join(["frame-ancestors", "'self'", *parse_origins(list(origins))])


def origins_from_env(environ=os.environ) -> list[str]:
    return parse_origins(environ.get(ENV, ""))


class FrameAncestors:
    """ASGI middleware: every HTTP answer carries the frame policy (a websocket has none)."""

    def __init__(self, app, origins: Iterable[str] = ()):
        self.app = app
        self.header = (HEADER.lower().encode(), policy(origins).encode())

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_policy(message):
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() != self.header[0]]
                message = {**message, "headers": [*headers, self.header]}
            await send(message)

        await self.app(scope, receive, send_with_policy)

"""Health checks and the warm-up of an app process before students arrive.

`warm` opens one real session and runs pages in it, speaking Streamlit's own protocol (a
websocket of BackMsg / ForwardMsg protobufs, what the browser does), so `streamlit_app.py`
and each page run exactly as for a student. `--warm all` means every page of the
navigation, read from ui/pages/__init__.py.
"""
from __future__ import annotations

import time
import urllib.error
import urllib.request

from ui.pages import url_paths


def pages_to_warm(spec: str) -> list[str]:
    """'all': every page of the registry; 'none': nothing; else a comma list of url names
    ('' is Home), e.g. ',classical'."""
    if spec == "none":
        return []
    if spec == "all":
        return url_paths()
    return [p.strip() for p in spec.split(",")]


def http_get(url: str, timeout: float = 5, headers: dict | None = None) -> tuple[int, bytes]:
    req = urllib.request.Request(url, headers=headers or {})
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


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


def warm(app_url: str, pages: list[str], timeout: float = 180) -> list[str]:
    """Open one real session on one app process and run `pages` in it, one after another.

    The modules are imported (app.py's start-up has done most) and st.cache_data /
    st.cache_resource, which every session of a process shares, hold the default demos.
    Returns one line per page: its run time, and any exception the page showed, "page not
    found", or the page that ran instead (the navigation message names the page it runs).
    Falls back to /_stcore/script-health-check (Home only) without the websockets package
    (Streamlit before its Starlette server did not bring it).
    """
    http_get(f"{app_url}/", timeout=30)  # the index page, as a browser would
    try:
        from websockets.sync.client import connect
    except ImportError:
        status, body = http_get(f"{app_url}/_stcore/script-health-check", timeout=timeout)
        return [f"script-health-check: {status} {body.decode(errors='replace')}"]
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    report = []
    ws_url = app_url.replace("http://", "ws://", 1) + "/_stcore/stream"
    with connect(ws_url, subprotocols=["streamlit"], max_size=None, open_timeout=30,
                 close_timeout=5, proxy=None) as ws:
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
                elif kind == "navigation":  # the page this run executes, by its script hash
                    ran = next((p.url_pathname for p in fwd.navigation.app_pages
                                if p.page_script_hash == fwd.navigation.page_script_hash), None)
                    if ran != page:
                        errors.append(f"ran page {ran!r} instead")
                elif kind == "script_finished":
                    break
            line = f"{page or 'home'} {time.monotonic() - t0:.1f} s"
            report.append(line + (f" EXCEPTION {errors}" if errors else ""))
    return report

"""deploy/classroom.py on loopback: 2 app processes behind nginx, two students in Chromium.

Each student (a browser context of its own) opens the classical page, uploads a PNG and
steps the dynamics. nginx's access log then shows that every request of one student (page,
static files, the websocket, the upload PUT) went to one app process, and that the two
students were served by different processes. A second launcher is stopped with SIGTERM:
exit 0, nothing left running. (A process that dies: tests/deploy/test_supervision.py.)
Logs are copied to artifacts/deploy/.
"""
from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from deploy.nginx_conf import render_nginx_conf
from tests.support import chromium
from tests.support.badfiles import encode, photo
from tests.support.launcher import (
    ARTIFACTS,
    NGINX,
    Launcher,
    needs_nginx,
    pid_alive,
    port_open,
)

LOG_LINE = re.compile(r'"(?P<method>\S+) (?P<path>\S+) [^"]*" (?P<status>\d+) \d+ '
                      r'route=(?P<route>\S+) upstream=(?P<upstream>\S*)')


def test_nginx_config_renders():
    conf = render_nginx_conf(Path("/tmp/x"), "127.0.0.1:8501", ["127.0.0.1:1", "10.0.0.2:8601"],
                             20)
    assert '"127.0.0.1:1" app_0;' in conf and '"10.0.0.2:8601" app_1;' in conf
    assert "proxy_pass http://$backend;" in conf
    assert "server 10.0.0.2:8601 backup;" in conf and "server 127.0.0.1:1 backup;" in conf
    assert "client_max_body_size 21m;" in conf
    assert "proxy_set_header Upgrade $http_upgrade;" in conf
    assert "proxy_set_header Host $http_host;" in conf
    assert "ip_hash" not in conf.split("#")[0] and "{{" not in conf
    # a refused connection (a dead process) marks the server down and passes the request on
    assert "server 127.0.0.1:1 max_fails=1 fail_timeout=5s;" in conf
    assert "proxy_next_upstream error timeout;" in conf
    # the route cookie is set again whenever another process than the one it names answered
    assert 'map "$cookie_hopfield_route|$upstream_last" $route_set_cookie' in conf
    assert "HttpOnly; SameSite=Lax" in conf and "Secure" not in conf
    # the frame policy: nginx's own header, the app's hidden; 'self' only by default
    assert "proxy_hide_header Content-Security-Policy;" in conf
    assert 'add_header Content-Security-Policy "frame-ancestors \'self\'" always;' in conf
    assert "X-Frame-Options" not in conf
    # no client address is written down in the access log (docs/privacy.md); the headers
    # that pass it to the app are not stored by it
    for address in ("$remote_addr", "$http_x_forwarded_for", "$proxy_add_x_forwarded_for", "$realip"):
        assert address not in conf.split("log_format")[1].split(";")[0], address


def test_nginx_config_frame_policy_and_cross_site_cookie():
    conf = render_nginx_conf(Path("/tmp/x"), "8501", ["127.0.0.1:1"], 20,
                             frame_ancestors=["https://lms.school.org", "https://*.school.org"],
                             cross_site=True)
    assert ('add_header Content-Security-Policy "frame-ancestors \'self\' https://lms.school.org '
            'https://*.school.org" always;') in conf
    assert "HttpOnly; SameSite=None; Secure" in conf and "SameSite=Lax" not in conf
    with pytest.raises(ValueError, match="not an origin"):  # nothing else reaches the config
        render_nginx_conf(Path("/tmp/x"), "8501", ["127.0.0.1:1"], 20,
                          frame_ancestors=['https://a.org" always; include /etc/passwd; #'])


@needs_nginx
def test_nginx_accepts_the_rendered_config(tmp_path):
    """nginx -t on a config with every option, the cookie map's back-reference included."""
    for sub in ("logs", "tmp"):
        (tmp_path / sub).mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(render_nginx_conf(tmp_path, "127.0.0.1:1", ["127.0.0.1:2", "127.0.0.1:3"],
                                      20, frame_ancestors=["https://lms.school.org"],
                                      cross_site=True))
    test = subprocess.run([NGINX, "-t", "-q", "-p", str(tmp_path), "-c", str(conf),
                           "-e", str(tmp_path / "logs" / "error.log")],
                          capture_output=True, text=True)
    assert test.returncode == 0, test.stderr


@pytest.fixture
def browser():
    why = chromium.missing()
    if why:
        pytest.skip(why)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = chromium.launch(p)
        yield b
        b.close()


@pytest.fixture
def classroom(browser):
    if NGINX is None:
        pytest.skip("nginx is not installed: apt-get install -y nginx-light (or nginx)")
    room = Launcher("--processes", "2", "--warm", ",classical")
    try:
        room.wait_for(r"ready: http://", timeout=90)
        yield room
    finally:
        room.close()


def _wait_idle(pg) -> None:
    from tests.support.browser import wait_idle
    wait_idle(pg)


def _parse_log(path: Path) -> list[dict]:
    return [m.groupdict() for line in path.read_text().splitlines() if (m := LOG_LINE.search(line))]


@needs_nginx
def test_two_students_sticky_and_spread(classroom, browser, tmp_path):
    img = tmp_path / "holiday.png"
    img.write_bytes(encode(photo(), "PNG"))
    app_ports = {port for _, port in classroom.app_pids_and_ports()}
    assert len(app_ports) == 2

    # open students until two of them sit on different processes (new browsers are dealt
    # out in turn, so the second one should already be on the other process)
    students = {}  # upstream -> (context, page, route)
    extra = []
    for _ in range(8):
        ctx = browser.new_context(viewport={"width": 1500, "height": 2000})
        pg = ctx.new_page()
        pg.set_default_timeout(30_000)
        resp = pg.goto(classroom.url + "/classical")
        upstream = resp.headers.get("x-upstream")
        assert upstream and int(upstream.rsplit(":", 1)[1]) in app_ports, resp.headers
        route = next(c["value"] for c in ctx.cookies() if c["name"] == "hopfield_route")
        if upstream in students:
            extra.append(ctx)
        else:
            students[upstream] = (ctx, pg, route)
        if len(students) == 2:
            break
    for ctx in extra:
        ctx.close()
    assert len(students) == 2, "8 browser sessions in a row all landed on one process"

    for upstream, (ctx, pg, route) in students.items():
        _wait_idle(pg)
        assert "classical Hopfield network" in pg.locator("h1").first.inner_text()
        assert pg.locator('[data-testid="stException"]').count() == 0
        pg.locator('[data-testid="stSidebar"] [data-testid="stFileUploaderDropzoneInput"]') \
            .first.set_input_files(str(img))
        pg.wait_for_function("() => document.body.innerText.includes('Pattern store (4/40)')")
        pg.get_by_role("button", name=re.compile(r"^Step(?: (?:Shortcut )?\S)?$")).first.click()
        pg.wait_for_function("() => /step 1 of \\d+/.test(document.body.innerText)")
        _wait_idle(pg)
        assert pg.locator('[data-testid="stException"]').count() == 0, \
            pg.locator('[data-testid="stException"]').first.inner_text()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(ARTIFACTS / f"student-on-{upstream.rsplit(':', 1)[1]}.png"))
    for ctx, _, _ in students.values():
        ctx.close()  # the websocket's log line is written when it closes

    routes = {route: upstream for upstream, (_, _, route) in students.items()}
    deadline = time.monotonic() + 10
    while True:
        entries = _parse_log(classroom.access_log())
        streams = {e["route"] for e in entries if e["path"].startswith("/_stcore/stream")}
        if set(routes) <= streams or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    by_route: dict[str, set[str]] = {}
    for e in entries:
        if e["route"] != "-":  # "-": a first request, before the browser had the cookie
            by_route.setdefault(e["route"], set()).add(e["upstream"])
    # sticky: every request that carried the cookie went to the process the cookie names
    assert all(ups == {route} for route, ups in by_route.items()), by_route
    for route, upstream in routes.items():
        assert route == upstream, (route, upstream)
        mine = [e for e in entries if e["route"] == route]
        kinds = {(e["method"], e["path"].split("?")[0]) for e in mine}
        assert ("GET", "/_stcore/stream") in kinds, sorted(kinds)
        assert any(m == "PUT" and p.startswith("/_stcore/upload_file/") for m, p in kinds), \
            sorted(kinds)
        # (the frontend first looks for the server under the page's path: /classical/_stcore/
        # health and host-config answer 404, as they do without nginx)
        failed = [(e["method"], e["path"], e["status"]) for e in mine if int(e["status"]) >= 400
                  and not (e["status"] == "404" and e["path"].startswith("/classical/_stcore/"))]
        assert not failed, failed
    # spread: the two students were served by the two different processes
    assert len(set(routes.values())) == 2



@needs_nginx
def test_sigterm_stops_nginx_and_every_app_process():
    room = Launcher("--processes", "1", "--warm", "none")
    try:
        room.wait_for(r"ready: http://", timeout=60)
        pids_ports = room.app_pids_and_ports()
        nginx_pid = room.nginx_pid()
        assert port_open(room.port)
        room.proc.send_signal(signal.SIGTERM)
        assert room.proc.wait(timeout=30) == 0, room.output()
        assert not pid_alive(nginx_pid) and not port_open(room.port)
        for pid, port in pids_ports:
            assert not pid_alive(pid) and not port_open(port)
    finally:
        room.close()

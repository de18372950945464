"""The classroom settings in .streamlit/config.toml, as Streamlit itself reads them, and
what a real `streamlit run app.py` does with the Host names and the frame policy."""
import os
import tomllib
import urllib.request
from pathlib import Path

import pytest

from hopfield_core import image_files
from tests.support.launcher import websocket_status
from tests.support.server import Server
from ui.serving.frame_policy import ENV as FRAME_ANCESTORS_ENV

ROOT = Path(__file__).resolve().parents[1]


def config() -> dict:
    with open(ROOT / ".streamlit" / "config.toml", "rb") as f:
        return tomllib.load(f)


def test_students_see_no_tracebacks_and_no_developer_menu():
    c = config()
    assert c["client"]["showErrorDetails"] == "none"
    assert c["client"]["toolbarMode"] == "viewer"


def test_the_upload_cap_is_stated_once_and_read_everywhere(monkeypatch, tmp_path):
    """.streamlit/config.toml's server.maxUploadSize is the cap: the upload store passes it to
    the decoder, the deploy writes nginx's body limit from it, the README states it."""
    from deploy.app_settings import upload_cap_mb
    from ui.store import uploads

    mb = config()["server"]["maxUploadSize"]
    assert 1 <= mb <= 20
    monkeypatch.chdir(ROOT)  # Streamlit reads the project's config from the working folder
    from streamlit import config as st_config

    st_config.get_config_options(force_reparse=True)
    assert uploads.upload_cap_bytes() == mb * 2 ** 20
    monkeypatch.setenv(uploads.ROOT_ENV, str(tmp_path))
    store = uploads.default_store()
    assert store.max_file_bytes == mb * 2 ** 20
    with pytest.raises(image_files.ImageError, match=f"larger than {mb} MB"):
        store.put("big.png", b"\x89PNG" + b"\0" * (mb * 2 ** 20))
    assert upload_cap_mb() == mb
    assert upload_cap_mb(streamlit_args=["--server.maxUploadSize", "50"]) == 50
    assert upload_cap_mb(streamlit_args=["--server.maxUploadSize=3"]) == 3
    assert f"uploads\nof up to {mb} MB" in (ROOT / "README.md").read_text() \
        or f"uploads of up to {mb} MB" in (ROOT / "README.md").read_text()


def test_no_file_watcher_no_forced_gc_and_xsrf_on():
    c = config()
    assert c["server"]["fileWatcherType"] == "none"
    assert c["runner"]["postScriptGC"] is False
    assert c["server"]["enableXsrfProtection"] is True


def test_streamlit_reads_these_values(monkeypatch):
    """Streamlit's own loader, from the project folder, gives the same values."""
    from streamlit import config as st_config

    monkeypatch.chdir(ROOT)
    st_config.get_config_options(force_reparse=True)
    try:
        assert st_config.get_option("client.showErrorDetails") == "none"
        assert st_config.get_option("server.maxUploadSize") == config()["server"]["maxUploadSize"]
        assert st_config.get_option("runner.postScriptGC") is False
        assert st_config.get_option("server.fileWatcherType") == "none"
        assert st_config.get_option("server.allowedHosts") == config()["server"]["allowedHosts"]
    finally:
        st_config.get_config_options(force_reparse=True)


def test_only_this_machines_names_are_allowed_hosts():
    hosts = config()["server"]["allowedHosts"]
    assert {"localhost", "127.0.0.1"} <= set(hosts)
    assert "*" not in hosts and "" not in hosts  # "*" (or an empty list) accepts any Host


def test_a_real_server_refuses_a_foreign_host_and_sends_the_frame_policy():
    """Streamlit 1.67 checks server.allowedHosts when a websocket (a session) opens: a page
    whose own name was pointed at this machine (DNS rebinding) gets no session. The page's
    HTML and static files are served whatever the Host (docs/classroom.md says so)."""
    env = dict(os.environ, **{FRAME_ANCESTORS_ENV: "https://lms.example.org"})
    server = Server(env=env)
    server.skip_unless_healthy(90)
    try:
        assert websocket_status(server.port, f"evil.example:{server.port}") == 403
        assert websocket_status(server.port, "evil.example") == 403
        assert websocket_status(server.port, f"127.0.0.1:{server.port}") == 101
        assert websocket_status(server.port, f"localhost:{server.port}") == 101
        assert websocket_status(server.port, f"teacher-laptop.local:{server.port}") == 101
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        for path in ("/", "/classical", "/_stcore/health"):
            with opener.open(server.url + path, timeout=30) as r:
                assert r.headers.get_all("Content-Security-Policy") == \
                    ["frame-ancestors 'self' https://lms.example.org"], (path, dict(r.headers))
                assert r.headers.get("X-Frame-Options") is None
        foreign = urllib.request.Request(server.url + "/", headers={"Host": "evil.example"})
        with opener.open(foreign, timeout=30) as r:
            assert r.status == 200
    finally:
        server.stop()

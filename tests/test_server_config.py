"""The classroom settings in .streamlit/config.toml, as Streamlit itself reads them."""
import tomllib
from pathlib import Path

from hopfield_core import images

ROOT = Path(__file__).resolve().parents[1]


def config() -> dict:
    with open(ROOT / ".streamlit" / "config.toml", "rb") as f:
        return tomllib.load(f)


def test_students_see_no_tracebacks_and_no_developer_menu():
    c = config()
    assert c["client"]["showErrorDetails"] == "none"
    assert c["client"]["toolbarMode"] == "viewer"


def test_uploads_are_small_and_never_larger_than_the_decoder_accepts():
    mb = config()["server"]["maxUploadSize"]
    assert 1 <= mb <= 20
    assert mb * 2 ** 20 <= images.MAX_FILE_BYTES


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
    finally:
        st_config.get_config_options(force_reparse=True)

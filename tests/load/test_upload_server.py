"""Uploads against real servers (`streamlit run app.py`, driven by the protocol client):

a) two app processes share one upload folder (as behind nginx): a link that names an upload
   neither has yet says so on both; once the file is uploaded through one of them, the link
   works at once on both (a miss is never cached, in any process);
b) a file that gets past the browser's filter (an .svg, sent as the client pleases) is
   explained on each uploader, the page keeps running, the store keeps what it had, and the
   server logs no traceback.
"""
from __future__ import annotations

import pytest

from tests.support.server import Server, tracebacks
from tests.support.st_client import OK, StClient, opened, store_heading
from tests.support.student import png
from ui.store import uploads

SVG = (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
       b'<rect width="10" height="10"/></svg>')
SVG_SAID = "`drawing.svg`: This file is an SVG drawing"


@pytest.fixture(scope="module")
def servers():
    pair = [Server(), Server()]  # both inherit the test session's HOPFIELD_UPLOAD_DIR
    try:
        for s in pair:
            s.skip_unless_healthy(timeout=90)
        yield pair
    finally:
        for s in pair:
            s.stop()
    for s in pair:
        assert not tracebacks(s.log()), tracebacks(s.log())[0]


def _missing(c: StClient) -> list[str]:
    return [t for t in c.texts("alert") if "does not have" in t]


def test_a_link_works_on_every_process_once_its_upload_arrives(servers):
    data = png(90210)
    key = uploads.key_of(data)
    link = f"presets=letters/A,{key}&q_image={key}"
    for s in servers:  # each process looks for it, and does not find it
        c = opened(s.url, "classical", link)
        assert _missing(c) and store_heading(c) == "Pattern store (1/40)", (c.texts("alert"), store_heading(c))
        assert not c.has("q_image_clear")
        c.close()
    up = opened(servers[0].url, "classical")
    run = up.upload("uploader", "late.png", data)  # the teacher uploads it through one process
    assert not run.errors, run
    up.close()
    for s in servers:  # and every process finds it at once
        c = opened(s.url, "classical", link)
        assert not _missing(c), c.texts("alert")
        assert store_heading(c) == "Pattern store (2/40)" and c.has("q_image_clear"), store_heading(c)
        c.close()


def test_an_svg_past_the_browsers_filter_is_explained_on_every_uploader(servers):
    c = opened(servers[1].url, "classical")
    try:
        before = store_heading(c)
        run = c.upload("uploader", "drawing.svg", SVG, "image/svg+xml")
        assert run.status in OK and any(e.startswith(SVG_SAID) for e in run.errors), run
        assert not c.exceptions() and store_heading(c) == before
        run = c.upload("q_uploader", "drawing.svg", SVG, "image/svg+xml")
        assert any(e.startswith(SVG_SAID) for e in run.errors) and not c.exceptions(), run
        assert not c.has("q_image_clear")
        run = c.set_value("q_seed", 3)  # the page still runs, on the stored patterns
        assert run.status in OK and not c.exceptions(), run
        c.switch_page("energy_transformer")
        c.set_value("energy_transformer_src", "upload")
        run = c.upload("energy_transformer_upload", "drawing.svg", SVG, "image/svg+xml")
        assert any(e.startswith(SVG_SAID) for e in run.errors) and not c.exceptions(), run
    finally:
        c.close()
    assert not tracebacks(servers[1].log()), tracebacks(servers[1].log())[0]


def test_an_uploaded_file_is_released_once_read_and_every_uploader_goes_on(servers):
    """Each uploader's file is read once and its bytes released from Streamlit's memory
    (ui.store.store.release_upload: 60 flooding sessions held 530 MB): later runs see the
    released file as Streamlit's DeletedFile, and the query, the store and the Energy
    Transformer's photo all stay in use, with no error."""
    c = opened(servers[0].url, "classical")
    try:
        run = c.upload("q_uploader", "query.png", png(31416))
        assert not run.errors and c.has("q_image_clear"), run
        run = c.upload("uploader", "mine.png", png(27182))
        assert not run.errors and store_heading(c) == "Pattern store (4/40)", run
        for seed in (1, 2):  # reruns after the release
            run = c.set_value("q_seed", seed)
            assert run.status in OK and not c.exceptions(), run
        assert c.has("q_image_clear") and store_heading(c) == "Pattern store (4/40)"
        c.switch_page("energy_transformer")
        c.set_value("energy_transformer_src", "upload")
        run = c.upload("energy_transformer_upload", "photo.png", png(16180, size=64))
        assert not run.errors and not c.exceptions(), run
        run = c.click("energy_transformer_run") if c.has("energy_transformer_run") else c.set_value(
            "energy_transformer_src", "upload")
        assert run.status in OK and not c.exceptions(), run
        assert any("Completing the photo uploaded as" in t for t in c.texts()), c.texts()[:20]
    finally:
        c.close()
    assert not tracebacks(servers[0].log()), tracebacks(servers[0].log())[0]

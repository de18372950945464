"""In real Chromium: hostile link values and file names appear as text, and nothing of the
user's making becomes a live link, an image or an element."""
from urllib.parse import quote

from tests.support.browser import assert_healthy, goto, shot, store_uploader

PHISH = "[click](http://127.0.0.1:9/phish)"
PIXEL = "![b](http://127.0.0.1:9/pixel.png)"
HTML = "<img src=x onerror=alert(1)>"


def _no_live_user_content(pg) -> None:
    assert pg.locator('a[href*="127.0.0.1:9"]').count() == 0
    assert pg.locator('img[src*="127.0.0.1:9"], img[src="x"]').count() == 0


def test_hostile_link_values_show_as_text(page, server):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    query = "&".join(f"{k}={quote(v)}" for k, v in
                     (("interaction", PHISH), ("beta", PIXEL), ("mode", HTML), ("presets", PHISH)))
    goto(page, server, f"dense?{query}")
    body = page.locator("body").inner_text()
    for value in (PHISH, PIXEL, HTML):
        assert value in body, value  # named, exactly as given
    _no_live_user_content(page)
    assert not [u for u in requests if "127.0.0.1:9" in u or u.endswith("/x")]  # nothing fetched
    assert_healthy(page)
    shot(page, "hostile_link_values")


def test_a_hostile_file_name_shows_as_text(page, server, tmp_path):
    goto(page, server, "classical")
    bad = tmp_path / f"{HTML}.png"
    bad.write_bytes(b"%PDF-1.4 not an image")
    store_uploader(page).set_input_files(str(bad))
    page.wait_for_function("() => document.body.innerText.includes('This file is a PDF document')")
    assert f"{HTML}.png" in page.locator('[data-testid="stSidebar"]').inner_text()
    _no_live_user_content(page)
    assert_healthy(page)
    shot(page, "hostile_file_name")

"""In real Chromium: an image this app cannot read (an SVG, which the picker offers among the
images) is explained on the sidebar's and the Energy Transformer's uploaders, and the
uploaders say which files they take; an upload keeps its name as written; a web address in a
name or in a link value is no live link (Streamlit's markdown is GitHub-flavoured: it links
`www.` and `http://` text by itself)."""
from urllib.parse import quote

from tests.support.badfiles import encode, photo
from tests.support.browser import assert_healthy, goto, shot, store_uploader, wait_idle
from ui.serving.text import WORD_JOINER

SVG = (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
       b'<rect width="10" height="10"/></svg>')
SAID = "This file is an SVG drawing"


def _text(pg, where: str) -> str:
    return pg.locator(where).inner_text().replace(WORD_JOINER, "")


def _wait_for(pg, text: str) -> None:
    pg.wait_for_function("t => document.body.innerText.replaceAll('\\u2060', '').includes(t)",
                         arg=text)
    wait_idle(pg)


def test_an_svg_is_explained_on_each_uploader(page, server, tmp_path):
    goto(page, server, "classical")
    svg = tmp_path / "drawing.svg"
    svg.write_bytes(SVG)
    sidebar = '[data-testid="stSidebar"]'
    said = page.locator(f'{sidebar} [data-testid="stFileUploaderDropzoneInstructions"]').first
    assert said.inner_text().endswith("PNG, JPG, GIF, WEBP, BMP"), said.inner_text()
    before = page.locator(f"{sidebar} h2").first.inner_text()
    store_uploader(page).set_input_files(str(svg))
    _wait_for(page, SAID)
    assert "drawing.svg: " + SAID in _text(page, sidebar)
    assert page.locator(f"{sidebar} h2").first.inner_text() == before  # the store kept what it had
    assert_healthy(page)
    shot(page, "svg_in_the_sidebar")
    goto(page, server, "energy_transformer")
    page.get_by_role("radiogroup", name="Image").get_by_text("upload", exact=True).click()
    wait_idle(page)
    page.locator('[data-testid="stMain"] input[type="file"]').first.set_input_files(str(svg))
    _wait_for(page, SAID)
    assert_healthy(page)


def test_a_name_is_shown_as_written_and_an_address_in_it_is_no_link(page, server, tmp_path):
    goto(page, server, "classical")
    name = "www.example.org_40x30"  # within the 24 characters a name keeps
    image = tmp_path / f"{name}.png"
    image.write_bytes(encode(photo(seed=5), "PNG"))
    store_uploader(page).set_input_files(str(image))
    _wait_for(page, f"4. {name}")  # the gallery's caption, every character kept
    assert page.locator('a[href*="example.org"]').count() == 0
    assert_healthy(page)
    shot(page, "upload_name_as_written")


def test_an_address_in_a_link_value_is_no_link(page, server):
    goto(page, server, f"landscape?pts={quote('0,0;1,http://127.0.0.1:9/x www.example.org')}")
    _wait_for(page, "http://127.0.0.1:9/x www.example.org")  # named, as written
    assert page.locator('a[href*="127.0.0.1:9"], a[href*="example.org"]').count() == 0
    assert_healthy(page)

"""Text that came from a user is shown as plain text, never as live markdown or HTML.

Every message that repeats a link value or a file name is tried with the three hostile
values below; its markdown is rendered by a CommonMark parser (raw HTML allowed, stricter
than Streamlit) and must contain no link, no image and no HTML tag of the user's making.
"""
import html as html_lib
import re

import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, TIMEOUT, open_app
from tests.badfiles import encode, photo
from ui.text import escaped, quoted, safe_name

HOSTILE = ["[click](http://127.0.0.1:9/phish)", "![b](http://127.0.0.1:9/pixel.png)",
           "<img src=x onerror=alert(1)>"]
_md = MarkdownIt("commonmark")
MARKDOWN_TAGS = {"p", "code", "em", "strong", "ul", "ol", "li", "br", "pre", "blockquote", "hr",
                 "h1", "h2", "h3", "h4", "h5", "h6"}


def assert_inert(markdown: str) -> None:
    html = _md.render(markdown)
    assert "<a " not in html and "<img" not in html, html
    tags = set(re.findall(r"</?([a-zA-Z][a-zA-Z0-9]*)", html))
    assert tags <= MARKDOWN_TAGS, (tags - MARKDOWN_TAGS, html)  # no tag of the user's making


def messages(at) -> list[str]:
    """Every message on the page and in the sidebar, as markdown."""
    out = []
    for kind in ("warning", "error", "info", "success", "caption", "markdown"):
        out += [el.value for el in getattr(at, kind)]  # the whole tree, sidebar included
    return out


def shown(markdown: str) -> str:
    """What a reader sees of a markdown message: rendered, tags dropped, entities decoded."""
    return html_lib.unescape(re.sub(r"<[^>]+>", "", _md.render(markdown)))


def about(at, value: str) -> list[str]:
    """The messages in which a reader sees `value` exactly as given; each must be inert."""
    found = [m for m in messages(at) if value in shown(m)]
    for m in found:
        assert_inert(m)
    return found


# ---------------------------------------------------------------- the helpers themselves

@pytest.mark.parametrize("value", HOSTILE + ["`", "a ``b`` c", " lead", "x\ny\x00z\u202e",
                                             "$x^2$ :red[red] :material/home:", "9" * 5000])
def test_quoted_values_render_as_written_and_inert(value):
    md = quoted(value)
    assert_inert(f"The link's beta = {md} is not a number.")
    html = _md.render(md)
    assert html.startswith("<p><code>") and html.rstrip().endswith("</code></p>")
    if len(value) < 60 and value.isprintable():
        assert shown(md).strip() == value.strip()
    assert len(md) < 120  # 5000 digits are cut


@pytest.mark.parametrize("value", HOSTILE)
def test_escaped_sentences_render_their_characters_literally(value):
    sentence = f"Row 1, column x holds {value!r}, not a number."
    assert_inert(escaped(sentence))
    assert shown(escaped(sentence)).strip() == sentence


@pytest.mark.parametrize("filename, shown", [
    ("[click](http://127.0.0.1:9/phish).png", "phish"),  # a "/" ends a folder name
    ("<img src=x onerror=alert(1)>.png", "img srcx onerroralert1"),
    ("my_cat.jpeg", "my cat"), ("...png", "upload"), ("Ünïcode_é.webp", "Ünïcode é"),
    ("C:\\Users\\me\\holiday.png", "holiday")])
def test_upload_names_keep_only_inert_characters(filename, shown):
    assert safe_name(filename) == shown
    assert re.fullmatch(r"[\w .-]+", shown) and "_" not in shown


# ---------------------------------------------------------------- link values, every page

LINKS = {  # page -> {link parameter that is echoed: how the value is placed in it}
    "home": {"presets": "{}", "size": "{}", "q_amount": "{}", "q_corruption": "{}",
             "binarize": "{}", "q_image": "{}"},
    "dense": {"interaction": "{}", "n": "{}", "beta": "{}", "rect": "{}", "mode": "{}",
              "steps": "{}"},
    "modern": {"beta": "{}", "gamma": "{}", "steps": "{}"},
    "landscape": {"pts": "0,0;1,{}"},  # a cell of the table of points
}


@pytest.mark.parametrize("value", HOSTILE, ids=["link", "image", "html"])
@pytest.mark.parametrize("page", list(LINKS))
def test_hostile_link_values_are_named_as_plain_text(page, value):
    """Every parameter of the page carries the hostile value; each gets its own message."""
    query = {key: template.format(value) for key, template in LINKS[page].items()}
    at = open_app(None if page == "home" else page, query=query)
    assert not at.exception
    found = about(at, value)
    assert len(found) >= len(query), (sorted(query), found, messages(at))


def test_an_upload_named_in_a_link_as_a_path_is_refused_by_name():
    at = open_app("classical", query={"presets": "letters/A,upload/../../etc/passwd"})
    found = about(at, "upload/../../etc/passwd")
    assert found and "not a valid upload name" in found[0]
    assert not at.exception


# ---------------------------------------------------------------- file names

@pytest.fixture
def classical():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.switch_page("app_pages/classical.py").run()
    return at


@pytest.mark.parametrize("value", HOSTILE, ids=["link", "image", "html"])
def test_hostile_file_names_of_bad_uploads_are_plain_text(classical, value):
    at = classical
    at.file_uploader(key="uploader").set_value((value + ".png", b"%PDF-1.4", "image/png")).run()
    assert about(at, value)
    at.file_uploader(key="q_uploader").set_value((value + ".png", b"", "image/png")).run()
    assert len(about(at, value)) == 2
    at.switch_page("app_pages/energy_transformer.py").run()
    at.radio(key="et_source").set_value("upload").run()
    at.file_uploader(key="et_upload").set_value((value + ".png", b"GIF89a", "image/png")).run()
    assert about(at, value)
    assert not at.exception


@pytest.mark.parametrize("value", HOSTILE, ids=["link", "image", "html"])
def test_a_good_upload_with_a_hostile_name_is_stored_under_an_inert_name(classical, value):
    at = classical
    at.file_uploader(key="uploader").set_value((value + ".png", encode(photo(seed=7), "PNG"),
                                                "image/png")).run()  # the same image each time
    assert not at.exception
    names = [s.name for s in at.session_state["store"]]
    assert names[-1] == safe_name(value + ".png")
    for m in messages(at):
        assert_inert(m)

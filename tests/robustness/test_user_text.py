"""Text that came from a user is shown as plain text, never as live markdown or HTML.

Every message that repeats a link value or a file name is tried with the three hostile
values below; its markdown is rendered by a CommonMark parser (raw HTML allowed, stricter
than Streamlit) and must contain no link, no image and no HTML tag of the user's making, and
no text that GitHub-flavoured markdown (Streamlit's) would turn into a link by itself: a web
address (`www.x.org`, `http://x`) or an e-mail address outside a code span.
"""
import html as html_lib
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from tests.support.apptest import APP, TIMEOUT, open_app
from tests.support.badfiles import encode, photo
from ui.serving.text import WORD_JOINER, escaped, quoted, safe_name, unlinked

HOSTILE = ["[click](http://127.0.0.1:9/phish)", "![b](http://127.0.0.1:9/pixel.png)",
           "<img src=x onerror=alert(1)>"]
_md = MarkdownIt("commonmark")
MARKDOWN_TAGS = {"p", "code", "em", "strong", "ul", "ol", "li", "br", "pre", "blockquote", "hr",
                 "h1", "h2", "h3", "h4", "h5", "h6"}


# GitHub-flavoured markdown's own links, found in the text after escapes are resolved (as
# mdast-util-gfm-autolink-literal does): a web address after a non-letter, an e-mail address
_GFM_AUTOLINK = re.compile(r"(?i)(?<![^\W_])(?:https?://|www\.)[-.\w]|[-.\w+]+@[-\w]+(?:\.[-\w]+)+")


def assert_inert(markdown: str) -> None:
    html = _md.render(markdown)
    assert "<a " not in html and "<img" not in html, html
    tags = set(re.findall(r"</?([a-zA-Z][a-zA-Z0-9]*)", html))
    assert tags <= MARKDOWN_TAGS, (tags - MARKDOWN_TAGS, html)  # no tag of the user's making
    text = html_lib.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<code>.*?</code>", "", html, flags=re.S)))
    assert not _GFM_AUTOLINK.search(text), text  # no address GFM would link


def messages(at) -> list[str]:
    """Every message on the page and in the sidebar, as markdown."""
    out = []
    for kind in ("warning", "error", "info", "success", "caption", "markdown"):
        out += [el.value for el in getattr(at, kind)]  # the whole tree, sidebar included
    return out


def shown(markdown: str) -> str:
    """What a reader sees of a markdown message: rendered, tags dropped, entities decoded,
    invisible word joiners dropped."""
    return html_lib.unescape(re.sub(r"<[^>]+>", "", _md.render(markdown))).replace(WORD_JOINER, "")


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


ADDRESSES = ["www.example.org", "see http://127.0.0.1:9/x", "HTTPS://x.org", "me@example.org",
             "(www.x.org)", "_www.x.org_"]


def test_the_address_checker_finds_what_gfm_would_link():
    for value in ADDRESSES:
        with pytest.raises(AssertionError):
            assert_inert(value)
    for value in ("awww.x.org", "the file.png", "x @ y"):
        assert_inert(value)


@pytest.mark.parametrize("value", HOSTILE + ADDRESSES)
def test_escaped_sentences_render_their_characters_literally(value):
    sentence = f"Row 1, column x holds {value!r}, not a number."
    assert_inert(escaped(sentence))
    assert shown(escaped(sentence)).strip() == sentence


@pytest.mark.parametrize("value", ADDRESSES)
def test_unlinked_text_reads_the_same_and_links_nothing(value):
    assert_inert(unlinked(value))
    assert unlinked(value).replace(WORD_JOINER, "") == value


@pytest.mark.parametrize("filename, name", [
    ("[click](http://127.0.0.1:9/phish).png", "phish)"),  # a "/" ends a folder name
    ("<img src=x onerror=alert(1)>.png", "img srcx onerroralert(1)"),
    ("my_cat.jpeg", "my_cat"), ("phone_4000x3000.jpg", "phone_4000x3000"),
    ("IMG 2024 (1).JPG", "IMG 2024 (1)"), ("mum's cat, 2.png", "mum's cat, 2"),
    ("_draft_.png", "draft"), ("a__b_.png", "a__b"), ("*bold* ~x~ $y$ :red[z].png", "bold x y redz"),
    ("...png", "upload"), ("Ünïcode_é.webp", "Ünïcode_é"), ("C:\\Users\\me\\holiday.png", "holiday"),
    ("www.example.org.png", "www.example.org"), ("me@example.org.png", "meexample.org")])
def test_upload_names_are_shown_as_written_and_inert(filename, name):
    got = safe_name(filename)
    assert got.replace(WORD_JOINER, "") == name
    sentence = f"Stored {got} as pattern 4."  # in a sentence, as the pages show names
    assert_inert(sentence)
    assert shown(sentence).strip() == f"Stored {name} as pattern 4."  # no emphasis, nothing lost
    assert not set(got) & set("<>&\"`*[]:$~#|\\!@/")


@settings(max_examples=300)
@given(st.lists(st.sampled_from(list("ab1 _-.,()'*[]<>!:/@~$#&\\`w") + ["www.", "é", "http://"]),
                max_size=30).map("".join))
def test_any_file_name_becomes_an_inert_name_that_reads_as_itself(text):
    name = safe_name(text + ".png")
    sentence = f"Stored {name} as pattern 4."
    assert_inert(sentence)
    assert shown(sentence).strip() == f"Stored {name.replace(WORD_JOINER, '')} as pattern 4."
    assert 0 < len(name.replace(WORD_JOINER, "")) <= 24


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
    """Every parameter of the page carries the hostile value; each gets its own message (the
    link's messages share one box: a message a line)."""
    query = {key: template.format(value) for key, template in LINKS[page].items()}
    at = open_app(None if page == "home" else page, query=query)
    assert not at.exception
    found = about(at, value)
    named = sum(shown(m).count(value) for m in found)
    assert named >= len(query), (sorted(query), found, messages(at))


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
    at.radio(key="energy_transformer_src").set_value("upload").run()
    at.file_uploader(key="energy_transformer_upload").set_value((value + ".png", b"GIF89a", "image/png")).run()
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

"""Links in page text are built by ui.pages.links.page_link, which checks each key and value
against the settings layer: no link is typed out in the source, every link a page shows opens
its setup without a message, and an unknown key or a bad value fails."""
import ast
import re
from urllib.parse import parse_qsl

import pytest

from tests.support.apptest import ROOT, open_app
from ui import pages
from ui.pages.links import page_link

TYPED_LINK = re.compile(r"\]\(\?|[?&][a-z_]+=")  # "](?..." or a query's "?key=" / "&key="
SHOWN_LINK = re.compile(r"\]\(([^)\s]*\?[^)\s]*)\)")  # a markdown link that sets values


def string_parts(path):
    """Every string literal of a source file (the constant parts of f-strings too)."""
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_link_with_values_is_typed_into_page_text():
    files = [p for folder in ("app_pages", "ui") for p in (ROOT / folder).rglob("*.py")
             if p != ROOT / "ui" / "pages" / "links.py"]
    typed = [f"{p.relative_to(ROOT)}:{line}: {text!r}" for p in files
             for line, text in string_parts(p) if TYPED_LINK.search(text)]
    assert not typed, typed


def test_the_scan_finds_a_typed_link():
    for text in ("([open this setup](?presets=letters/O&beta=10))", "side_by_side?presets=",
                 "&q_amount=0.2&beta=10"):
        assert TYPED_LINK.search(text), text
    assert not TYPED_LINK.search(r"(?i)(?<=www)(?=\.)|(?=://)|(?<=@)")  # a regular expression


def links_shown(at) -> list[str]:
    return [m for e in at.markdown for m in SHOWN_LINK.findall(e.value)]


@pytest.fixture(scope="module")
def shown():
    """page -> the links with values its default view shows."""
    return {p.file: links_shown(open_app(None if p.default else p.file))
            for p in pages.PAGES}


def test_the_pages_show_their_links(shown):
    assert len(shown["modern"]) == 1 and len(shown["side_by_side"]) == 2, shown


@pytest.mark.parametrize("page, which", [("modern", 0), ("side_by_side", 0), ("side_by_side", 1)])
def test_every_link_a_page_shows_opens_its_setup_without_a_message(shown, page, which):
    href = shown[page][which]
    path, _, query = href.partition("?")
    target = pages.page(path or "home").file
    values = dict(parse_qsl(query, keep_blank_values=True))
    at = open_app(None if pages.page(target).default else target, query=values)
    notes = at.session_state["link_messages"] if "link_messages" in at.session_state else []
    assert not notes and not [w.value for w in at.warning if "The link" in w.value], notes
    for key, raw in values.items():  # the address bar keeps every value as the link wrote it
        got = at.query_params[key]
        assert (got[-1] if isinstance(got, list) else got) == raw, (key, got, raw)


def test_every_link_the_pages_show_is_one_the_builder_accepts(shown):
    for page, hrefs in shown.items():
        for href in hrefs:
            path, _, query = href.partition("?")
            target = pages.page(path or "home").file
            assert page_link(target, **dict(parse_qsl(query, keep_blank_values=True))) == href


def test_the_builder_writes_a_relative_link_to_the_page():
    assert (page_link("side_by_side", presets="letters/A,letters/B", size=12, q_index=1,
                      q_amount=0.2, mode="sync")
            == "side_by_side?presets=letters/A,letters/B&size=12&q_index=1&q_amount=0.2&mode=sync")
    assert page_link("dense", n=4, n_hide=1, rect=True) == "dense?n=4&n_hide=1&rect=1"
    assert page_link("home", size=8) == "?size=8"


@pytest.mark.parametrize("page, values, why", [
    ("modern", {"betaa": 10}, "cannot set 'betaa'"),  # a typo
    ("modern", {"mode": "sync"}, "cannot set 'mode'"),  # another page's setting
    ("home", {"beta": 10}, "cannot set 'beta'"),  # Home has no settings of its own
    ("modern", {"beta": "lots"}, "is not a number"),
    ("side_by_side", {"size": 13}, "is not one of 8, 12, 16"),
    ("dense", {"n": 11}, "is outside 2 to 10"),
    ("dense", {"mode": "both"}, "is not one of async, sync"),
    ("dense", {"n_hide": 2}, "its value is 1"),
    ("side_by_side", {"presets": "letters/A,letters/B", "q_index": 2}, "stores 2"),
])
def test_an_unknown_key_or_a_bad_value_fails(page, values, why):
    with pytest.raises(ValueError, match=re.escape(why)):
        page_link(page, **values)


def test_an_unknown_page_fails():
    with pytest.raises(ValueError, match="no page is called 'side-by-side'"):
        page_link("side-by-side", size=12)

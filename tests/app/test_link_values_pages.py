"""Every page opened with every one of its fields (and the sidebar's) hostile at once, part by
part as its declaration allows (tests/support/link_values.py: below or above its range,
reversed, an empty part, not a number, digits that are not ASCII, a fraction): no page
crashes (issue 44: `/energy_transformer?rows=0,9` did), each unusable value gets exactly one
message, and the address bar ends clean."""
import pytest

from tests.support.apptest import open_app
from tests.support.link_values import CATEGORIES, hostile
from ui import pages
from ui.store.shared_settings import SIDEBAR

PAGES = {p.file: pages.settings_of(p.file) for p in pages.PAGES if p.settings}


def qp(at, key):
    v = at.query_params[key]
    return v[-1] if isinstance(v, list) else v


@pytest.mark.parametrize("category", CATEGORIES)
@pytest.mark.parametrize("page", list(PAGES))
def test_every_field_hostile_at_once_crashes_nothing_and_says_each_once(page, category):
    fields = {k: f for k, f in {**SIDEBAR.fields, **PAGES[page].fields}.items() if f.kind != "kept"}
    link = {key: hostile(f, category) for key, f in fields.items()}
    at = open_app(page, query={**link, "presets": "letters/A,letters/B,letters/C"})
    assert not at.exception, at.exception
    notes = [w.value for w in at.warning]
    for key, f in fields.items():
        raw = link[key]
        said = [n for n in notes if f"The link sets {key} = " in n or f"The link gives {key} no value" in n]
        _, problem = f.parse(raw)
        if problem:
            assert len(said) == 1, (page, category, key, raw, said)
        assert len(said) <= 1, (page, category, key, raw, said)
        if key in at.query_params:
            assert f.parse(qp(at, key))[1] is None, (key, qp(at, key))  # the address bar is clean


@pytest.mark.parametrize("page, query, key", [
    ("transformer_heads", {"iteration": "²"}, "iteration"),  # "²".isdigit() is True; int() refused it
    ("energy_transformer", {"rows": "0,9"}, "rows"),  # the range's message raised a TypeError
    ("learning", {"view": "points", "pts": "x,1;2,y"}, "pts"),  # float() said "could not convert"
])
def test_issue_44s_links_say_one_plain_sentence(page, query, key):
    at = open_app(page, query=query)
    assert not at.exception, at.exception
    said = [w.value for w in at.warning if f"The link sets {key} = " in w.value]
    assert len(said) == 1, said
    for python in ("invalid literal", "could not convert", "object is not", "Error"):
        assert python not in said[0], said[0]

"""The settings layer on every page (ui.settings.layer): every field round-trips through a link,
every junk value gives a plain-text message and a clean address bar, a link can hide a
control, and no page reads the link itself."""
import re
from pathlib import Path

import pytest

from tests.support.apptest import open_app
from ui import pages
from ui.settings.layer import WIDGETS, Settings
from ui.store import shared_settings
from ui.store.shared_settings import SIDEBAR

ROOT = Path(__file__).resolve().parents[2]
PAGES = {p.file: pages.settings_of(p.file) for p in pages.PAGES if p.settings}
LEARNING, LANDSCAPE = PAGES["learning"], PAGES["landscape"]
JUNK = {
    "negative": "-1",
    "huge": "1e308",
    "nan": "nan",
    "inf": "inf",
    "5000 digits": "9" * 5000,
    "markdown link": "[click](http://evil.example)",
    "markdown image": "![b](http://evil.example/pixel.png)",
    "html": "<img src=x onerror=alert(1)>",
    "control characters": "1\x00\n\x1b[31m2",
}


def qp(at, key):
    v = at.query_params[key]
    return v[-1] if isinstance(v, list) else v


def outside_code(text: str) -> str:
    """A message with its inline code spans (the quoted user text) removed."""
    return re.sub(r"(`+)(?:(?!\1).)*?\1", "", text, flags=re.S)


def valid_other_value(f):
    """A value of field f other than its default, as a link writes it (None: not testable
    without further state, e.g. an upload this server would have to hold)."""
    if f.kind == "choice":
        return f.shown(next(o for o in f.options if o != f.default))
    if f.kind == "flag":
        return f.shown(not f.default)
    if f.kind == "multi":
        return f.shown(f.options[:2])
    if f.kind == "range":
        return f.shown((f.lo, f.hi))
    if f.kind == "pick":
        return "2" if f.default != 2 else "1"  # the default store holds 3 patterns
    if f.kind == "custom":
        return {"pts": "1,1;-1,1;0,-1.5", "hide": "f0f0f0f0f0f0f0f0", "img": None, "device": "cpu",
                "q_flip": "1,5,9", "text": "Dogs chase cats in the garden.", "iteration": "3"}[f.key]
    if f.options:  # steps of a select_slider
        return f.shown(f.options[-1] if f.default != f.options[-1] else f.options[0])
    value = f.hi if f.default != f.hi else f.lo
    if f.kind == "float" and f.widget == "slider" and f.step:  # the highest step of the slider
        value = round(int((f.hi - f.lo) / f.step) * f.step + f.lo, 10)
    return f.shown(value)


def applies(fields: dict, link: dict, f) -> bool:
    """Whether field f applies under the link's values (a field that depends on another's, e.g.
    beta set by hand, is left out of the address bar when the other is set otherwise)."""
    if not f.needs:
        return True
    other = fields[f.needs[0]]
    value = other.parse(link[other.key])[0] if other.key in link else other.default
    return value in f.needs[1]


@pytest.mark.parametrize("page", list(PAGES))
def test_every_field_round_trips_through_a_link(page):
    """Every value a link sets comes back in the address bar; one that does not apply under the
    link's other values (e.g. the ET's photo with an upload as the image) is named in one
    sentence that says what to add, and left out of the address bar."""
    fields = {**SIDEBAR.fields, **PAGES[page].fields}
    link = {k: v for k, v in ((k, valid_other_value(f)) for k, f in fields.items()) if v is not None}
    at = open_app(page, query={**link, "presets": "letters/A,letters/B,letters/C,letters/D"})
    assert not at.exception, at.exception
    notes = [w.value for w in at.warning]
    assert not [n for n in notes if "The link sets" in n and "applies only with" not in n], notes
    for key, raw in link.items():
        if applies(fields, link, fields[key]):
            assert qp(at, key) == raw, (page, key, qp(at, key), raw)
        else:
            assert key not in at.query_params, (page, key)
            other = fields[fields[key].needs[0]]
            assert any(f"The link sets {key} = `{raw}` ({fields[key].label}), which applies only with "
                       f"{other.key}=" in n and f"({other.label}); add {other.key}=" in n for n in notes), (key, notes)


@pytest.mark.parametrize("page", list(PAGES))
@pytest.mark.parametrize("junk", list(JUNK))
def test_junk_in_every_field_gives_plain_messages_and_a_clean_link(page, junk):
    raw = JUNK[junk]
    fields = {**SIDEBAR.fields, **PAGES[page].fields}
    at = open_app(page, query={key: raw for key in fields})
    assert not at.exception, at.exception
    notes = [w.value for w in at.warning]
    drawn = {w.key for w in at.selectbox}
    for key, f in fields.items():
        value, problem = f.parse(raw)
        # past any store: the pattern widget says so, on a page that draws it
        owner = SIDEBAR if key in SIDEBAR.fields else PAGES[page]
        past = f.kind == "pick" and value > f.hi and owner.state_key(key) in drawn
        if problem or past:  # named, with the value used instead
            assert any(f"The link sets {key} = " in n for n in notes), (page, junk, key)
        if not applies(fields, {k: raw for k in fields}, f):  # not in use: not in the address bar
            assert key not in at.query_params, (page, junk, key)
            continue
        if key not in at.query_params:  # a default the view does not show is left out
            assert f.shown(value) == f.shown(f.default), (page, junk, key)
            continue
        assert qp(at, key) == f.shown(value if not (problem or past) else f.parse(qp(at, key))[0]) or (
            f.kind == "pick" and value > f.hi)  # resolved on the page that draws it
        assert f.parse(qp(at, key))[1] is None, (key, qp(at, key))  # the address bar is clean
    for note in notes:  # the user's text is inert: only inside code spans, never as markup
        bare = outside_code(note)
        for live in ("](", "<img", "onerror", "http", "\x00", "\x1b"):
            assert live not in bare, (page, junk, note)
    for key in fields:
        assert key not in at.query_params or ("evil" not in qp(at, key) and "<" not in qp(at, key))


FIELDS = [pytest.param(f, id=f"{page}.{f.key}")
          for page, S in {"sidebar": SIDEBAR, **PAGES}.items() for f in S.fields.values()]


@pytest.mark.parametrize("f", FIELDS)
def test_every_message_about_a_bad_value_is_a_whole_sentence(f):
    """Whatever the link holds (nothing, junk, a lone comma), the message names the value used
    in words: never "using ." for an empty list or text."""
    assert f.label_of(f.default).strip()
    for raw in ("", "  ", "zz", ",", ";", "-", "0" * 500):
        value, problem = f.parse(raw)
        if problem:
            message = f.message(raw, problem, value)
            assert re.fullmatch(r"The link (sets|gives) .+; using \S.*\.", message, flags=re.S), message
            assert message.endswith(f"; using {f.label_of(value)}."), message


@pytest.mark.parametrize("f, empty", [(SIDEBAR.fields["q_flip"], ()), (LEARNING.fields["pts"], ()),
                                      (LANDSCAPE.fields["betas"], ())],
                         ids=["q_flip", "learning.pts", "landscape.betas"])
def test_an_empty_value_used_is_named_none(f, empty):
    assert f.label_of(empty) == "none"
    assert f.message("zz", "could not be read", empty).endswith("could not be read; using none.")


def test_switches_are_named_on_or_off_and_an_empty_link_value_says_so():
    colour = SIDEBAR.fields["colour"]
    assert (colour.label_of(True), colour.label_of(False)) == ("on", "off")
    assert colour.message("zz", *reversed(colour.parse("zz"))).endswith("(off); using off.")
    seed = SIDEBAR.fields["q_seed"]
    assert seed.message("", *reversed(seed.parse(""))) == "The link gives q_seed no value (Seed); using 0."


def test_a_bad_flip_list_and_an_empty_value_read_as_sentences_on_the_page():
    at = open_app("classical", query={"q_flip": "abc", "q_seed": ""})
    notes = " ".join(w.value for w in at.warning)
    assert ("The link sets q_flip = `abc` (the query's pixels flipped by hand), which could not be "
            "read (it should be whole numbers separated by commas); using none.") in notes
    assert "The link gives q_seed no value (Seed); using 0." in notes
    assert "using ." not in notes and "q_flip" not in at.query_params and qp(at, "q_seed") == "0"


def test_an_all_junk_link_gives_one_box_that_names_every_value():
    raw = JUNK["markdown link"]
    fields = {**SIDEBAR.fields, **LANDSCAPE.fields}
    bad = [key for key, f in fields.items() if f.parse(raw)[1]]
    assert len(bad) >= 30
    at = open_app("landscape", query={key: raw for key in fields})
    boxes = [w.value for w in at.warning if "The link" in w.value]
    assert len(boxes) == 1, boxes  # one box, not one a value
    notes = at.session_state["link_messages"]
    assert boxes[0].startswith(f"{len(notes)} things in this link could not be used as written:")
    for key in bad:
        assert f"- The link sets {key} = `{raw}`" in boxes[0], key
    for note in notes:
        assert f"- {note}" in boxes[0]
    assert "](" not in outside_code(boxes[0]) and "http" not in outside_code(boxes[0])
    at.button(key="dismiss_link_messages").click().run()
    assert not [w for w in at.warning if "The link" in w.value]


def test_one_bad_value_is_one_plain_sentence():
    at = open_app("classical", query={"T": "hot"})
    assert [w.value for w in at.warning] == [
        "The link sets T = `hot` (Temperature T), which is not a number; using 0."]


def test_repeated_keys_use_the_last_and_say_so():
    at = open_app("dense", query={"n": ["4", "5"], "q_seed": ["1", "2", "3"]})
    notes = " ".join(w.value for w in at.warning)
    assert "The link sets n 2 times; using the last, `5`." in notes
    assert "The link sets q_seed 3 times; using the last, `3`." in notes
    assert qp(at, "n") == "5" and qp(at, "q_seed") == "3"
    assert at.slider(key="dense_n").value == 5


def test_a_link_can_hide_a_control_and_its_value_still_applies():
    at = open_app("dense", query={"n": "6", "n_hide": "1", "mode_hide": "1"})
    assert "dense_n" not in [s.key for s in at.slider]
    assert "dense_mode" not in [r.key for r in at.radio]
    assert "dense_rect" in [t.key for t in at.toggle]  # the others are still there
    assert at.session_state["_settings"]["dense_n"] == 6  # the hidden value is in use
    assert qp(at, "n") == "6" and qp(at, "n_hide") == "1" and qp(at, "mode_hide") == "1"
    at.toggle(key="dense_rect").set_value(True).run()  # a rerun keeps it hidden and in use
    assert "dense_n" not in [s.key for s in at.slider]
    assert at.session_state["_settings"]["dense_n"] == 6 and qp(at, "n_hide") == "1"


def test_a_link_that_names_patterns_the_store_lacks_says_so():
    at = open_app("landscape", query={"presets": "letters/A,letters/B,letters/C",
                                      "view": "slice", "sa": "7", "sb": "0"})
    notes = " ".join(w.value for w in at.warning)
    assert "The link sets sa = `7` (From pattern x_a (t = 0)): pattern 8, which the store does " \
           "not hold (3 stored); using pattern 1." in notes
    assert qp(at, "sa") == "0"


@pytest.mark.parametrize("raw, which", [("40", "a pattern past the 40 a store can hold"),
                                        ("1e40", "a pattern past the 40 a store can hold"),
                                        ("5", "pattern 6, which the store does not hold")])
def test_a_pattern_the_store_lacks_is_one_message(raw, which):
    """Issue 44: `/classical?q_index=40` said "using pattern 40" and then that the store does
    not hold pattern 40, "using pattern 1": one sentence now, naming what is used."""
    at = open_app("classical", query={"presets": "letters/A,letters/B,letters/C", "q_index": raw})
    notes = [w.value for w in at.warning if "q_index" in w.value]
    assert notes == [f"The link sets q_index = `{raw}` (Start from pattern): {which} (3 stored); "
                     "using pattern 1."], notes


def test_no_page_reads_the_link_itself():
    for path in list((ROOT / "app_pages").glob("*.py")) + list((ROOT / "ui").rglob("*.py")):
        if path == ROOT / "ui" / "settings" / "layer.py":
            continue  # the layer: the only reader
        assert "query_params" not in path.read_text(), path


def test_no_page_file_is_long():
    for path in (ROOT / "app_pages").glob("*.py"):
        assert len(path.read_text().splitlines()) <= 200, path


def test_every_field_is_drawn_by_a_widget_of_the_layer_and_every_widget_is_used():
    """Settings.show draws a field by its widget (ui.settings.layer.WIDGETS): no field names a widget
    the layer lacks (custom fields draw their own: "none"), and the table has no dead entry."""
    fields = [f for S in (SIDEBAR, *PAGES.values()) for f in S.fields.values()]
    assert {f.widget for f in fields if f.kind != "custom"} == set(WIDGETS)
    assert {f.widget for f in fields if f.kind == "custom"} == {"none"}


WRITE = re.compile(r"st\.session_state(?:\.(\w+)|\[[\"'](\w+)[\"']\])\s*(?:=[^=]|\|=|\+=)"
                   r"|st\.session_state\.(?:setdefault|pop|update)\([\"'](\w+)")


def settings_written(line: str, keys: set[str]) -> set[str]:
    return {k for m in WRITE.finditer(line) for k in m.groups() if k in keys}


def test_no_module_writes_a_setting_beside_the_layer():
    """A demo loader or a callback sets a value with Settings.assign (which keeps the layer's
    copy and the widget's in step), never by writing the widget's session key itself."""
    shared = [S for S in vars(shared_settings).values() if isinstance(S, Settings)]
    keys = {S.state_key(k) for S in (*shared, *PAGES.values())
            for k, f in S.fields.items() if f.kind != "kept"}  # kept: stored by their owners
    assert {"size", "q_seed", "dense_n"} <= keys
    assert settings_written('    st.session_state.size = 8', keys) == {"size"}  # the check bites
    assert settings_written('st.session_state["dense_n"] = 3', keys) == {"dense_n"}
    found = [f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
             for path in [*(ROOT / "app_pages").glob("*.py"), *(ROOT / "ui").rglob("*.py")]
             if path != ROOT / "ui" / "settings" / "layer.py"
             for i, line in enumerate(path.read_text().splitlines(), 1)
             if settings_written(line, keys)]
    assert not found, found

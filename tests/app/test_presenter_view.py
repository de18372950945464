"""Presenter mode's view for the back row (ui/shell/presenter_view.py): one line with the values
that define the demonstration (the page's key parameters always, any other value the view uses
that differs from its default, the store's load), the stored patterns with their names, and the
controls a teacher's link keeps on screen (`<key>_show=1`, at most two); the "Settings for this
lesson" line folds into it."""
import re

import pytest

from tests.support.apptest import open_app
from ui import pages
from ui.shell import presenter_view


def values_line(at) -> str:
    box = [b for b in at.main.children.values()]
    found = []

    def walk(node):
        if getattr(node, "key", None) == "presenter_values" or (
                hasattr(node, "proto") and getattr(node.proto, "key", None) == "presenter_values"):
            found.extend(m.value for m in node.get("markdown") if hasattr(m, "value"))
        for child in getattr(node, "children", {}).values():
            walk(child)
    for b in box:
        walk(b)
    return re.sub(r"\\(.)", r"\1", " ".join(found))  # as the page reads: markdown's escapes resolved


@pytest.mark.parametrize("p", [p for p in pages.PAGES if p.key_settings], ids=lambda p: p.file)
def test_every_page_names_its_key_values_in_presenter_mode(p):
    at = open_app(p.file, query={"presenter": "1"})
    assert not at.exception
    said = values_line(at)
    S = pages.settings_of(p.file)
    from ui.settings import link_check
    named = [k for k in p.key_settings if k in S.fields and link_check.applies(S, S.fields[k])
             and presenter_view.item(S.fields[k], S.value(k)) in said]
    assert named, (p.file, said)  # at least the key values the opening view uses


def test_the_line_names_the_values_demonstrated_and_the_load():
    at = open_app("modern", query={"presenter": "1", "beta": "50", "gamma": "0.5",
                                   "presets": "letters/A,letters/B,letters/C,letters/D"})
    said = values_line(at)
    assert said.startswith("inverse temperature beta = 50 · step size gamma = 0.5")
    assert said.endswith("4 patterns, d = 256 neurons")
    assert "Section" not in said and "view" not in said
    at = open_app("modern", query={"beta": "50"})  # outside presenter mode: no such line
    assert not values_line(at)


def test_hidden_values_are_named_once_in_the_line_not_in_a_lesson_line():
    at = open_app("classical", query={"presenter": "1", "T": "0.3", "T_hide": "1"})
    assert "temperature T = 0.3" in values_line(at)
    assert not [c for c in at.caption if c.value.startswith("Settings for this lesson")]
    assert not [i for i in at.info if i.value.startswith("Settings for this lesson")]


def test_the_memory_strip_names_every_stored_pattern():
    keys = [f"letters/{c}" for c in "ABCDEFGHIJ"]
    at = open_app("classical", query={"presenter": "1", "presets": ",".join(keys)})
    [strip] = [h.proto.body for h in at.get("html") if 'class="hp-memories"' in h.proto.body]
    for i, c in enumerate("ABCDEFGHIJ", start=1):
        assert f'alt="Stored pattern {i}: {c}"' in strip and f"<figcaption>{i}. {c}</figcaption>" in strip
    at = open_app("classical", query={"presets": ",".join(keys)})  # not outside presenter mode
    assert not [h for h in at.get("html") if 'class="hp-memories"' in h.proto.body]


def test_a_page_without_the_store_has_no_strip():
    at = open_app("landscape", query={"presenter": "1"})
    assert not [h for h in at.get("html") if 'class="hp-memories"' in h.proto.body]


def test_a_control_kept_on_screen_is_drawn_once_above_the_page_and_works():
    at = open_app("modern", query={"presenter": "1", "beta_show": "1"})
    [slider] = [s for s in at.select_slider if s.key == "modern_beta"]
    assert slider.value == 10.0
    slider.set_value(50.0).run()
    assert not at.exception
    assert at.query_params["beta"] in ("50", ["50"]) and at.query_params["beta_show"] in ("1", ["1"])
    assert "inverse temperature beta = 50" in values_line(at)
    at = open_app("modern", query={"beta_show": "1"})  # outside presenter mode: in its own place
    assert [s.key for s in at.select_slider if s.key == "modern_beta"] == ["modern_beta"]


def test_more_than_two_controls_kept_on_screen_says_which_were_left():
    at = open_app("classical", query={"presenter": "1", "T_show": "1", "mode_show": "1", "rule_show": "1"})
    notes = " ".join(w.value for w in at.warning)
    assert "The link asks presenter mode to show more than 2 controls; it shows the first 2, not rule" in notes


def test_a_show_flag_for_what_has_no_control_says_so():
    at = open_app("classical", query={"presenter": "1", "q_flip_show": "1"})
    assert any("The link asks presenter mode to show q_flip" in w.value for w in at.warning)


def test_two_values_with_one_name_keep_their_qualifiers():
    """Side by side has two β (the dense exponential's and the modern network's): the line names
    each by its qualifier, not "β = 1 · β = 20"."""
    line = values_line(open_app("side_by_side", query={"presenter": "1"}))
    assert "β (exponential) = 1" in line and "β (modern) = 20" in line, line
    assert "· β =" not in line and not line.startswith("β =")


def test_side_by_side_says_each_verdict_in_a_few_words_in_presenter_mode():
    """Each box in a quarter of the projector: Verdict.short, one or two lines; the sentence whole
    in the summary's table, and in the boxes outside presenter mode."""
    from hopfield_core.analysis import Verdict

    at = open_app("side_by_side", query={"presenter": "1"})
    at.button(key="side_by_side_show_result").click().run()
    boxes = [a.value for a in at.success]
    assert boxes == [Verdict("retrieved", 0).short(["H"])] * 4, boxes
    plain = [a.value for a in open_app("side_by_side").success]
    assert plain[:4] == [Verdict("retrieved", 0).sentence(["H"])] * 4, plain

"""A teacher's link that hides controls (`<key>_hide=1`): the students read the hidden settings
that differ from their defaults in one "Settings for this lesson" line (ui.settings.lesson_line), where the
controls would have been, and a hidden control leaves no empty column behind."""
import pytest

from tests.support.apptest import open_app
from ui.pages.classical.settings import SETTINGS as CLASSICAL
from ui.pages.dense.settings import SETTINGS as DENSE
from ui.pages.energy_transformer.settings import SETTINGS as ET
from ui.pages.landscape.settings import SETTINGS as LANDSCAPE
from ui.settings import lesson_line as lesson
from ui.store.shared_settings import SIDEBAR

LESSON = {"T": "0.1", "rule": "storkey", "T_hide": "1", "rule_hide": "1"}


def lines(at) -> list[str]:
    """Every "Settings for this lesson" line on the page (in a caption or a box)."""
    return [e.value for e in list(at.caption) + list(at.info) if e.value.startswith(lesson.PREFIX)]


def columns_of(at, container_key: str) -> int:
    """How many columns the keyed container's row of controls has."""
    def find(node):
        if container_key in str(getattr(getattr(node, "proto", None), "id", "")):
            return node
        for child in getattr(node, "children", {}).values():
            hit = find(child)
            if hit is not None:
                return hit
    block = find(at.main)
    assert block is not None, container_key
    rows = [c for c in block.children.values()
            if any(type(g).__name__ == "Column" for g in getattr(c, "children", {}).values())]
    return sum(type(g).__name__ == "Column" for g in rows[0].children.values())


def test_a_link_that_hides_changed_controls_names_them_in_one_line():
    at = open_app("classical", query=LESSON)
    assert lines(at) == ["Settings for this lesson: temperature T = 0.1, learning rule Storkey."]
    assert "classical_T" not in [s.key for s in at.slider]
    assert "classical_rule" not in [s.key for s in at.selectbox]
    assert at.radio(key="classical_mode").value == "async"  # the others still show
    assert columns_of(at, "controls_classical") == 2  # mode and steps: no empty gap
    at.radio(key="classical_mode").set_value("sync").run()  # a rerun keeps the line, once
    assert lines(at) == ["Settings for this lesson: temperature T = 0.1, learning rule Storkey."]


def test_the_classical_caption_names_the_rule_and_temperature_in_use():
    at = open_app("classical", query=LESSON)
    text = at.caption[0].value
    assert "Storkey weights" in text and "temperature T = 0.1" in text
    assert "Hebbian" not in text and "zero temperature" not in text


@pytest.mark.parametrize("query", [{}, {"T": "0.1", "rule": "storkey"}, {"T_hide": "1", "rule_hide": "1"},
                                   {"T": "0", "T_hide": "1"}],
                         ids=["plain", "changed but shown", "hidden at defaults", "hidden, set to its default"])
def test_no_line_when_nothing_hidden_differs_from_its_default(query):
    at = open_app("classical", query=query)
    assert lines(at) == []
    hidden = sum(query.get(k) == "1" for k in ("T_hide", "rule_hide"))
    assert columns_of(at, "controls_classical") == 4 - hidden


def test_hidden_controls_outside_a_row_are_named_at_the_top_of_the_page():
    """The dense page and the sidebar draw their controls themselves: the line goes above the page."""
    at = open_app("dense", query={"n": "6", "n_hide": "1", "q_corruption": "noise",
                                  "q_corruption_hide": "1", "q_seed_hide": "1"})
    assert lines(at) == ["Settings for this lesson: corruption Gaussian noise, degree n = 6."]
    assert "q_corruption" not in [s.key for s in at.selectbox] and "dense_n" not in [s.key for s in at.slider]


def test_a_hidden_control_of_a_section_not_shown_is_not_named():
    at = open_app("landscape", query={"view": "world", "pbeta": "100", "pbeta_hide": "1"})
    assert lines(at) == []
    at = open_app("landscape", query={"view": "plane", "pbeta": "100", "pbeta_hide": "1"})
    assert lines(at) == ["Settings for this lesson: β (log scale) = 100."]


def test_each_kind_of_field_is_named_in_words():
    f = {**SIDEBAR.fields, **CLASSICAL.fields}
    hidden = [(f["size"], 12), (f["colour"], True), (f["q_index"], 2), (f["q_corruption"], "half"),
              (f["q_flip"], (3, 4)), (f["mode"], "sync"), (f["W"], True), (f["q_seed"], 0)]
    assert lesson.line(hidden) == (
        "Settings for this lesson: size (pixels a side) = 12, colour on, start from pattern = "
        "pattern 3, corruption hide the bottom half, the query's pixels flipped by hand `3,4`, "
        "update sync, show the weight matrix W on.")  # q_seed is at its default: not named
    assert lesson.line([(LANDSCAPE.fields["betas"], (2.0, 50.0)), (ET.fields["rows"], (1, 7)),
                        (DENSE.fields["n"], 4)]) == (
        "Settings for this lesson: values of β (up to 4) = 2, 50, rows = 1 to 7, degree n = 4.")
    assert lesson.line([(f["mode"], "async"), (f["q_flip"], ())]) is None


def _row_script():
    import streamlit as st

    from ui.settings.fields import Int
    from ui.settings.layer import Settings

    S = Settings("rowtest", [Int("a", "A", 1, 0, 9), Int("b", "B", 2, 0, 9), Int("c", "C", 3, 0, 9)]).bind()
    c = S.row(["a", "b", "c"], widths=[1, 2, 3])
    st.session_state["row_result"] = {k: v is not None for k, v in c.items()}
    for key in "abc":
        S.show(key, c[key])


def test_a_row_keeps_the_widths_of_the_controls_that_show():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_row_script)
    at.query_params.update({"b": "5", "b_hide": "1"})
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["row_result"] == {"a": True, "b": False, "c": True}
    weights = [round(c.proto.weight, 3) for c in at.columns]
    assert weights == [0.25, 0.75]  # a : c = 1 : 3, no room for b
    assert [s.key for s in at.slider] == ["rowtest_a", "rowtest_c"]
    assert lines(at) == ["Settings for this lesson: B = 5."]  # a one-letter label keeps its capital

"""Add stores what is chosen when it is clicked (issue 34): a click that comes with the last
pick, before that pick's own rerun, is not lost; with nothing chosen it says what to do."""
from tests.support.apptest import open_app
from ui.shell.sidebar import NOTHING_CHOSEN


def store_heading(at) -> str:
    return next(h.value for h in at.sidebar.header if h.value.startswith("Pattern store"))


def test_a_click_that_comes_with_the_pick_stores_it():
    """The browser sends the list's new value with the click (one run): Add reads the choice
    at the click, not the choice of the run before (which was none, and Add greyed out)."""
    at = open_app("classical")
    assert not at.button(key="add_presets").disabled  # never greyed out: no click is refused
    at.segmented_control(key="preset_group").set_value("shapes").run()
    at.multiselect(key="preset_names").set_value(["circle", "triangle"])
    at.button(key="add_presets").click().run()
    assert store_heading(at) == "Pattern store (5/40)"
    assert [s.key for s in at.session_state["store"]][-2:] == ["shapes/circle", "shapes/triangle"]
    assert at.multiselect(key="preset_names").value == []  # the list is emptied for the next pick


def test_add_with_nothing_chosen_says_what_to_do():
    at = open_app("modern")
    at.button(key="add_presets").click().run()
    assert store_heading(at) == "Pattern store (3/40)"
    assert [w.value for w in at.sidebar.warning] == [NOTHING_CHOSEN]
    at.multiselect(key="preset_names").set_value(["B"])
    at.button(key="add_presets").click().run()
    assert store_heading(at) == "Pattern store (4/40)" and not at.sidebar.warning

"""A link that asks for something the page cannot do says so, in one plain sentence that says what
to write instead, and nothing else changes (ui.settings.link_check, ui.settings.layer): an unknown
name, a hide flag for what has no control, a setting that applies only with another one set, the
pattern store kept as the link set it (presets_hide=1), a speed the player does not offer."""
from tests.support.apptest import open_app
from ui.store.shared_settings import STORE_KEPT


def qp(at, key):
    v = at.query_params[key]
    return v[-1] if isinstance(v, list) else v


def notes(at) -> list[str]:
    return [w.value for w in at.warning]


def test_an_unknown_name_is_named_with_the_one_it_may_mean_and_nothing_else_changes():
    at = open_app("modern", query={"betta": "5", "steps": "40"})
    assert notes(at) == ["The link names `betta`, which is not a setting of this page; it was left out. "
                         "Did you mean beta?"]
    assert "betta" not in at.query_params and qp(at, "steps") == "40" and qp(at, "beta") == "10"


def test_an_unknown_name_with_no_near_one_has_no_guess_and_markup_stays_inert():
    at = open_app("classical", query={"[x](http://evil.example)": "1"})
    [note] = notes(at)
    assert note == ("The link names `[x](http://evil.example)`, which is not a setting of this page; "
                    "it was left out.")


def test_a_setting_of_another_page_is_unknown_here():
    at = open_app("classical", query={"gamma": "0.5"})
    assert notes(at) == ["The link names `gamma`, which is not a setting of this page; it was left out."]


def test_many_unknown_names_are_counted_past_eight():
    at = open_app("classical", query={f"zz{i}": "1" for i in range(11)})
    box = " ".join(notes(at))
    assert box.count("which is not a setting of this page") == 8
    assert "The link names 3 more settings that this page does not have; they were left out." in box


def test_the_names_are_checked_once_a_session():
    at = open_app("modern", query={"betta": "5"})
    at.button(key="dismiss_link_messages").click().run()
    at.switch_page("app_pages/classical.py").run()
    assert not notes(at)


def test_a_hide_flag_for_what_has_no_control_says_so():
    at = open_app("classical", query={"presenter_hide": "1", "q_image_hide": "1"})
    box = " ".join(notes(at))
    assert ("The link asks to hide presenter (Presenter mode), which has no control to hide; leave "
            "presenter_hide out.") in box
    assert "The link asks to hide q_image (the uploaded query image)" in box
    assert "presenter_hide" not in at.query_params


def test_a_setting_that_needs_another_says_what_to_add():
    at = open_app("attention", query={"at_beta": "20"})  # its old name; beta set by hand is off
    assert notes(at) == ["The link sets at_beta = `20` (β), which applies only with bhand=1 (Set β by "
                         "hand); add bhand=1 to the link to use it."]
    assert "beta" not in at.query_params  # not in use, not carried
    at = open_app("attention", query={"beta": "50", "bhand": "1"})
    assert not notes(at) and qp(at, "beta") == "50"


def test_an_empty_dependent_setting_says_nothing():
    at = open_app("energy_transformer", query={"src": "photo", "img": ""})
    assert not [n for n in notes(at) if "applies only with" in n]


def test_the_sidebar_corruption_amount_needs_a_corruption_that_reads_it():
    at = open_app("classical", query={"q_corruption": "invert", "q_amount": "0.5"})
    assert any("The link sets q_amount = `0.5` (Amount), which applies only with q_corruption=flip or "
               "q_corruption=noise or q_corruption=mask" in n for n in notes(at))


def test_presets_hide_keeps_the_store_as_the_link_set_it():
    at = open_app("classical", query={"presets": "letters/A,letters/B", "presets_hide": "1"})
    assert not notes(at)
    assert STORE_KEPT in [c.value for c in at.sidebar.caption]
    keys = {b.key for b in at.button}
    assert not {"add_presets", "clear_store"} & keys
    assert not [k for k in keys if k.startswith("remove_") or "_draw_" in k]
    assert [u.key for u in at.get("file_uploader")] == ["q_uploader"]  # the query's, not the store's
    assert qp(at, "presets_hide") == "1" and qp(at, "presets") == "letters/A,letters/B"
    at = open_app("classical", query={"presets": "letters/A,letters/B"})  # without it: editable
    assert {"add_presets", "clear_store"} <= {b.key for b in at.button}


def test_the_play_speed_is_kept_in_the_link_and_a_bad_one_is_named():
    at = open_app("classical", query={"speed": "2"})
    assert not notes(at) and qp(at, "speed") == "2"
    at = open_app("classical", query={"speed": "3"})
    assert notes(at) == ["The link sets speed = `3`, which the player does not offer (0.5, 1, 2, 4); "
                         "using 1, the normal pace."]
    assert "speed" not in at.query_params

"""The link's values that no widget of the sidebar holds (the pattern store `presets`, the
uploaded query image `q_image`, presenter mode) are fields of the settings layer too
(ui.store.shared_settings.LINK): read from the link by their parsers, without side effects (so a
link typed into page text can be checked against them), named in whole sentences when they
cannot be used, put in use by the store, and written back to the address bar by the layer."""
from tests.support.apptest import open_app
from ui.pages.classical.settings import SETTINGS as CLASSICAL
from ui.store import store
from ui.store.shared_settings import LINK, SIDEBAR

PRESETS, Q_IMAGE, PRESENTER = (LINK.fields[k] for k in ("presets", "q_image", "presenter"))
MISSING = "upload/" + "0" * 24


def link_of(at) -> dict:
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def test_the_store_is_read_from_a_link_in_whole_sentences():
    assert PRESETS.parse("letters/A, letters/B") == (("letters/A", "letters/B"), None)
    assert PRESETS.parse("") == ((), None)  # Clear all: an empty store, no message
    keys, notes = PRESETS.parse("letters/A,nope/x,letters/A")
    assert keys == ("letters/A",)
    assert notes == ("There is no preset called `nope/x`.", "A is already stored.")
    assert PRESETS.message("letters/A,nope/x,letters/A", notes, keys) == " ".join(notes)
    assert PRESETS.parse("nope/x")[1][-1] == (
        "None of the link's patterns could be stored: the store is empty. Add presets or upload "
        "images in the sidebar.")


def test_a_link_naming_too_many_patterns_uses_the_first_and_counts_the_rest():
    many = ",".join(["letters/A"] + [f"nope/{i}" for i in range(store.MAX_PATTERNS + 4)])
    keys, notes = PRESETS.parse(many)
    assert keys == ("letters/A",) and len(notes) == store.MAX_LINK_NOTES
    assert notes[0] == (f"The link lists {store.MAX_PATTERNS + 5} patterns; the store holds at "
                        f"most {store.MAX_PATTERNS}: using the first {store.MAX_PATTERNS}.")
    unusable = 1 + store.MAX_PATTERNS - 1  # the count's note, then the nope/ keys among the first
    shown = store.MAX_LINK_NOTES - 1
    assert notes[-1] == (f"... and {unusable - shown} more of the link's patterns could not be "
                         "stored.")


def test_the_query_image_and_presenter_mode_are_read_and_written_as_before():
    assert Q_IMAGE.parse(MISSING) == (None, (store.missing_upload(MISSING),))
    assert "not a valid upload name" in Q_IMAGE.parse("upload/x")[1][0]
    assert [PRESENTER.parse(t)[0] for t in ("1", "true", "0", "yes", "")] == [True, True, False,
                                                                              False, False]
    assert PRESENTER.parse("zz")[1] is None  # any other value: off, as it always was
    assert (PRESENTER.shown(True), PRESENTER.shown(False), Q_IMAGE.shown(None)) == ("1", None, None)
    assert PRESETS.shown(("letters/A", "drawn/8/ff00")) == "letters/A,drawn/8/ff00"


def test_reading_a_link_has_no_side_effect_until_the_layer_puts_it_in_use():
    at = open_app("classical", query={"presets": "letters/A,letters/B", "presenter": "1"})
    stored = [s.key for s in at.session_state["store"]]
    assert stored == ["letters/A", "letters/B"] and at.session_state["presenter"] is True
    PRESETS.parse("letters/C")  # a parse alone (a link in page text checked) stores nothing
    assert [s.key for s in at.session_state["store"]] == stored


def test_every_value_in_the_address_bar_is_a_declared_field():
    at = open_app("classical", query={"presets": "letters/A,letters/B", "presenter": "1",
                                      "q_image": MISSING})
    written = link_of(at)
    assert written["presets"] == "letters/A,letters/B" and written["presenter"] == "1"
    assert "q_image" not in written  # an upload this server lacks is not shared again
    declared = {**SIDEBAR.fields, **LINK.fields, **CLASSICAL.fields}
    assert set(written) <= set(declared), set(written) - set(declared)
    at.toggle(key="presenter").set_value(False).run()
    assert "presenter" not in link_of(at)  # off is left out of the link
    at.button(key="clear_store").click().run()
    assert link_of(at)["presets"] == ""


def test_leave_presenter_mode_turns_it_off_through_the_layer():
    at = open_app("classical", query={"presenter": "1"})
    assert LINK.fields["presenter"].kind == "kept" and link_of(at)["presenter"] == "1"
    at.button(key="leave_presenter").click().run()
    assert not at.exception and at.session_state["presenter"] is False
    assert "presenter" not in link_of(at) and "leave_presenter" not in [b.key for b in at.button]

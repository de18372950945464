"""Bad uploads through the real uploader widget: a clear message, the store intact."""
import pytest
from streamlit.testing.v1 import AppTest

from tests.support.apptest import APP, TIMEOUT
from tests.support.badfiles import BAD, bad_uploads, encode, photo
from tests.support.player import payload


def store_header(at) -> str:
    return next(h.value for h in at.sidebar.header if h.value.startswith("Pattern store"))


@pytest.fixture
def at():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    at.switch_page("app_pages/classical.py").run()
    return at


@pytest.mark.parametrize("name, data, message", bad_uploads(), ids=[c[0] for c in bad_uploads()])
def test_each_bad_upload_is_explained_and_nothing_is_lost(at, name, data, message):
    before = payload(at, "classical")["panels"]["energy_metric"]["value"]
    at.file_uploader(key="uploader").set_value((name, data, "image/png")).run()
    assert not at.exception
    errors = [e.value for e in at.sidebar.error]
    assert errors and errors[0].startswith(f"`{name}`: ")  # the name as plain text
    import re
    assert re.search(message, errors[0])
    assert store_header(at) == "Pattern store (3/40)"
    assert payload(at, "classical")["panels"]["energy_metric"]["value"] == before  # the page still runs on the stored patterns


def test_good_and_bad_files_together(at):
    good = encode(photo(), "PNG")
    at.file_uploader(key="uploader").set_value([
        ("holiday.png", good, "image/png"), ("notes.png", b"%PDF-1.4 ...", "image/png"),
    ]).run()
    assert store_header(at) == "Pattern store (4/40)"
    assert [e.value.split(":")[0] for e in at.sidebar.error] == ["`notes.png`"]
    # the same upload is not added twice on the next rerun
    at.run()
    assert store_header(at) == "Pattern store (4/40)"


def test_the_store_cap_is_reported(at):
    at.segmented_control(key="preset_group").set_value("letters").run()
    at.multiselect(key="preset_names").set_value(list("ABCDEFGIJKLMNPQRSTUVWYZ")).run()
    at.button(key="add_presets").click().run()
    at.segmented_control(key="preset_group").set_value("digits").run()
    at.multiselect(key="preset_names").set_value(list("0123456789")).run()
    at.button(key="add_presets").click().run()
    at.segmented_control(key="preset_group").set_value("shapes").run()
    at.multiselect(key="preset_names").set_value(["circle", "square", "ring"]).run()
    at.button(key="add_presets").click().run()
    assert store_header(at) == "Pattern store (39/40)"
    at.segmented_control(key="preset_group").set_value("photos").run()
    at.multiselect(key="preset_names").set_value(["astronaut", "cat", "coffee", "coins", "horse",
                                                  "rocket"]).run()
    at.button(key="add_presets").click().run()
    assert store_header(at) == "Pattern store (40/40)"
    assert any("The store is full (40 patterns)" in w.value for w in at.sidebar.warning)
    assert not at.exception


def test_a_bad_query_upload_keeps_the_stored_query(at):
    at.file_uploader(key="q_uploader").set_value(("q.png", b"", "image/png")).run()
    assert any("`q.png`: The file is empty" in e.value for e in at.sidebar.error)
    assert not at.exception
    good = encode(photo(), "PNG")
    at.file_uploader(key="q_uploader").set_value(("q.png", good, "image/png")).run()
    assert not at.sidebar.error and not at.exception


def test_a_mangled_link_falls_back_to_defaults():
    from tests.support.apptest import open_app
    at = open_app("classical", query={"size": "47", "q_corruption": "smudge", "q_amount": "7",
                                      "q_seed": "-3", "binarize": "maybe", "presets": "letters/A,nope/x,,",
                                      "mode": "sideways", "T": "hot", "colour": "1"})
    assert not at.exception
    assert at.select_slider(key="size").value == 32
    assert at.selectbox(key="q_corruption").value == "flip"
    assert at.slider(key="q_amount").value == 1.0  # clamped into 0 to 1
    assert at.number_input(key="q_seed").value == 0
    assert store_header(at) == "Pattern store (1/40)"
    notes = " ".join(w.value for w in at.warning)
    for named in ("size = `47`", "q_corruption = `smudge`", "q_amount = `7`", "q_seed = `-3`",
                  "binarize = `maybe`", "`nope/x`", "mode = `sideways`", "T = `hot`"):
        assert named in notes, named


@pytest.mark.parametrize("name, data, said", [
    ("drawing.svg", BAD["svg"][0], "SVG drawing"), ("photo.heic", BAD["heic"][0], "HEIC"),
    ("scan.tiff", encode(photo(), "TIFF"), "TIFF")])
def test_a_file_of_another_kind_is_explained_on_every_uploader(at, name, data, said):
    """Streamlit's own check of the extension raised an error on the page (StreamlitAPIException:
    Invalid file extension): the uploaders leave the check to load_image, which explains it."""
    for count, key in enumerate(("uploader", "q_uploader"), start=1):
        at.file_uploader(key=key).set_value((name, data, "image/x")).run()
        assert not at.exception
        explained = [e for e in at.sidebar.error if e.value.startswith(f"`{name}`: ") and said in e.value]
        assert len(explained) == count, key  # the store's uploader's, then the query's too
    assert store_header(at) == "Pattern store (3/40)"
    at.switch_page("app_pages/energy_transformer.py").run()
    at.radio(key="energy_transformer_src").set_value("upload").run()
    at.file_uploader(key="energy_transformer_upload").set_value((name, data, "image/x")).run()
    assert not at.exception and any(said in e.value for e in at.error)

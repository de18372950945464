"""The sidebar shows only what applies to the page at hand; what it does not show stays in use."""
import pytest

from tests.support.apptest import open_app, open_tab
from ui import pages


def panels(at) -> set[str]:
    heads = {h.value for h in at.sidebar.header}
    out = set()
    if any(h.startswith("Pattern store") for h in heads):
        out.add("store")
    if "How images become patterns" in heads:
        out.add("representation")
    if "The query" in heads:
        out.add("query")
    if "binarize" in [r.key for r in at.sidebar.radio]:
        out.add("binarize")
    return out


PANELS = {  # every page of the navigation (ui/pages/__init__.py): the panels it opens with
    "home": set(),
    "classical": {"store", "representation", "binarize", "query"},
    "dense": {"store", "representation", "binarize", "query"},
    "side_by_side": {"store", "representation", "binarize", "query"},
    "modern": {"store", "representation", "query"},
    "attention": {"store", "representation", "query"},
    "energy_transformer": set(),
    "landscape": set(),  # its sections' panels: test_the_landscape_sidebar_follows_its_section
    "capacity_lab": set(),
    "learning": set(),  # the default section draws its own points; "images" uses the store
    "attention_family": {"store", "representation", "query"},
    "transformer_heads": set(),  # its own inputs: a sentence or a held-out digit
    "lessons": set(),  # lessons, not patterns
}


@pytest.mark.parametrize("page", [p.file for p in pages.PAGES])
def test_each_page_shows_the_panels_it_uses(page):
    at = open_app(None if page == "home" else page)
    assert panels(at) == PANELS[page]  # a page added to the registry needs its line above
    assert "presenter" in [t.key for t in at.sidebar.toggle]  # every page: presenter mode


def test_the_landscape_sidebar_follows_its_section():
    at = open_app("landscape")
    assert panels(at) == set()  # the 2-D world uses no stored pattern
    for view, expected in (("plane", {"store", "representation", "query"}),
                           ("slice", {"store", "representation"}), ("states", set())):
        open_tab(at, "landscape_view", view)
        assert panels(at) == expected, view
    at.radio(key="landscape_bsrc").set_value("store").run()
    assert panels(at) == {"store"}


def test_a_hidden_panel_keeps_its_values():
    at = open_app("classical", query={"size": "8", "q_seed": "7", "binarize": "dither"})
    at.switch_page("app_pages/energy_transformer.py").run()
    assert panels(at) == set()
    at.switch_page("app_pages/modern.py").run()  # no binarisation on a continuous page
    at.switch_page("app_pages/classical.py").run()
    assert at.select_slider(key="size").value == 8
    assert at.number_input(key="q_seed").value == 7
    assert at.radio(key="binarize").value == "dither"
    v = at.query_params
    assert {k: (v[k][-1] if isinstance(v[k], list) else v[k]) for k in ("size", "q_seed", "binarize")} == \
        {"size": "8", "q_seed": "7", "binarize": "dither"}


# ---------------------------------------------------------------- the store and the query

def test_a_link_to_an_empty_store_is_no_warning():
    """Clear all writes `presets=` into the address bar: an empty store the app itself wrote."""
    at = open_app("classical")
    at.button(key="clear_store").click().run()
    link = {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}
    assert link["presets"] == ""
    reloaded = open_app("classical", query=link)
    assert not reloaded.warning and reloaded.session_state["store"] == []
    assert any("The store is empty" in i.value for i in reloaded.sidebar.info)
    unusable = open_app("classical", query={"presets": "nope/x"})  # still said when it matters
    assert any("None of the link's patterns could be stored" in w.value for w in unusable.warning)


def query_controls(at) -> dict[str, bool]:
    """The query panel's controls: key -> disabled."""
    out = {}
    for kind in ("selectbox", "slider", "number_input"):
        for w in getattr(at.sidebar, kind):
            if w.key in ("q_index", "q_corruption", "q_amount", "q_seed"):
                out[w.key] = bool(w.disabled)
    return out


def test_an_uploaded_query_hides_the_pattern_to_start_from_and_keeps_the_corruption():
    from tests.support.badfiles import encode, photo
    at = open_app("classical")
    assert query_controls(at) == dict.fromkeys(("q_index", "q_corruption", "q_amount", "q_seed"), False)
    at.file_uploader(key="q_uploader").set_value(("street_4000x3000.png", encode(photo(seed=77), "PNG"),
                                                  "image/png")).run()
    assert query_controls(at) == dict.fromkeys(("q_corruption", "q_amount", "q_seed"), False)
    said = [c.value for c in at.sidebar.caption if c.value.startswith("The query is the uploaded")]
    assert said == ["The query is the uploaded image `street_4000x3000`, not a stored pattern; "
                    "the corruption below is applied to it."]
    at.button(key="q_image_clear").click().run()
    assert "q_index" in query_controls(at)


@pytest.mark.parametrize("kind, amount_off, seed_off, note", [
    ("flip", False, False, None), ("noise", False, False, None),
    ("mask", False, True, "The seed does not apply to “mask a square”."),
    ("half", True, True, "The amount and the seed do not apply to “hide the bottom half”."),
    ("invert", True, True, "The amount and the seed do not apply to “invert”."),
    ("none", True, True, "No corruption: the amount and the seed do not apply.")])
def test_the_amount_and_the_seed_are_greyed_out_where_they_do_not_apply(kind, amount_off, seed_off, note):
    at = open_app("classical", query={"q_corruption": kind})
    controls = query_controls(at)
    assert (controls["q_amount"], controls["q_seed"]) == (amount_off, seed_off)
    notes = [c.value for c in at.sidebar.caption if "not apply" in c.value]
    assert notes == ([note] if note else [])


def test_the_greyed_out_controls_are_those_the_corruption_ignores():
    """An oracle for USES_AMOUNT / USES_SEED: hopfield_core.images.corrupt itself."""
    import numpy as np

    from hopfield_core.images import CORRUPTIONS, corrupt
    from ui.shell.sidebar import USES_AMOUNT, USES_SEED
    x = np.where(np.random.default_rng(0).random(64) < 0.5, -1.0, 1.0)  # (d,) an 8 x 8 pattern
    for kind in CORRUPTIONS:  # continuous, so that no noise hides under a sign
        base = corrupt(x, (8, 8), kind, 0.3, rng=1, binary=False)
        reads_amount = not np.array_equal(base, corrupt(x, (8, 8), kind, 0.6, rng=1, binary=False))
        reads_seed = not np.array_equal(base, corrupt(x, (8, 8), kind, 0.3, rng=2, binary=False))
        assert (reads_amount, reads_seed) == (kind in USES_AMOUNT, kind in USES_SEED), kind


def test_an_upload_is_named_as_written():
    from tests.support.badfiles import encode, photo
    at = open_app("classical")
    at.file_uploader(key="uploader").set_value(("phone_4000x3000 (2).png", encode(photo(seed=78), "PNG"),
                                                "image/png")).run()
    assert at.session_state["store"][-1].name == "phone_4000x3000 (2)"
    assert "4. phone_4000x3000 (2)" in at.selectbox(key="q_index").options

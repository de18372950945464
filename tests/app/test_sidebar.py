"""The sidebar shows only what applies to the page at hand; what it does not show stays in use."""
import pytest
from tests.app.conftest import open_app, open_tab


def panels(at) -> set[str]:
    heads = {h.value for h in at.sidebar.subheader}
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


@pytest.mark.parametrize("page, expected", [
    ("home", set()),
    ("classical", {"store", "representation", "binarize", "query"}),
    ("dense", {"store", "representation", "binarize", "query"}),
    ("side_by_side", {"store", "representation", "binarize", "query"}),
    ("modern", {"store", "representation", "query"}),
    ("attention", {"store", "representation", "query"}),
    ("energy_transformer", set()),
])
def test_each_page_shows_the_panels_it_uses(page, expected):
    at = open_app(None if page == "home" else page)
    assert panels(at) == expected
    assert "presenter" in [t.key for t in at.sidebar.toggle]  # every page: presenter mode


def test_the_landscape_sidebar_follows_its_section():
    at = open_app("landscape")
    assert panels(at) == set()  # the 2-D world uses no stored pattern
    for view, expected in (("plane", {"store", "representation", "query"}),
                           ("slice", {"store", "representation"}), ("states", set())):
        open_tab(at, "ls_tab", view)
        assert panels(at) == expected, view
    at.radio(key="ls_bsrc").set_value("store").run()
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

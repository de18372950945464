"""The app starts and the home page says what it is."""
from tests.support.apptest import ROOT, open_app
from ui import pages


def test_home_page_renders_without_exceptions():
    at = open_app()
    assert at.title[0].value == "Hopfield energy landscapes"
    text = " ".join(m.value for m in at.markdown)
    for name in ("Hopfield, 1982", "Krotov", "Ramsauer", "attention", "Energy Transformer"):
        assert name in text
    assert len(at.latex) >= 3


def test_home_links_every_page_of_the_navigation():
    at = open_app()
    linked = sorted(p.proto.page for p in at.get("page_link"))
    assert linked == sorted(p.file for p in pages.PAGES if not p.default)


def test_the_registry_lists_every_page_script_once():
    scripts = sorted(p.name for p in (ROOT / "app_pages").glob("*.py"))
    assert sorted(f"{p.file}.py" for p in pages.PAGES) == scripts
    assert [p.default for p in pages.PAGES].count(True) == 1


def test_home_drops_a_links_junk_from_the_address_bar():
    at = open_app(query={"foo": "1", "d": "abc", "T_hide": "1", "x": "<b>"})
    assert "presets" in at.query_params  # the store's default, as every page writes it
    assert not {"foo", "d", "T_hide", "x"} & set(at.query_params)
    at = open_app(query={"foo": "1", "presenter": "1", "q_seed": "zz"})
    assert at.query_params.get("presenter") == "1" and "foo" not in at.query_params
    assert at.query_params.get("q_seed") != "zz"  # the value in use, not the bad one
    assert any("The link sets q_seed = `zz`" in w.value for w in at.warning)  # still named


def test_a_links_store_and_shared_settings_survive_home():
    """Home uses neither, but a reload of Home (a new session) must not lose the lesson: the
    address bar keeps them, and the page that uses them finds them."""
    at = open_app(query={"presets": "letters/A,letters/B", "size": "12", "junk": "1"})
    qp = dict(at.query_params)
    assert qp["presets"] == "letters/A,letters/B" and qp["size"] == "12" and "junk" not in qp
    at.switch_page("app_pages/classical.py").run()
    qp = dict(at.query_params)
    assert qp["presets"] == "letters/A,letters/B" and qp["size"] == "12" and "junk" not in qp


def test_the_page_links_come_under_the_introduction_and_the_formulas_fit_a_phone():
    """On a 390 px phone the page links lie within the first two screens (issue 30; measured
    in tests/e2e/test_devices_e2e.py): they come straight after the introduction, before the
    road. The modern energy, too wide for a phone on one line, takes two."""
    at = open_app()
    order = []

    def walk(node):
        if getattr(node, "type", None) in ("page_link", "header", "subheader", "markdown"):
            order.append(node.type if node.type == "page_link" else node.value)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    first_link = order.index("page_link")
    road = order.index("The road from 1982 to the Transformer")
    assert order.index(next(x for x in order if x.startswith("An associative memory"))) \
        < first_link < road
    assert order.count("page_link") == len([p for p in pages.PAGES if not p.default])
    modern = next(x.value for x in at.latex if "E_{\\mathrm{modern}}" in x.value)
    assert "\\begin{aligned}" in modern and modern.count("\\\\") == 1

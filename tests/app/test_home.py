"""The app starts and the home page says what it is."""
from tests.app.conftest import ROOT, open_app
from ui import page_registry


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
    assert linked == sorted(p.file for p in page_registry.PAGES if not p.default)


def test_the_registry_lists_every_page_script_once():
    scripts = sorted(p.name for p in (ROOT / "app_pages").glob("*.py"))
    assert sorted(f"{p.file}.py" for p in page_registry.PAGES) == scripts
    assert [p.default for p in page_registry.PAGES].count(True) == 1

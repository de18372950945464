"""The app starts and the home page says what it is."""
from tests.app.conftest import ROOT, open_app


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
    pages = sorted(line.split('"app_pages/')[1].split(".py")[0]
                   for line in (ROOT / "streamlit_app.py").read_text().splitlines() if '"app_pages/' in line)
    assert linked == sorted(p for p in pages if p != "home")

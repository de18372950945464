"""The app starts and the home page says what it is."""
from tests.app.conftest import open_app


def test_home_page_renders_without_exceptions():
    at = open_app()
    assert at.title[0].value == "Hopfield energy landscapes"
    text = " ".join(m.value for m in at.markdown)
    for name in ("Hopfield, 1982", "Krotov", "Ramsauer", "attention", "Energy Transformer"):
        assert name in text
    assert len(at.latex) >= 3

"""The app starts and the home page says what it is."""
from pathlib import Path

from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "app.py")

TIMEOUT = 60  # importing torch alone can take longer than AppTest's 3 s default


def test_home_page_renders_without_exceptions():
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception
    assert at.title[0].value == "Hopfield energy landscapes"
    text = " ".join(m.value for m in at.markdown)
    for name in ("Hopfield, 1982", "Krotov", "Ramsauer", "attention", "Energy Transformer"):
        assert name in text
    assert len(at.latex) >= 3

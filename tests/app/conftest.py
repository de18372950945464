"""AppTest helpers: start the real app.py and switch to a page, as a browser would."""
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "streamlit_app.py")  # the script that app.py serves
TIMEOUT = 60  # importing torch alone can take longer than AppTest's 3 s default


def open_app(page: str | None = None, query: dict | None = None) -> AppTest:
    """The app opened on `page` (None: Home) with the link's `query`, as a browser opens a link:
    the page's own run is the session's first (Home would rewrite the address bar)."""
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    if page:
        at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def app():
    return open_app


def open_tab(at: AppTest, key: str, name: str) -> AppTest:
    """Open a page's section (a segmented field of the page's settings: only the chosen section runs), as a click would."""
    at.button_group(key=key).set_value(name).run()
    assert not at.exception, at.exception
    return at

"""Fixtures of the load tests: a fresh `streamlit run app.py` per test (tests/support/server.py)."""
import pytest

from tests.support.server import Server


@pytest.fixture
def server():
    """A fresh server, warmed and healthy (skipped, saying why, when it cannot start); stopped
    after the test. A test module may define its own."""
    s = Server()
    s.skip_unless_healthy()
    yield s
    s.stop()

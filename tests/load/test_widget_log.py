"""Issue 44: crafted websocket messages (component state that is not JSON, a 5,000-digit
number, nesting 2,000 deep, a radio sent a number where Streamlit keeps its option's text) each wrote a traceback of about
100 lines to the server's log. Against a real server: each is one short line naming the session
and the widget, a session that keeps sending them is cut to ui.serving.widget_log.LINES lines a
minute, only the sender's page fails, and the log holds no traceback."""
from __future__ import annotations

import re
import time

import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState

from tests.support.server import Server, tracebacks
from tests.support.st_client import OK, StClient, opened
from ui.serving import widget_log

LINE = re.compile(r"session (\w+): widget '([^']+)' holds a value Streamlit cannot read \((\w+): ")


@pytest.fixture(scope="module")
def server():
    s = Server()
    s.skip_unless_healthy(timeout=90)
    yield s
    s.stop()


def send(c: StClient, el, **value) -> None:
    ws = WidgetState(id=el.id, **value)
    c._values[el.id] = ws  # as a crafted client would: straight into the rerun's widget states
    c._rerun("crafted", fragment_id="")


def by_key(c: StClient, key: str):
    return next(el for el in c.elements.values() if el.id.endswith("-" + key))


CRAFTED = {
    "not json": ("energy_transformer", "energy_transformer_query_grid", {"json_value": "{not json"}, "JSONDecodeError"),
    "5,000 digits": ("energy_transformer", "energy_transformer_query_grid", {"json_value": "9" * 5000}, "ValueError"),
    "2,000 deep": ("energy_transformer", "energy_transformer_query_grid", {"json_value": "[" * 2000 + "]" * 2000}, "RecursionError"),
    "radio of the wrong type": ("classical", "classical_mode", {"int_value": 99}, "TypeError"),
}


def test_each_crafted_value_is_one_line_and_a_flood_of_them_is_cut(server):
    start = len(server.log().splitlines())
    sessions = {}
    for name, (page, key, value, _) in CRAFTED.items():
        c = opened(server.url, page)
        send(c, by_key(c, key), **value)
        assert c.exceptions(), name  # the sender's page fails ...
        sessions[name] = c
    other = opened(server.url, "classical")  # ... and nobody else's
    assert other.set_value("q_seed", 2).status in OK and not other.exceptions()
    flooder = sessions["not json"]
    for _ in range(10):  # the same session, again and again
        flooder.click("energy_transformer_run") if flooder.has("energy_transformer_run") else \
            flooder._rerun("again", fragment_id="")
    time.sleep(1)
    lines = server.log().splitlines()[start:]
    said = [LINE.search(line) for line in lines if "holds a value Streamlit cannot read" in line]
    assert all(said), lines
    kinds = {m.group(3) for m in said}
    assert kinds == {kind for *_, kind in CRAFTED.values()}, kinds
    per_session = {}
    for m in said:
        per_session[m.group(1)] = per_session.get(m.group(1), 0) + 1
    assert max(per_session.values()) == widget_log.LINES, per_session
    assert sum("not logged for 60 s" in line for line in lines) == 1
    assert len(lines) <= len(CRAFTED) * widget_log.LINES + 5, lines  # no traceback's 100 lines
    assert not tracebacks("\n".join(lines)), tracebacks("\n".join(lines))[0]
    for c in [*sessions.values(), other]:
        c.close()

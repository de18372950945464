"""AppTest helpers: the real app (streamlit_app.py, as app.py serves it) opened on a page with a
link, a section opened or an expander of numbers, as a browser would; and readers of what a
page sent (Plotly's typed arrays, chart ids, the grid component's cells, the order of elements)."""
from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
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


def open_tab(at: AppTest, key: str, name: str) -> AppTest:
    """Open a page's section (a segmented field of the page's settings: only the chosen section runs), as a click would."""
    at.button_group(key=key).set_value(name).run()
    assert not at.exception, at.exception
    return at


def array(z):
    """Plotly 6 sends arrays as typed buffers {dtype, bdata, shape}; older ones as lists."""
    if isinstance(z, dict):
        flat = np.frombuffer(base64.b64decode(z["bdata"]), dtype=z["dtype"])
        if "shape" not in z:  # one-dimensional
            return flat
        return flat.reshape(tuple(int(s) for s in str(z["shape"]).split(",")))
    return np.asarray(z, dtype=float)


def chart_ids(at) -> dict[str, dict]:
    """Element key -> (element id, title) of every Plotly chart on the page."""
    out = {}
    for c in at.get("plotly_chart"):
        key = c.proto.id.rsplit("-", 1)[-1]
        title = (json.loads(c.proto.spec)["layout"].get("title") or {}).get("text")
        out[key] = (c.proto.id, title)
    return out


def open_numbers(at, key: str):
    """Open the "Show the numbers" expander `key` (ui.charts.chart_numbers: its tables are built only
    while it is open), as a click would."""
    at.session_state[f"{key}_open"] = True
    at.run()
    assert not at.exception, at.exception
    return at


def click(r, c, seq):
    """A click on (or Space at) the cell (r, c): the grid's seq-th edit."""
    return {"ops": [[seq, r, c, r, c]]}


def grid_sent(at, key):
    """What the server last sent the browser's grid `key` (ui/store/grid_editor.py)."""
    sent = [e.proto for e in at.get("bidi_component") if e.proto.id.endswith(f"-{key}")]
    assert len(sent) == 1, key
    return json.loads(sent[0].json)


def in_order(at) -> list[str]:
    """The main area from the top: each chart and browser player as its key, each caption,
    subheader and metric label as its text."""
    out = []

    def walk(node):
        kind = getattr(node, "type", None)
        if kind == "plotly_chart" or getattr(getattr(node, "proto", None), "component_name", "") == "hopfield_player":
            out.append(node.proto.id.rsplit("-", 1)[-1])
        elif kind in ("caption", "header", "subheader", "title"):
            out.append(node.value)
        elif kind == "metric":
            out.append(node.label)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    return out


def where(order: list[str], start: str) -> int:
    return next(i for i, x in enumerate(order) if x.startswith(start))


def check_presenter_layout(page: str, lede: str) -> None:
    """Presenter mode (issue 30): the player, the state's picture and the energy curve share
    the row under the run's status (the verdict at the end), and the lede (`lede`: how it starts) follows them, so all
    three fit a 1024 x 768 projector's first screen; plain, the lede stays above the player."""
    from tests.support.player import payload

    at = open_app(page, query={"presenter": "1"})
    status, first, *rest = payload(at, page)["layout"]
    assert status == [["notes", 1]]  # the status, then the verdict, above the figures
    assert [pid for pid, _ in first] == ["controls", "state", "energy"]
    assert payload(at, page)["mode"] == "presenter"
    order = page_order(at.main)
    at_lede = next(i for i, e in enumerate(order) if e.startswith(lede))
    assert order.index(f"{page}_player") < at_lede
    plain_at = open_app(page)
    assert [pid for pid, _ in payload(plain_at, page)["layout"][0]] == ["controls"]
    plain = page_order(plain_at.main)
    assert next(i for i, e in enumerate(plain) if e.startswith(lede)) < plain.index(f"{page}_player")
    assert not at.exception


def bar_under_the_plot(fig: dict) -> None:
    """The contour's colour bar lies under the square plot, centred, at most 60 % of the plot
    area's width, in a bottom margin of its own: beside the plot it took a phone's width from
    it (issue 30)."""
    bar = next(t for t in fig["data"] if t["type"] == "contour")["colorbar"]
    assert bar["orientation"] == "h" and bar["yref"] == "container" and bar["y"] == 0
    assert bar["xanchor"] == "center" and bar["x"] == 0.5 and bar["len"] <= 0.6
    assert fig["layout"]["margin"]["b"] >= bar["thickness"] + 40  # the bar, its ticks, its title


def nodes(node):
    """`node` and every element and block under it, in page order."""
    yield node
    for c in getattr(node, "children", {}).values():
        yield from nodes(c)


def page_order(node) -> list[str]:
    """Under `node` in page order: each widget's and keyed block's key, each caption's text."""
    return [n.value if getattr(n, "type", "") == "caption" else n.proto.id.rsplit("-", 1)[-1]
            for n in nodes(node)
            if getattr(n, "type", "") == "caption" or getattr(getattr(n, "proto", None), "id", "")]

"""What the class sees of a live class on the projector, as pure pieces (no Streamlit): the join
link and its QR code (segno, made here: nothing fetched), and the histogram of the class's
answers with the model's answer marked after the reveal."""
from __future__ import annotations

import io
import math
from urllib.parse import urlencode

import plotly.graph_objects as go
import segno

from ui.charts import style
from ui.charts.figures import BLUE, GREEN, GREY, figure

JOIN = "join"        # the link's parameter that carries a class code to Home
QR_SCALE = 8         # px a module: a version 3 code (29 modules + the quiet zone) is 296 px wide
QR_BORDER = 4        # the quiet zone the standard asks for, in modules
OPTION_CHARS = 40    # an option's words beside its bar
NARROWEST_PX = 300   # the histogram's narrowest: a phone's class bar, the teacher's column at 1024 px


def join_url(app_root: str, code: str) -> str:
    """The link that joins class `code` (Home reads it): what the QR code holds."""
    return f"{app_root.rstrip('/')}/?{urlencode({JOIN: code})}"


def qr_png(url: str, scale: int = QR_SCALE) -> bytes:
    """The QR code of `url` as a PNG, black on white, error correction M (15 % of it may be
    covered or washed out by a projector and it still reads), the standard's 4-module quiet zone."""
    buf = io.BytesIO()
    segno.make(url, error="m", micro=False).save(buf, kind="png", scale=scale, border=QR_BORDER,
                                                   dark="#000000", light="#ffffff")
    return buf.getvalue()


def shares(counts: dict, options: list) -> list[tuple[str, str, int, float]]:
    """(option id, label, count, share of the answers) for each option in order, then any
    answered option the list does not name (an answer from before the app changed)."""
    total = sum(counts.values()) or 1
    named = [(key, label) for key, label in options]
    named += [(key, key) for key in counts if key not in {k for k, _ in named}]
    return [(key, label, int(counts.get(key, 0)), counts.get(key, 0) / total) for key, label in named]


def histogram(counts: dict, options: list, right: str | None = None, height: int = 300) -> go.Figure:
    """The class's answers, one bar per option (labels: the options' words), each bar's count and
    share written on it; after the reveal (`right`: the model's option) its bar green, the others
    grey, and the title says the class's share that chose it. Never who answered what."""
    rows = shares(counts, options)
    labels = [label for _, label, _, _ in rows]
    n = [c for _, _, c, _ in rows]
    total = sum(n)
    colours = [BLUE if right is None else GREEN if key == right else GREY for key, _, _, _ in rows]
    text = [f"{c} ({share:.0%})" if total else "0" for _, _, c, share in rows]
    bar = go.Bar(y=labels, x=n, orientation="h", marker_color=colours, text=text, textposition="outside",
                 textfont=dict(size=14), cliponaxis=False, hovertemplate="%{y}: %{x}<extra></extra>")
    if right is None:
        title = f"Predictions so far: {total}"
    else:
        hit = next((share for key, _, _, share in rows if key == right), 0.0)
        title = f"{hit:.0%} chose the model's answer ({total} predictions)"
    top = max(n, default=0)
    step = max(1, math.ceil(top / 5))  # whole students only, at most about five ticks
    return figure(bar, title, style.rows_height(len(rows), height), width_px=NARROWEST_PX,
                  yaxis=style.row_axis(labels, OPTION_CHARS),
                  xaxis=dict(title="students", range=[0, max(1, top) * 1.4], dtick=step, tickformat="d"))  # room for the counts

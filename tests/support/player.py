"""Reading the browser player (ui/player/browser.py) in AppTest: the payload a page sent, and
what the browser shows at a step (the same lookups browser_player.js does: a chart's figure, a
picture's pixels and alt text, the sentence, the metric, the notes)."""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from ui.player import frames


def element(at, page: str):
    """The page's player element (a components v2 element, AppTest's UnknownElement)."""
    found = [e for e in at.get("bidi_component") if e.proto.component_name == "hopfield_player"
             and e.proto.id.endswith(f"-{page}_player")]
    assert len(found) == 1, f"{len(found)} players of {page!r} on the page"
    return found[0]


def payload(at, page: str) -> dict:
    """The payload the page sent its player (as the browser parses it)."""
    return json.loads(element(at, page).proto.bytes.decode("utf-8"))


def sent_bytes(at, page: str) -> int:
    return len(element(at, page).proto.bytes)


@dataclass
class Step:
    """What the player shows at one step."""
    p: dict
    t: int

    def figure(self, panel: str) -> dict:
        return frames.figure_at(self.p["panels"][panel], self.t)

    def pixels(self, panel: str) -> np.ndarray:
        return frames.pixels_at(self.p["panels"][panel], self.t)

    def alt(self, panel: str) -> str:
        return self.p["panels"][panel]["alt"][self.t]

    def heading(self, panel: str) -> str:
        return self.p["panels"][panel]["heading"][self.t]

    def sentence(self, panel: str = "describe") -> str:
        return self.p["panels"][panel]["text"][self.t]

    def metric(self, panel: str = "energy_metric") -> tuple[str, str, str]:
        """(value, change, tone) of a metric at this step."""
        m = self.p["panels"][panel]
        return m["value"][self.t], m["delta"][self.t], m["tone"][self.t]

    def value(self, panel: str = "energy_metric") -> float:
        return float(self.metric(panel)[0])

    def notes(self, panel: str = "notes", playing: bool = False) -> list[tuple[str, str]]:
        """(kind, text) of each box at this step (the text while playing, if `playing`)."""
        return [(n["kind"], n.get("playing", n["text"]) if playing else n["text"])
                for n in self.p["panels"][panel]["items"][self.t]]

    def texts(self, kind: str, panel: str = "notes") -> list[str]:
        return [text for k, text in self.notes(panel) if k == kind]


def at_step(at, page: str, t: int | str) -> Step:
    """What `page`'s player shows at step t ("end": the last step; negative: from the end), as
    Step, Run and Reset used to put on the page."""
    p = payload(at, page)
    T = p["T"]
    if t == "end":
        t = T
    elif t < 0:
        t = T + 1 + t
    assert 0 <= t <= p["shown"], f"step {t} of a run of {T} ({p['shown']} sent)"
    return Step(p, int(t))


def steps(at, page: str) -> int:
    return payload(at, page)["T"]


def players(at) -> list[str]:
    """The pages whose browser player is on the page."""
    return [e.proto.id.rsplit("-", 1)[-1].removesuffix("_player") for e in at.get("bidi_component")
            if e.proto.component_name == "hopfield_player"]


def chart_specs(at, t: int = 0) -> list[dict]:
    """Every chart the page shows as Plotly JSON: its own charts, then its players' at step t."""
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    for page in players(at):
        p = payload(at, page)
        specs += [frames.figure_at(panel, t) for panel in p["panels"].values() if panel["kind"] == "chart"]
    return specs

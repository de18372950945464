"""The page's main finding rides with the run's verdict (ui/player/dynamics_view.show `finding`):
the modern network's kind of fixed point and k90, the dense page's classical network on the same
query. In presenter mode the verdict sits above the figures (dynamics_frames.layout), on the
projector's first screen (tests/e2e/test_clicker_e2e.py measures it). What the note says is
checked against what the page's own sections compute for the same run."""
import pytest

from tests.support.apptest import open_app
from tests.support.player import at_step, payload
from ui.player import dynamics_frames, frames


def last_note(at, page: str) -> str:
    return at_step(at, page, "end").notes()[0][1]  # at the end the first box is the verdict


@pytest.mark.parametrize("beta", ["10", "3", "1"])  # single, metastable, global
def test_the_modern_verdict_names_the_kind_and_k90_the_summary_shows(beta):
    at = open_app("modern", query={"beta": beta})
    metrics = {m.label: m.value for m in at.metric}
    note = last_note(at, "modern")
    assert f"Fixed point: {metrics['Fixed point']}, k90 = {metrics['k90']} of 3 patterns" in note, note
    assert not any(t for k, t in at_step(at, "modern", 0).notes() if "Fixed point" in t)  # not before the end


def test_the_dense_verdict_says_what_the_classical_network_does_with_the_same_query():
    at = open_app("dense", query={"degree": "4"})
    classical = [a.value for a in (*at.success, *at.warning, *at.error, *at.info)
                 if a.value.startswith("Classical: ")]
    assert len(classical) == 1  # the comparison section, below
    note = last_note(at, "dense")
    assert note.endswith("The classical network (1982), same query: " + classical[0].removeprefix("Classical: "))


def test_presenter_mode_puts_the_verdict_above_the_figures():
    p = payload(open_app("classical", query={"presenter": "1"}), "classical")
    assert p["layout"][0] == [["notes", 1]]
    assert frames.CONTROLS in [c for c, _ in p["layout"][1]]
    plain = payload(open_app("classical"), "classical")
    assert plain["layout"] == dynamics_frames.layout("classical", False) and plain["layout"][-1] == [["notes", 1]]

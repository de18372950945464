"""The browser player's payload (ui/player/frames.py): what each frame names is what the page built
for that step (charts, pictures, texts), sent once; long runs thinned; withheld steps not sent."""
import json

import numpy as np
import plotly.io as pio
import pytest

from ui.charts import figures
from ui.player import frames
from ui.serving.text import ordinal


def as_json(fig) -> dict:
    return json.loads(pio.to_json(fig, validate=False, engine="json"))


def same_figure(got: dict, want: dict) -> None:
    """Equal figures; arrays compared as numbers (a cut curve comes back as a list)."""
    assert got["layout"] == want["layout"]
    assert len(got["data"]) == len(want["data"])
    for a, b in zip(got["data"], want["data"]):
        assert set(a) == set(b)
        for k in a:
            va, vb = frames.values(a[k]), frames.values(b[k])
            if va is not None and vb is not None:
                np.testing.assert_array_equal(va, vb)
            else:
                assert a[k] == b[k], k


def test_a_curve_drawn_up_to_each_step_is_sent_once_and_cut_per_step():
    E = np.cumsum(-np.random.default_rng(0).random(61))
    rises = np.array([7, 30])
    figs = [figures.energy_curve(E, t, rises) for t in range(61)]
    panel = frames.chart(figs)
    for t in range(61):
        same_figure(frames.figure_at(panel, t), as_json(figs[t]))
    # the curve's 61 points once (cut per step), a cursor per step, the rises' two marks once
    # (the first alone is the pair cut to one point)
    assert len(panel["traces"]) == 1 + 61 + 1
    assert len(panel["layouts"]) == 2  # the legend comes with the first rise
    assert sum(isinstance(r, list) for _, refs in panel["frames"] for r in refs) == 60 + (30 - 7)
    whole = len(json.dumps([as_json(f) for f in figs]))
    assert len(frames.encoded(panel)) < whole / 5


def test_bars_that_repeat_cost_nothing_more():
    m = np.array([[0.2, 0.1], [0.9, 0.0], [1.0, 0.0], [1.0, 0.0]])
    figs = [figures.overlap_bars(m[t], ["A", "B"]) for t in range(4)]
    panel = frames.chart(figs)
    assert len(panel["traces"]) == 3 and panel["frames"][2] == panel["frames"][3]
    for t in range(4):
        same_figure(frames.figure_at(panel, t), as_json(figs[t]))


def test_a_picture_per_step_round_trips_its_pixels_and_alt_texts():
    rng = np.random.default_rng(1)
    u8 = rng.integers(0, 256, size=(5, 4, 6, 3), dtype=np.uint8)
    u8[4] = u8[3]
    panel = frames.picture(u8, [f"alt {t}" for t in range(5)], "State")
    assert len(panel["pixels"]) == 4  # the repeated last frame is sent once
    for t in range(5):
        np.testing.assert_array_equal(frames.pixels_at(panel, t), u8[t])
    assert panel["alt"][2] == "alt 2" and panel["heading"] == ["State"] * 5
    with pytest.raises(ValueError):
        frames.picture(u8[..., 0], ["a"] * 5)  # no colour axis
    with pytest.raises(ValueError):
        frames.picture(u8, ["a"] * 4)          # an alt text short


def test_a_payload_checks_its_panels_against_the_run():
    live = frames.live(["a", "b", "c"])
    p = frames.payload("pg", "run", 2, {"describe": live}, [[["controls", 1]], [["describe", 1]]])
    assert p["T"] == p["last"] == p["shown"] == 2 and "steps" not in p
    with pytest.raises(ValueError, match="3 frames, the run 4"):
        frames.payload("pg", "run", 3, {"describe": live}, [])
    with pytest.raises(ValueError, match="not there"):
        frames.payload("pg", "run", 2, {"describe": live}, [[["energy", 1]]])
    with pytest.raises(ValueError):
        frames.metric("E", ["1"], ["-1"], ["green"])  # not a tone
    with pytest.raises(ValueError):
        frames.note("hint", "flag", "x")               # not a box


def test_long_runs_are_thinned_to_every_kth_step_and_the_last():
    assert frames.frame_steps(300) == list(range(301))
    steps = frames.frame_steps(2000)
    assert steps[0] == 0 and steps[-1] == 2000 and len(steps) <= frames.MOST_FRAMES
    assert set(np.diff(steps[:-1])) == {7}
    odd = frames.frame_steps(743)
    assert odd[-1] == 743 and len(odd) <= frames.MOST_FRAMES
    p = frames.payload("pg", "r", 743, {"d": frames.live([str(s) for s in odd])}, [], steps=odd)
    assert p["steps"] == odd and p["last"] == len(odd) - 1 
    assert "every 3rd step and the last (249 of the 744 steps)" in p["note"]
    assert [ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 22, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "111th"]
    with pytest.raises(ValueError):
        frames.payload("pg", "r", 743, {"d": frames.live(["x"] * len(odd))}, [], steps=odd[:-1] + [742])


def test_the_pace_takes_at_least_two_seconds_and_eight_for_100_steps():
    assert frames.pace_ms(1) == 1000 and frames.pace_ms(2) == 1000
    assert frames.pace_ms(5) == 400 and 5 * frames.pace_ms(5) == 2000
    assert frames.pace_ms(25) == 80 and frames.pace_ms(100) == 80 and 100 * frames.pace_ms(100) <= 12_000
    assert frames.pace_ms(300) == 80


def test_withheld_steps_are_not_in_the_payload_at_all():
    E = np.array([3.0, 1.0, 0.5, 0.25])
    secret = np.array([[0.5, 0.5], [0.7, 0.3], [0.9, 0.1], [0.987654, 0.012345]])
    p = frames.payload("pg", "r", 3, {
        "energy": frames.chart([figures.energy_curve(E, t) for t in range(4)]),
        "bars": frames.chart([figures.overlap_bars(secret[t], ["A", "B"]) for t in range(4)]),
        "describe": frames.live([f"step {t}: m = {secret[t, 0]}" for t in range(4)]),
        "state": frames.picture(np.full((4, 2, 2, 3), 9, np.uint8) + np.arange(4, dtype=np.uint8)[:, None, None, None],
                                [f"a{t}" for t in range(4)]),
        "m": frames.metric("E", [str(e) for e in E], ["", "-2", "-0.5", "-0.25"], ["off", "good", "good", "good"]),
        "notes": frames.notes([[frames.note("info", "flag", f"n{t}")] for t in range(4)]),
    }, [])
    w = frames.withheld(p, 0, "Predict first.")
    text = frames.encoded(w).decode()
    assert w["shown"] == w["last"] == w["T"] == 0 and w["held"] == "Predict first."
    for leaked in ("0.987654", "0.25", "n3", "a3", "step 3", '"T":3', '"last":3'):
        assert leaked not in text  # nor how long the run is
    assert frames.values(frames.figure_at(w["panels"]["energy"], 0)["data"][0]["y"]).tolist() == [3.0]
    np.testing.assert_array_equal(frames.pixels_at(w["panels"]["state"], 0), np.full((2, 2, 3), 9))
    whole = frames.withheld(p, 3)
    assert whole["panels"]["describe"] == p["panels"]["describe"] and whole["T"] == 3 and whole["last"] == 3


def test_a_held_long_run_sends_neither_its_thinned_steps_nor_its_note():
    T = 600
    steps = frames.frame_steps(T)
    p = frames.payload("pg", "r", T, {"describe": frames.live([f"step {t}" for t in steps])}, [], steps=steps)
    assert "note" in p and p["steps"][-1] == T
    w = frames.withheld(p, 0, "held")
    assert w["steps"] == [0] and "note" not in w and w["T"] == 0 and str(T) not in frames.encoded(w).decode()


def test_a_column_may_stack_panels_and_a_follower_takes_some_of_them():
    """A layout's column is one panel or a stack of them (the learning page's numbers and curves
    beside its plane); the payload checks every stacked id, and a follower that takes panels out
    of a stack leaves the rest of the stack where it was."""
    n = 3
    texts = frames.live([f"step {t}" for t in range(n)])
    metric = frames.metric("E", ["1", "2", "3"], ["", "", ""], ["off"] * 3)
    panels = {"a": texts, "b": metric, "c": frames.live(["x"] * n), "d": frames.live(["y"] * n)}
    layout = [[[frames.CONTROLS, 1]], [["a", 3], [["b", "c", "d"], 2]]]
    p = frames.payload("page", "run", n - 1, panels, layout)
    with pytest.raises(ValueError, match="'e'"):
        frames.payload("page", "run", n - 1, panels, [[["a", 1], [["b", "e"], 1]]])
    lead, follow = frames.follower(p, ["c"], [[["c", 1]]])
    assert lead["layout"] == [[[frames.CONTROLS, 1]], [["a", 3], [["b", "d"], 2]]]
    lead, _ = frames.follower(p, ["b", "c", "d"], [[["b", 1], ["c", 1], ["d", 1]]])
    assert lead["layout"] == [[[frames.CONTROLS, 1]], [["a", 3]]] and set(lead["panels"]) == {"a"}
    lead, _ = frames.follower(p, ["b", "c"], [[["b", 1], ["c", 1]]])
    assert lead["layout"][1] == [["a", 3], ["d", 2]]  # a stack of one is that panel
    assert follow["follow"] and set(follow["panels"]) == {"c"}

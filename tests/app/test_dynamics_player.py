"""The classical, dense and modern pages' browser player: every frame it sent is what the page's
per-step code shows for that step (the core's run through ui.charts: the energy curve, the
overlap bars, the picture and its alt text, the sentence, the metric, the boxes), and the
payload's size is bounded: a 100-step run well under 1 MB, a 743-step run thinned to 249 frames."""
import json

import numpy as np
import plotly.io as pio

from hopfield_core import ModernHopfield, analysis, fixed_point_kind, k90
from tests.support.apptest import open_app
from tests.support.player import at_step, payload, sent_bytes
from tests.support.samples import HOX, TOL, classical_run, letters, patterns, query
from ui.charts import describe, figures
from ui.player import frames
from ui.player.dynamics_frames import energy_change, status_notes


def as_json(fig) -> dict:
    return json.loads(pio.to_json(fig, validate=False, engine="json"))


def same(got: dict, want: dict) -> None:
    assert got["layout"] == want["layout"]
    for a, b in zip(got["data"], want["data"], strict=True):
        for k in set(a) | set(b):
            va, vb = frames.values(a.get(k)), frames.values(b.get(k))
            if va is not None and vb is not None:
                np.testing.assert_array_equal(va, vb)
            else:
                assert a.get(k) == b.get(k), k


def modern_finding(traj, N: int) -> str:
    """What the modern page says of its fixed point with the verdict, from the core's k90 and kind."""
    w = traj.weights[-1]
    return (f"Fixed point: {fixed_point_kind(w)}, k90 = {k90(w)} of {N} patterns (the fewest holding "
            "90 % of the softmax weight).")


def check_every_frame(at, page: str, traj, X, names, binary: bool, monotone: bool, finding: str = "") -> None:
    p = payload(at, page)
    T = traj.steps
    assert p["T"] == T and p["run"]
    steps = p.get("steps", list(range(T + 1)))
    m_all = analysis.overlaps(traj.states, X)
    rises = analysis.energy_rises(traj.energies)
    final = analysis.verdict(traj, X, binary=binary)
    label = p["panels"]["energy_metric"]["label"]
    for i, t in enumerate(steps):
        shown = at_step(at, page, i)
        same(shown.figure("energy"), as_json(figures.energy_curve(traj.energies, t, rises, title=label)))
        same(shown.figure("overlaps"), as_json(figures.overlap_bars(m_all[t], names)))
        change = energy_change(traj.energies, t, traj.states.dtype)
        assert shown.metric() == (f"{traj.energies[t]:.6g}", change or "", shown.metric()[2])
        assert shown.sentence() == describe.step_sentence(t, T, traj.states, traj.energies, m_all[t], names,
                                                          binary, change, label, final.sentence(names))
        assert shown.alt("state") == describe.image_alt(t, T, m_all[t], names, binary, (16, 16))
        assert shown.heading("state") == f"State at step {t}"
        assert [n["text"] for n in p["panels"]["notes"]["items"][i]] == [
            n["text"] for n in status_notes(t, T, final.kind, final.sentence(names), rises, monotone, "", finding)]
        lo, hi = (-1.0, 1.0) if binary else (X.min(), X.max())
        want = np.round(np.clip((traj.states[t].reshape(16, 16) - lo) / (hi - lo), 0, 1) * 255)
        np.testing.assert_array_equal(shown.pixels("state")[..., 0], want)


def test_the_classical_players_frames_are_the_steps_of_the_run():
    at = open_app("classical")
    ref = classical_run("HOX", 0, "flip", 0.2, 0, "async")
    check_every_frame(at, "classical", ref, letters("HOX"), ["H", "O", "X"], True, True)
    assert at_step(at, "classical", 1).metric()[2] == "good"  # a fall, in green
    assert at_step(at, "classical", "end").metric() == (f"{ref.energies[-1]:.6g}", "no change", "off")
    assert not at.exception


def test_the_modern_players_frames_are_the_steps_of_the_run_and_a_long_run_is_thinned():
    X = patterns(HOX)
    at = open_app("modern", query={"gamma": "0.3"})
    ref = ModernHopfield(X, 10.0).run(query(X), max_steps=100, tol=TOL, gamma=0.3)
    assert ref.steps > 10
    check_every_frame(at, "modern", ref, X, ["H", "O", "X"], False, True, modern_finding(ref, 3))
    assert sent_bytes(at, "modern") < 250_000

    at = open_app("modern", query={"gamma": "0.01", "steps": "2000"})
    ref = ModernHopfield(X, 10.0).run(query(X), max_steps=2000, tol=TOL, gamma=0.01)
    assert ref.steps == 743
    p = payload(at, "modern")
    assert p["steps"] == frames.frame_steps(743) and len(p["steps"]) == 249
    assert "every 3rd step and the last (249 of the 744 steps)" in p["note"]
    check_every_frame(at, "modern", ref, X, ["H", "O", "X"], False, True, modern_finding(ref, 3))
    assert sent_bytes(at, "modern") < 1_000_000
    assert not at.exception


def test_presenter_and_projector_modes_send_their_own_look():
    plain = payload(open_app("classical"), "classical")
    both = payload(open_app("classical", query={"presenter": "1", "projector": "1"}), "classical")
    assert both["mode"] == "presenter projector" and plain.get("mode") == ""
    big = frames.figure_at(both["panels"]["energy"], 0)["layout"]
    small = frames.figure_at(plain["panels"]["energy"], 0)["layout"]
    assert big["height"] == round(small["height"] * 1.2) and big["font"]["size"] > small["font"]["size"]
    assert big["xaxis"]["linecolor"] == "#000000"  # projector mode's black axes
    assert plain["panels"]["describe"] == both["panels"]["describe"]


def test_the_largest_links_send_under_2_mb_and_a_100_step_et_run_under_1_mb():
    store = ",".join([f"letters/{c}" for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"] + [f"digits/{i}" for i in range(10)]
                     + ["shapes/circle", "shapes/square", "shapes/triangle", "shapes/cross"])
    link = {"size": "32", "colour": "1", "presets": store, "steps": "2000", "gamma": "0.01"}  # the largest
    at = open_app("modern", link)
    assert sent_bytes(at, "modern") < 2_000_000, sent_bytes(at, "modern")
    at = open_app("energy_transformer", {"steps": "100"})
    assert payload(at, "energy_transformer")["T"] == 100
    assert sent_bytes(at, "energy_transformer") < 1_000_000

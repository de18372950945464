"""What a screen reader gets from the dynamics pages: the live description under the figure and
the alt text of the state's picture follow the run step by step (energy, neurons flipped or
distance moved, nearest stored pattern and overlap, the page's own verdict at the end), both
checked against the core's run; and the charts' numbers are one expander away."""

import numpy as np

from hopfield_core import ModernHopfield, analysis
from tests.support.apptest import open_app, open_numbers
from tests.support.player import at_step, payload
from tests.support.samples import HOX, TOL, classical_run, letters, patterns, query

LETTERS = ["H", "O", "X"]


def description(at, page: str, t: int) -> str:
    """The text of the live region under the dynamics figure at step t (the browser player's)."""
    return at_step(at, page, t).sentence()


def player_alt(at, page: str, t: int) -> str:
    """The alt text of the player's picture at step t."""
    return at_step(at, page, t).alt("state")


def test_classical_description_follows_each_step():
    at = open_app("classical")
    ref = classical_run("HOX", 0, "flip", 0.2, 0, "async")
    X = letters("HOX")
    m = analysis.overlaps(ref.states, X)  # (T+1, N)
    T = ref.steps
    assert T >= 2
    for t in range(T + 1):
        text = description(at, "classical", t)
        best = int(np.argmax(np.abs(m[t])))
        assert np.sum(np.abs(m[t]) == np.abs(m[t]).max()) == 1  # no tie in this run
        assert text.startswith(f"Step {t} of {T}")
        assert f"energy {ref.energies[t]:.6g}" in text
        assert f"closest to stored pattern {LETTERS[best]}, overlap {m[t, best]:.2f}" in text
        assert f"{LETTERS[best]}, overlap {m[t, best]:.2f}" in player_alt(at, "classical", t)
        assert player_alt(at, "classical", t).startswith(f"State at step {t} of {T}")
        if t > 0:
            flipped = int(np.sum(ref.states[t] != ref.states[t - 1]))
            assert (f"{flipped} neurons of {X.shape[1]} flipped" in text if flipped > 1 else
                    "no neuron flipped" in text if flipped == 0 else "1 neuron of" in text)
            change = ref.energies[t] - ref.energies[t - 1]
            assert (f"down by {-change:.3g}" in text if change < -1e-9 else "no change" in text)
        if t < T:
            assert text.endswith(f"overlap {m[t, best]:.2f}.")  # no verdict before the end
        else:
            assert text.endswith("Retrieved pattern H.")
            assert at_step(at, "classical", t).texts("success") == ["Retrieved pattern H."]  # the verdict


def test_modern_description_follows_each_step():
    at = open_app("modern")
    X = patterns(HOX)
    ref = ModernHopfield(X, 10.0).run(query(X), max_steps=100, tol=TOL, gamma=1.0)
    m = analysis.overlaps(ref.states, X)  # (T+1, N)
    T = ref.steps
    assert T >= 2
    for t in range(T + 1):
        text = description(at, "modern", t)
        best = int(np.argmax(m[t]))
        assert text.startswith(f"Step {t} of {T}")
        assert f"energy {ref.energies[t]:.6g}" in text
        assert f"closest to stored pattern {LETTERS[best]}, overlap {m[t, best]:.2f}" in text
        if t > 0:
            moved = np.linalg.norm(ref.states[t] - ref.states[t - 1])
            assert f"the state moved by {moved:.3g}" in text
    assert text.endswith("Retrieved pattern H.")
    (verdict,) = at_step(at, "modern", T).texts("success")
    assert verdict.startswith("Retrieved pattern H. Fixed point: single, k90 = 1 of 3")


def expander_labels(at) -> list[str]:
    return [e.label for e in at.expander]


def test_the_numbers_of_the_run_are_one_expander_away():
    at = open_app("classical")
    ref = classical_run("HOX", 0, "flip", 0.2, 0, "async")
    assert "Show the numbers" in expander_labels(at)
    assert not [d for d in at.dataframe if "Energy" in d.value.columns]  # closed: nothing sent
    open_numbers(at, "classical_numbers")
    (df,) = [d.value for d in at.dataframe if "Energy" in d.value.columns]
    assert list(df.columns) == ["step", "Energy", "m with 1. H", "m with 2. O", "m with 3. X"]
    assert list(df["step"]) == list(range(ref.steps + 1))
    assert np.allclose(df["Energy"], ref.energies)
    m = analysis.overlaps(ref.states, letters("HOX"))
    assert np.allclose(df[["m with 1. H", "m with 2. O", "m with 3. X"]].to_numpy(), m)


def test_modern_weights_have_their_numbers():
    at = open_app("modern")
    assert expander_labels(at).count("Show the numbers") >= 2  # the run's, the weights'
    open_numbers(at, "modern_weights_numbers")
    X = patterns(HOX)
    ref = ModernHopfield(X, 10.0).run(query(X), max_steps=100, tol=TOL, gamma=1.0)
    final, per_step = [d.value for d in at.dataframe if "weight" in d.value.columns or
                       "value" in d.value.columns]
    assert np.allclose(final["weight"], ref.weights[-1])
    assert np.allclose(per_step["value"], ref.weights.ravel())  # (T+1, N) cell by cell, rows first


def test_play_announces_nothing_per_frame():
    """While playing, the hint box (a status region) has one text for every frame before the
    end, so a screen reader hears it once; the live region's quiet during Play is the browser's
    (tests/e2e/test_player_e2e.py)."""
    at = open_app("classical", query={"T": "0.5"})  # a hot run: it goes to the step limit
    p = payload(at, "classical")
    T = p["T"]
    playing = {n.get("playing") for step in p["panels"]["notes"]["items"][:T] for n in step[:1]}
    assert playing == {f"Playing the {T} steps: Pause stops at the step shown."}
    stepping = [step[0]["text"] for step in p["panels"]["notes"]["items"][:T]]
    assert len(set(stepping)) == T  # out of Play, each step's hint names its step

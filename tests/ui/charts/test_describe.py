"""The words for screen readers (ui/charts/describe.py) against the maths they describe: the neurons
flipped are the Hamming distance of consecutive states, the distance moved is the Euclidean
one, the nearest pattern is the argmax of the overlaps (|m| for binary states, the pages'
verdict rule), ties are named together, and the energy change follows the energy metric."""
import numpy as np
import pytest

from hopfield_core import ClassicalHopfield, ModernHopfield, analysis
from ui.charts import describe
from ui.player.dynamics_frames import NO_CHANGE, energy_change

NAMES = ["H", "O", "X", "A"]


def random_patterns(N, d, seed):
    return np.where(np.random.default_rng(seed).random((N, d)) < 0.5, -1, 1).astype(np.int8)


@pytest.mark.parametrize("seed", range(5))
def test_neurons_flipped_is_the_hamming_distance_of_consecutive_states(seed):
    X = random_patterns(4, 64, seed)
    q = X[0].copy()
    q[np.random.default_rng(seed).choice(64, 20, replace=False)] *= -1
    traj = ClassicalHopfield(X).run(q, mode="sync", max_steps=10)
    assert traj.steps >= 1
    for t in range(1, traj.steps + 1):
        flipped = int(np.sum(traj.states[t] != traj.states[t - 1]))  # Hamming distance
        text = describe.movement(traj.states, t, binary=True)
        if flipped == 0:
            assert text == "no neuron flipped"
        else:
            assert text == f"{flipped} neuron{'s' if flipped > 1 else ''} of 64 flipped"


def test_the_distance_moved_is_euclidean_for_continuous_states():
    X = np.random.default_rng(1).standard_normal((3, 20))
    traj = ModernHopfield(X, 2.0).run(X[0] + 0.5, max_steps=20, gamma=0.5)
    for t in range(1, traj.steps + 1):
        dist = np.linalg.norm(traj.states[t] - traj.states[t - 1])
        assert describe.movement(traj.states, t, binary=False) == f"the state moved by {dist:.3g}"
    same = np.stack([X[0], X[0]])
    assert describe.movement(same, 1, binary=False) == "the state did not move"


@pytest.mark.parametrize("seed", range(8))
def test_the_nearest_pattern_is_the_argmax_of_the_overlaps(seed):
    rng = np.random.default_rng(seed)
    X = random_patterns(4, 100, seed)
    state = np.where(rng.random(100) < 0.5, -1, 1)
    m = analysis.overlaps(state, X)  # (N,)
    best = int(np.argmax(np.abs(m)))
    winners = np.flatnonzero(np.abs(m) == np.abs(m).max())
    assert list(describe.nearest(m, binary=True)) == list(winners)
    phrase = describe.nearest_phrase(m, NAMES, binary=True)
    if len(winners) == 1:
        who = ("the negative of " if m[best] < 0 else "") + f"stored pattern {NAMES[best]}"
        assert phrase == f"closest to {who}, overlap {m[best]:.2f}"
    else:
        assert phrase.startswith("equally close to") and all(NAMES[i] in phrase for i in winners)


def test_continuous_states_use_the_signed_overlap_as_the_verdict_does():
    m = np.array([0.3, -0.9, 0.5])
    assert list(describe.nearest(m, binary=False)) == [2]
    assert list(describe.nearest(m, binary=True)) == [1]
    assert describe.nearest_phrase(m, NAMES, binary=True) == (
        "closest to the negative of stored pattern O, overlap -0.90")
    assert describe.nearest_phrase(m, NAMES, binary=False) == (
        "closest to stored pattern X, overlap 0.50")


def test_ties_are_named_together_never_one_picked():
    X = np.array([[1, 1, 1, 1], [1, 1, -1, -1], [-1, 1, 1, -1]], dtype=np.int8)
    state = np.array([1, 1, 1, -1])  # overlap 0.5 with each
    m = analysis.overlaps(state, X)
    assert np.allclose(m, 0.5)
    assert describe.nearest_phrase(m, NAMES, binary=True) == (
        "equally close to stored patterns H, O and X, overlap 0.50")
    # a tie of opposite signs names each overlap
    assert describe.nearest_phrase(np.array([0.5, -0.5, 0.1]), NAMES, binary=True) == (
        "equally close to stored patterns H (0.50) and the negative of O (-0.50)")
    # more than MOST_NAMED: the rest counted
    many = describe.nearest_phrase(np.full(5, 0.25), ["a", "b", "c", "d", "e"], binary=False)
    assert many == "equally close to stored patterns a, b, c and 2 more, overlap 0.25"


def test_the_energy_words_follow_the_energy_metric():
    E = np.array([-45.7, -127.633, -127.633 - 1e-14, -130.0])
    assert describe.energy_phrase(E[0], energy_change(E, 0)) == "energy -45.7"
    assert describe.energy_phrase(E[1], energy_change(E, 1)) == "energy -127.633, down by 81.9"
    assert energy_change(E, 2) == NO_CHANGE  # within rounding: the metric's grey "no change"
    assert describe.energy_phrase(E[2], energy_change(E, 2)) == "energy -127.633, no change"
    up = np.array([1.0, 1.5])
    assert describe.energy_phrase(up[1], energy_change(up, 1), "Log-domain energy") == (
        "log-domain energy 1.5, up by 0.5")


def test_a_step_sentence_holds_every_part_and_the_verdict_at_the_end():
    X = np.stack([random_patterns(1, 36, 7)[0], random_patterns(1, 36, 8)[0]])
    q = X[0].copy()
    q[:8] *= -1
    traj = ClassicalHopfield(X).run(q, mode="async", rng=0, max_steps=10)
    T = traj.steps
    m_all = analysis.overlaps(traj.states, X)  # (T+1, N)
    verdict = analysis.verdict(traj, X, binary=True).sentence(["first", "second"])
    first = describe.step_sentence(0, T, traj.states, traj.energies, m_all[0], ["first", "second"],
                                   True, energy_change(traj.energies, 0), verdict=verdict)
    assert first.startswith(f"Step 0 of {T}, the query: energy {traj.energies[0]:.6g};")
    assert "flipped" not in first and first.endswith(f"overlap {m_all[0, 0]:.2f}.")
    last = describe.step_sentence(T, T, traj.states, traj.energies, m_all[T], ["first", "second"],
                                  True, energy_change(traj.energies, T), verdict=verdict)
    assert last.endswith(verdict) and "Retrieved pattern first." in last
    assert "closest to stored pattern first, overlap 1.00" in last


def test_alt_text_says_what_the_picture_shows():
    m = np.array([0.97, 0.1])
    assert describe.image_alt(3, 12, m, ["H", "O"], True, (16, 16)) == (
        "State at step 3 of 12, 16 by 16 pixels: closest to stored pattern H, overlap 0.97.")
    assert describe.image_alt(0, 12, m, ["H", "O"], True, (8, 12)).startswith(
        "State at step 0 of 12 (the query), 8 by 12 pixels:")

"""The prediction questions' right answers (hopfield_core/questions.py), each against an
independent reading of the same run: the final state compared with the patterns directly, the
energies differenced directly, k90 from the weights sorted by hand."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hopfield_core import questions as q
from hopfield_core.classical import ClassicalHopfield
from hopfield_core.modern import ModernHopfield
from hopfield_core.trajectory import Trajectory

NAMES = ["H", "O", "X"]


def bipolar(rng, N, d):
    return np.where(rng.random((N, d)) < 0.5, -1.0, 1.0)


def keys(options):
    return [o.key for o in options]


def flip(x, n, rng):
    y = x.copy()
    y[rng.choice(len(x), n, replace=False)] *= -1
    return y


def test_a_query_near_a_pattern_ends_on_it_by_name():
    rng = np.random.default_rng(0)
    X = bipolar(rng, 3, 100)
    traj = ClassicalHopfield(X).run(flip(X[1], 10, rng), mode="async", rng=rng)
    out = q.destination(traj, X, NAMES, binary=True)
    assert np.array_equal(traj.final, X[1])  # the run, read directly
    assert out.right == "pattern:1" and out.says.startswith("The query settled on pattern O: overlap with O 1.00")
    options = q.destination_options(NAMES, binary=True, sync=False)
    assert out.right in keys(options) and keys(options)[-1] == q.NOT_SURE
    assert "cycle" not in keys(options)  # an asynchronous sweep never cycles


def test_the_inverse_of_a_pattern_is_its_own_answer():
    rng = np.random.default_rng(1)
    X = bipolar(rng, 3, 100)
    traj = ClassicalHopfield(X).run(flip(-X[2], 8, rng), mode="async", rng=rng)
    assert np.array_equal(traj.final, -X[2])
    out = q.destination(traj, X, NAMES, binary=True)
    assert out.right == "mirror" and "inverse of X" in out.says and "with X -1.00" in out.says


def test_a_state_that_is_no_pattern_is_other():
    """Three nearly orthogonal patterns: their majority sgn(x1 + x2 + x3) is a fixed point (a
    mixture), and no pattern or inverse."""
    rng = np.random.default_rng(2)
    X = bipolar(rng, 3, 400)
    mix = np.sign(X.sum(axis=0))
    traj = ClassicalHopfield(X).run(mix, mode="async", rng=rng)
    final = traj.final
    assert traj.converged and not any(np.array_equal(final, s * x) for x in X for s in (1, -1))
    out = q.destination(traj, X, NAMES, binary=True)
    assert out.right == "other" and out.says.startswith("The query settled into a mixture")


def test_a_synchronous_two_cycle_is_named():
    """Search random queries for a synchronous run that ends in a 2-cycle; the answer says so,
    and the run, read directly, alternates between two states."""
    rng = np.random.default_rng(3)
    X = bipolar(rng, 6, 30)
    net = ClassicalHopfield(X)
    for _ in range(500):
        traj = net.run(bipolar(rng, 1, 30)[0], mode="sync", max_steps=100)
        if traj.cycle:
            break
    assert traj.cycle == 2
    S = traj.states
    assert np.array_equal(S[-1], S[-3]) and not np.array_equal(S[-1], S[-2])
    out = q.destination(traj, X, [f"P{i}" for i in range(6)], binary=True)
    assert out.right == "cycle" and out.right in keys(q.destination_options(list("abcdef"), True, sync=True))


def test_a_run_cut_by_its_step_limit_is_unsettled():
    rng = np.random.default_rng(4)
    X = bipolar(rng, 3, 100)
    traj = ClassicalHopfield(X).run(bipolar(rng, 1, 100)[0], mode="sync", max_steps=1)
    assert not traj.converged and not traj.cycle
    out = q.destination(traj, X, NAMES, binary=True)
    assert out.right == "unsettled" and "within 1 step:" in out.says


def k90_by_hand(p):
    s = sorted(p, reverse=True)
    total, k = 0.0, 0
    while total < 0.9 * sum(p) - 1e-12:
        total += s[k]
        k += 1
    return k


@pytest.mark.parametrize("beta, kind", [(20.0, "single"), (0.01, "global")])
def test_the_modern_networks_fixed_point_kind_is_k90s(beta, kind):
    rng = np.random.default_rng(5)
    X = rng.normal(size=(3, 64))
    X /= np.linalg.norm(X, axis=1, keepdims=True) / 4
    traj = ModernHopfield(X, beta=beta).run(X[0] + 0.3 * rng.normal(size=64))
    p = traj.weights[-1]
    out = q.fixed_point(traj, NAMES)
    k = k90_by_hand(list(p))
    assert out.right == kind and f"k90 = {k} of 3 patterns" in out.says
    assert (k == 1) == (kind == "single") and (k == 3) == (kind == "global")
    assert out.right in keys(q.fixed_point_options())
    dest = q.destination(traj, X, NAMES, binary=False)
    assert dest.right == ("pattern:0" if kind == "single" else "blend")


def test_the_metastable_kind_between_the_two():
    """Two of four patterns close together, the query between them, a middling beta: the two
    share the weight (about half each), k90 = 2."""
    rng = np.random.default_rng(6)
    base = rng.normal(size=(3, 64))
    X = np.stack([base[0], base[0] + 0.05 * rng.normal(size=64), base[1], base[2]])
    traj = ModernHopfield(X, beta=0.1).run((X[0] + X[1]) / 2)
    out = q.fixed_point(traj, [*NAMES, "T"])
    assert k90_by_hand(list(traj.weights[-1])) == 2 and out.right == "metastable"


def synthetic(energies):
    E = np.asarray(energies, dtype=float)
    return Trajectory(states=np.zeros((len(E), 2)), energies=E, converged=True)


def test_a_rise_is_read_from_the_energies():
    up = q.rises(synthetic([3.0, 2.0, 2.5, 1.0]))
    assert up.right == "yes" and "rose at step 2" in up.says
    flat = q.rises(synthetic([3.0, 2.0, 2.0 + 1e-12, 1.0]))  # rounding is no rise
    assert flat.right == "no" and "never rose" in flat.says
    assert np.diff([3.0, 2.0, 2.5, 1.0]).max() > 0


def test_a_classical_asynchronous_run_never_raises_the_energy():
    """Hopfield 1982 with a zero diagonal: the answer is "no" on any run, and the direct
    differences agree."""
    rng = np.random.default_rng(7)
    X = bipolar(rng, 5, 64)
    for _ in range(20):
        traj = ClassicalHopfield(X).run(bipolar(rng, 1, 64)[0], mode="async", rng=rng)
        assert q.rises(traj).right == "no"
        assert np.all(np.diff(traj.energies) <= 1e-9 * np.maximum(1, np.abs(traj.energies[:-1])))


@pytest.mark.parametrize("mse, right", [([0.02, 0.015, 0.01], "lower"), ([0.02, 0.0201, 0.0201], "same"),
                                        ([0.02, 0.03], "higher"), ([0.0, 0.0], "same"),
                                        ([0.0, 0.01], "higher")])
def test_the_ets_error_answer(mse, right):
    out = q.error_falls(np.array(mse))
    assert out.right == right and out.right in keys(q.error_falls_options())


def test_the_comparison_sentence():
    options = q.destination_options(NAMES, binary=True, sync=False)
    out = q.Outcome("other", "The query settled into a mixture: overlap with H 0.62, with O 0.58.")
    assert q.compare("pattern:0", options, out) == (
        "You predicted pattern H. The query settled into a mixture: overlap with H 0.62, with O 0.58. "
        "The answer: a state that is no stored pattern (a mixture or spurious).")
    assert q.compare("other", options, out).endswith("That is right.")
    assert q.compare(q.NOT_SURE, options, out).startswith("You were not sure yet. The query settled")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), N=st.integers(1, 6), mode=st.sampled_from(["sync", "async"]),
       steps=st.integers(1, 30))
def test_the_right_answer_is_always_an_option(seed, N, mode, steps):
    rng = np.random.default_rng(seed)
    X = bipolar(rng, N, 24)
    names = [f"P{i}" for i in range(N)]
    traj = ClassicalHopfield(X).run(bipolar(rng, 1, 24)[0], mode=mode, max_steps=steps, rng=rng)
    out = q.destination(traj, X, names, binary=True)
    assert out.right in keys(q.destination_options(names, binary=True, sync=mode == "sync"))
    assert q.rises(traj).right in keys(q.rises_options())


def test_the_held_out_answer_compares_the_last_step_with_the_first():
    held, train = np.array([2.0, 1.5, 1.2]), np.array([2.1, 1.0, 0.5])
    out = q.held_out_falls(held, train)
    assert out.right == "lower" and "from 2.0000 to 1.2000 (-40.0 % of its start)" in out.says
    assert q.held_out_falls(np.array([2.0, 2.5, 2.01]), train).right == "same"  # within 1 % at the end
    assert q.held_out_falls(np.array([-1.0, -0.5]), train).right == "higher"    # an NLL may be negative
    assert q.held_out_falls(np.array([-1.0, -1.005]), train).right == "same"
    assert {o.key for o in q.held_out_falls_options()} >= {"lower", "same", "higher", q.NOT_SURE}


def test_the_spread_answer_compares_the_clouds_after_the_last_layer():
    plain, normed = np.array([1.0, 3.0, 9.0]), np.array([1.0, 1.2, 1.3])
    out = q.spread(plain, normed)
    assert out.right == "without" and out.says == ("After 2 layers the spread is 9 without layer norm and 1.3 "
                                                   "with it (from 1 at the start).")
    assert q.spread(normed, plain).right == "with"
    assert q.spread(np.array([1.0, 2.0]), np.array([1.0, 2.01])).right == "same"


def test_the_head_kind_is_the_heads_own_rule_on_the_last_weights():
    from hopfield_core.heads import kinds

    assert q.head_kind(np.array([0.95, 0.03, 0.02]), True).right == "retrieval"
    assert q.head_kind(np.full(10, 0.1), False).says == "At the step limit k90 = 9 of 10 tokens: a global state."
    p = np.array([0.3, 0.3, 0.3, 0.05, 0.05, 0, 0, 0, 0, 0])
    assert q.head_kind(p, True).right == kinds.kind_name(kinds.k90(p), 10) == "metastable"
    assert [o.key for o in q.head_kind_options()][:3] == list(q.HEAD_KIND_LABELS)


def test_the_retrievers_answer_counts_the_runs_that_ended_on_the_querys_pattern():
    from hopfield_core.analysis import Verdict

    vs = [Verdict("retrieved", 0), Verdict("retrieved", 1), Verdict("spurious"),
          Verdict("retrieved", 0)]
    out = q.retrievers(vs, ["a", "b", "c", "d"], 0, ["H", "O"])
    assert out.right == "2" and out.says == "2 of the 4 networks retrieved pattern H: a, d."
    assert q.retrievers(vs, ["a", "b", "c", "d"], None, ["H", "O"]).right == "3"  # any pattern
    assert [o.key for o in q.retrievers_options(4)] == ["0", "1", "2", "3", "4", q.NOT_SURE]


def test_the_capacity_answer_is_the_bin_of_the_last_load_before_the_first_failure():
    n = np.array([5, 10, 15, 20, 30])  # d = 100: loads 0.05 ... 0.30
    out = q.capacity(n, np.array([1.0, 1.0, 0.95, 0.4, 0.0]), 100, "Classical, sync")
    assert out.right == "0.15" and out.says == ("Classical, sync retrieves up to N/d = 0.150 and fails from "
                                                "N/d = 0.200 (N = 15: 95 %, N = 20: 40 %).")
    assert q.capacity(n, np.array([1.0, 0.5, 1.0, 1.0, 1.0]), 100, "x").right == "0.05"  # the first failure
    assert q.capacity(n, np.ones(5), 100, "x").right == "all"
    assert q.capacity(n, np.zeros(5), 100, "x").right == "none"
    assert q.capacity(np.array([31, 40]), np.array([1.0, 0.0]), 100, "x").right == "0.30"
    assert q.capacity(np.array([2, 4]), np.array([1.0, 0.0]), 100, "x").right == "0.00"
    keys = [o.key for o in q.capacity_options()]
    assert keys == ["none", "0.00", "0.05", "0.10", "0.15", "0.20", "0.30", "all", q.NOT_SURE]

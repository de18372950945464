"""The caches shared by every session are keyed by the actual parameters (ui/serving/shared_cache.py,
ui/player/runs.py): two calls that differ in any one parameter never share an entry (one student
would see another's figure or run), the same parameters always do, and a key built by hand
as a string is refused."""
import numpy as np
import pytest

from hopfield_core import ClassicalHopfield
from ui.player import runs
from ui.serving import shared_cache
from ui.store.patterns import PatternSet

X = np.sign(np.random.default_rng(0).standard_normal((3, 16)))  # 3 patterns, d = 16 neurons
BASE = ("page", "figure", 3, 0.5, True, None, ("a", "b"), X)

# each: (position in BASE, another value of that parameter)
CHANGES = [
    (0, "other page"), (1, "other figure"), (2, 4), (3, 0.25), (3, "0.5"), (4, False),
    (5, 0), (6, ("a", "c")), (6, ("a",)), (7, X[::-1]), (7, X.astype(np.float32)),
    (7, X.reshape(6, 8)), (7, np.where(np.arange(48).reshape(3, 16) == 47, -X, X)),
]


@pytest.fixture
def made():
    """A counter of the make() calls that computed something."""
    shared_cache.SHARED.clear()
    calls = []

    def make(tag):
        return lambda: calls.append(tag) or tag
    yield calls, make
    shared_cache.SHARED.clear()


@pytest.mark.parametrize("at, other", CHANGES, ids=[f"{i}-{j}" for i, j in enumerate(CHANGES)])
def test_two_calls_differing_in_one_parameter_do_not_share_an_entry(made, at, other):
    calls, make = made
    changed = BASE[:at] + (other,) + BASE[at + 1:]
    assert shared_cache.shared(BASE, make("base")) == "base"
    assert shared_cache.shared(changed, make("changed")) == "changed"
    assert calls == ["base", "changed"]


def test_the_same_parameters_share_one_entry(made):
    calls, make = made
    again = BASE[:7] + (X.copy(),)  # another array of the same content
    assert shared_cache.shared(BASE, make("first")) == "first"
    assert shared_cache.shared(again, make("second")) == "first"
    assert shared_cache.shared(BASE[:2] + (np.int64(3), np.float64(0.5)) + BASE[4:],
                               make("third")) == "first"  # NumPy numbers as the numbers they are
    assert calls == ["first"]


@pytest.mark.parametrize("key", ["page|figure|3", ["page", 3], ("page", ["a"]), ("page", {"a": 1}),
                                 ("page", object())],
                         ids=["string", "list", "list inside", "dict inside", "object inside"])
def test_a_key_built_by_hand_or_holding_no_plain_value_is_refused(made, key):
    calls, make = made
    with pytest.raises(TypeError):
        shared_cache.shared(key, make("never"))
    assert calls == []


def patterns(X: np.ndarray, fingerprint: str) -> PatternSet:
    return PatternSet(X, (4, 4), ("a", "b", "c"), True, fingerprint)


RUN = dict(kind="classical", cfg={"learning_rule": "hebbian"}, ps=patterns(X, "fp"), q=X[0].copy(),
           kwargs={"mode": "sync", "max_steps": 20, "rng": 0})
RUN_CHANGES = {
    "kind": dict(kind="dense"),
    "settings": dict(cfg={"learning_rule": "storkey"}),
    "patterns": dict(ps=patterns(-X, "fp2")),
    "query": dict(q=np.where(np.arange(16) == 5, -X[0], X[0])),
    "run options": dict(kwargs={"mode": "async", "max_steps": 20, "rng": 0}),
    "steps": dict(kwargs={"mode": "sync", "max_steps": 21, "rng": 0}),
    "seed": dict(kwargs={"mode": "sync", "max_steps": 20, "rng": 1}),
}


def key(**change) -> tuple:
    r = {**RUN, **change}
    return runs.run_key(r["kind"], r["cfg"], r["ps"], r["q"], r["kwargs"])


@pytest.mark.parametrize("what", list(RUN_CHANGES))
def test_two_runs_differing_in_one_parameter_have_two_keys(what):
    assert key(**RUN_CHANGES[what]) != key()
    assert key(q=RUN["q"].copy(), cfg=dict(RUN["cfg"])) == key()  # the same run: one key


def test_a_run_is_made_once_per_query_and_kept_for_every_session():
    runs.RUNS.clear()
    ps, q = RUN["ps"], RUN["q"]
    first = runs.run("classical", RUN["cfg"], ps, q, **RUN["kwargs"])
    assert runs.run("classical", RUN["cfg"], ps, q.copy(), **RUN["kwargs"]) is first
    flipped = np.where(np.arange(16) == 5, -q, q)  # one pixel more flipped by hand
    other = runs.run("classical", RUN["cfg"], ps, flipped, **RUN["kwargs"])
    assert other is not first and len(runs.RUNS) == 2
    expected = ClassicalHopfield(X).run(flipped, mode="sync", max_steps=20, rng=0)
    np.testing.assert_array_equal(other.states, expected.states)
    runs.RUNS.clear()
    runs.MODELS.clear()

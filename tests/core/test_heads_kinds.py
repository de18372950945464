"""Attention weights, k90 and the three kinds of hopfield_core.heads against direct loops."""
import math

import numpy as np
import pytest

from hopfield_core.heads import analysis, kinds
from hopfield_core.heads.analysis import (
    analyse_layer,
    changed_share,
    kinds_table,
    pooled,
)
from tests.support.oracles import k90_by_counting


def heads(seed, H=3, N=11, d=8, scale=1.0):
    rng = np.random.default_rng(seed)
    K = rng.normal(size=(H, N, d)) * scale * rng.uniform(0.2, 3, size=(H, 1, 1))
    Q = rng.normal(size=(H, N, d)) * scale
    return Q, K


def softmax_direct(scores):
    m = max(scores)
    e = [math.exp(s - m) for s in scores]
    t = math.fsum(e)
    return [v / t for v in e]


def kind_direct(k, N):
    if k <= 2:
        return "retrieval"
    if k >= max(3, math.ceil(N / 2)):
        return "global"
    return "metastable"


@pytest.mark.parametrize("seed", range(4))
def test_attention_and_k90_match_a_loop_per_query(seed):
    Q, K = heads(seed, scale=1 + seed)
    beta = 1 / math.sqrt(Q.shape[2])
    P = kinds.attention_weights(Q, K, beta)
    k = kinds.k90(P)
    for h in range(Q.shape[0]):
        for i in range(Q.shape[1]):
            p = softmax_direct([beta * float(np.dot(Q[h, i], key)) for key in K[h]])
            np.testing.assert_allclose(P[h, i], p, rtol=1e-12, atol=1e-15)
            assert k[h, i] == k90_by_counting(p)


def test_kind_codes_match_the_rule_for_every_k_and_N():
    for N in range(1, 60):
        ks = np.arange(2, 2 * N + 1) / 2  # every k90 and every median (half-integers)
        got = kinds.kind_codes(ks, N)
        assert [kinds.KINDS[c] for c in got] == [kind_direct(k, N) for k in ks]
        assert kinds.kind_name(float(ks[0]), N) == kind_direct(ks[0], N)


def test_the_rule_is_said_with_its_thresholds():
    assert kinds.RETRIEVAL_MAX_K90 == 2 and kinds.GLOBAL_SHARE == 0.5
    assert "k90 <= 2" in kinds.KIND_RULE and "N/2" in kinds.KIND_RULE
    assert "median" in kinds.KIND_RULE


def test_head_kind_is_the_kind_of_its_median_k90():
    Q, K = heads(7, H=5, N=17, d=4, scale=2.0)
    layer = analyse_layer(Q, K)
    for h in range(5):
        med = float(np.median(layer.one_step_k90[h]))
        assert layer.one_step_head_k90[h] == med
        assert kinds.KINDS[layer.one_step_head_kind[h]] == kind_direct(med, 17)
        med = float(np.median(layer.fixed_k90[h]))
        assert kinds.KINDS[layer.fixed_head_kind[h]] == kind_direct(med, 17)


def three_kinds_layer(N=16, d=16):
    """Head 0 retrieves (orthogonal long keys, each query its own key), head 1 averages
    (every query zero: uniform weights), head 2 averages a cluster of 4 near-equal keys."""
    eye = np.eye(N, d)
    K = np.stack([20 * eye, eye, np.zeros((N, d))])
    K[2, :4] = 20 * np.ones(d) / math.sqrt(d)
    Q = np.stack([20 * eye, np.zeros((N, d)), np.tile(K[2, 0], (N, 1))])
    return Q, K


def test_three_kinds_appear_where_they_are_built():
    Q, K = three_kinds_layer()
    layer = analyse_layer(Q, K, beta=1.0)
    assert [kinds.KINDS[c] for c in layer.one_step_head_kind] == ["retrieval", "global",
                                                                    "metastable"]
    assert layer.one_step_k90[2].tolist() == [4] * 16
    table = kinds_table([layer, layer])
    assert table.one_step.tolist() == [[1, 1, 1], [1, 1, 1]]
    assert table.total_one_step.tolist() == [2, 2, 2]


@pytest.mark.parametrize("seed", range(3))
def test_changed_share_matches_a_loop_over_pairs(seed):
    Q, K = heads(seed, H=4, N=13, d=6, scale=1.5)
    layer = analyse_layer(Q, K)
    changed = sharper = 0
    for h in range(4):
        for i in range(13):
            a, b = layer.one_step_k90[h, i], layer.fixed_k90[h, i]
            if kind_direct(a, 13) != kind_direct(b, 13):
                changed += 1
                sharper += b < a
    table = kinds_table([layer])
    assert table.changed_share[0] == pytest.approx(changed / 52)
    assert changed_share([layer]) == pytest.approx(changed / 52)
    if changed:
        assert table.sharper_share[0] == pytest.approx(sharper / changed)
    assert table.one_step.sum() == table.fixed.sum() == 4


def test_pooling_takes_the_median_over_every_input():
    a = analyse_layer(*heads(1, H=2, N=9, d=4, scale=2.0))
    b = analyse_layer(*heads(2, H=2, N=9, d=4, scale=2.0))
    both = pooled([[a], [b]])[0]
    for h in range(2):
        want = np.median(np.concatenate([a.one_step_k90[h], b.one_step_k90[h]]))
        assert both.one_step_head_k90[h] == want
    with pytest.raises(ValueError, match="one length"):
        pooled([[a], [analyse_layer(*heads(3, H=2, N=8, d=4))]])


def paper_class_by_hand(k: float, N: int) -> str:
    """Ramsauer et al.'s classes, written out: I above N/2, II above N/8, III above N/32."""
    if k > N / 2:
        return "I"
    if k > N / 8:
        return "II"
    if k > N / 32:
        return "III"
    return "IV"


@pytest.mark.parametrize("N", [4, 17, 31, 32, 64, 128])
def test_the_papers_classes_match_their_cut_offs_for_every_median(N):
    medians = np.arange(2, 2 * N + 1) / 2  # every median a head can have: whole or half
    codes = kinds.paper_class_codes(medians, N)
    assert [kinds.PAPER_CLASSES[c] for c in codes] == [paper_class_by_hand(k, N) for k in medians]
    assert ("IV" in {kinds.PAPER_CLASSES[c] for c in codes}) == (N >= 32)


def test_the_tables_paper_classes_count_every_heads_median():
    rng = np.random.default_rng(3)
    layers = [analysis.analyse_layer(rng.normal(size=(4, 40, 8)), rng.normal(size=(4, 40, 8)))
              for _ in range(2)]
    table = analysis.kinds_table(layers)
    for row, layer in zip(table.paper_fixed, layers):
        want = [paper_class_by_hand(k, layer.N) for k in layer.fixed_head_k90]
        assert list(row) == [want.count(c) for c in kinds.PAPER_CLASSES]
    assert table.paper_one_step.sum() == table.paper_fixed.sum() == 8


def test_the_longest_key_pull_is_counted_pair_by_pair():
    """Issue 43, item 1: each (head, query) pair's top key after one step and at the fixed point
    against its head's longest key, checked by a loop over the pairs."""
    rng = np.random.default_rng(5)
    Q, K = rng.normal(size=(3, 12, 6)), rng.normal(size=(3, 12, 6))
    K[1, 4] *= 3  # one long key in head 1
    layer = analysis.analyse_layer(Q, K)
    beta = analysis.default_beta(6)
    for h in range(3):
        longest = int(np.argmax(np.linalg.norm(K[h], axis=1)))
        one_top, fixed_top = analysis.top_keys(Q[h], K[h])
        assert analysis.key_rank(K[h], longest) == 1
        assert sorted(analysis.key_rank(K[h], j) for j in range(12)) == list(range(1, 13))
        for i in range(12):
            p = np.exp(beta * K[h] @ Q[h, i] - np.max(beta * K[h] @ Q[h, i]))
            assert layer.one_step_longest[h, i] == (int(np.argmax(p)) == longest)
            assert one_top[i] == int(np.argmax(p))
            xi = Q[h, i]
            for _ in range(2000):  # the head's update to its fixed point, written out
                s = beta * K[h] @ xi
                w = np.exp(s - s.max())
                new = K[h].T @ (w / w.sum())
                if np.max(np.abs(new - xi)) < 1e-10:
                    break
                xi = new
            s = beta * K[h] @ xi
            assert layer.fixed_longest[h, i] == (int(np.argmax(s)) == longest)
            assert fixed_top[i] == int(np.argmax(s))
    pull = analysis.longest_pull([layer])
    retrieval = layer.fixed_retrieval
    assert pull.fixed_pairs == int(retrieval.sum()) and pull.chance == 1 / 12
    assert pull.fixed == pytest.approx((retrieval & layer.fixed_longest).sum() / retrieval.sum())


def test_a_long_key_pulls_the_fixed_points_of_a_real_head():
    """The default sentence through the MiniLM: at the fixed point about half the retrieval
    pairs end on their head's longest key, after one step about a tenth (chance 1 in 17)."""
    minilm = pytest.importorskip("hopfield_core.heads.minilm")
    import importlib.util

    if importlib.util.find_spec(minilm.PACKAGE) is None:
        pytest.skip(f"the MiniLM wheel ({minilm.REQUIREMENT}) is the app's, not the core's")
    text = "The cat sat on the mat because it was tired after chasing the mouse."
    pull = analysis.longest_pull(analysis.analyse_model(minilm.load().read(text).layer_heads()))
    assert pull.chance == pytest.approx(1 / 17)
    assert pull.one_step < 2 * pull.chance < 0.3 < pull.fixed

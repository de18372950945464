"""Verdict.short: the verdict in a few words for a narrow box on a projector (side by side in
presenter mode), saying what the whole sentence says: the same kind and the same patterns."""
import pytest

from hopfield_core.analysis import Verdict

NAMES = ["H", "O", "X", "P", "F"]
CASES = [(Verdict("retrieved", 2, overlap=1.0), "Retrieved X", "Retrieved pattern X."),
         (Verdict("mirror", 0, overlap=1.0), "Mirror of H", "negative of pattern H"),
         (Verdict("mixture", members=(3, 4, 1), overlap=0.5), "Mixture of P, F, O", "Mixture state of P, F, O."),
         (Verdict("spurious", 1, overlap=0.625), "Spurious (overlap 0.62)", "best overlap 0.62"),
         (Verdict("metastable", members=(0, 1)), "Metastable: H, O", "a blend of H, O."),
         (Verdict("global"), "Global blend", "a blend of (nearly) all stored patterns"),
         (Verdict("cycle"), "2-cycle", "Limit cycle of period 2"),
         (Verdict("not converged"), "Not converged", "Not converged yet")]


@pytest.mark.parametrize("v,short,said", CASES, ids=[c[0].kind for c in CASES])
def test_the_short_verdict_says_what_the_sentence_says(v, short, said):
    assert v.short(NAMES) == short and said in v.sentence(NAMES)
    assert len(v.short(NAMES)) <= 24  # two lines of a quarter of a 1024 px projector at the most


def test_without_names_patterns_are_numbered_as_in_the_sentence():
    assert Verdict("retrieved", 0).short() == "Retrieved #1" and "#1" in Verdict("retrieved", 0).sentence()

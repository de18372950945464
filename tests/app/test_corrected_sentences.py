"""The sentences issues 12 and 34 found wrong, as the pages now say them (their numbers are
checked against the core in tests/core/test_page_claims.py and test_dense_readable_energy.py)."""
import pytest
from tests.app.conftest import open_app


def text_of(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.info] + [e.value for e in at.warning]
    return " ".join(parts)


@pytest.mark.parametrize("page, said, gone", [
    ("classical", ["**Glauber dynamics**", "$\\propto e^{-E/T}$", "**Little dynamics**",
                   "the 8 letters **A to H**", "only 1 of them is still a fixed point",
                   "0.138 d = 35 *random* patterns", "mean |overlap| 0.27", "all 8 are fixed points"],
     ["(Glauber dynamics)", "they exceed the ~0.14 d capacity", "0.14 d = 36"]),
    ("dense", ["multiplies the capacity by about d / (2n - 1)", "$E = -5\\cdot 10^{-45}$",
               "exactly $-0.0$ at $\\beta = 10$", "at $n = 10$ and $d = 256$ it reaches $-10^{24}$",
               "Demircigil and colleagues used an **exponential**, $F(z) = e^{z}$, which outgrows "
               "every power", "beyond about $0.138\\,d$ random patterns",
               "$N = 10 > 0.138\\,d \\approx 8.8$"],
     ["multiplies the capacity by about d.", "An energy of 0 is no bug", "took $n \\to \\infty$",
      "0.14\\,d"]),
    ("modern", ["Drop it to 1: X gets weight again, but not an equal share: O 0.40, Q 0.41, X 0.19, "
                "so k90 = 3 (*global*)", "Only near beta = 0.1 do the three weigh about the same "
                "(0.34, 0.34, 0.32)", "O and Q are near-twins (overlap 0.895, so separation "
                "1 - 0.895 = 0.105), and the paper's guarantee needs beta >= 70.5",
                "X, far from both, is guaranteed from beta = 3.6",
                "a blend of them all (the *global* fixed point), the plain average only as "
                "$\\beta \\to 0$"],
     ["the average of all three (*global*)", "differ in only ~10 % of their shape", "open circles"]),
    ("landscape", ["at β ≈ 1.84 three more valleys appear beside the central one",
                   "at β = 2 the centre turns into a hill",
                   "synchronous updates of binary neurons can climb"],
     ["past β = 2 the centre becomes a hill, three valleys appear", "updates only ever go"]),
    ("home", ["fewer and fewer of the stored patterns are fixed points",
              "slides away to a state that keeps only part of it, and less the more patterns "
              "are stored", "averages 0.76 with $0.2\\,d$ patterns and 0.57 with $0.25\\,d$",
              "an exponential $e^{z}$ exponentially many in $d$"],
     ["spurious mixtures take over", "resembles none of the memories",
      "an exponential exponentially many"]),
    ("attention", ["Only when the keys and the values are the stored patterns themselves",
                   "no energy is guaranteed to fall"],
     ["applying it again and again is the Hopfield dynamics"]),
])
def test_the_corrected_sentences_are_on_the_page(page, said, gone):
    at = open_app(None if page == "home" else page)
    text = text_of(at)
    for s in said:
        assert s in text, s
    for s in gone:
        assert s not in text, s


def test_the_landscape_states_caption_computes_the_classical_capacity():
    at = open_app("landscape", query={"view": "states", "bd": "16"})
    text = text_of(at)
    assert f"Hebbian capacity is about 0.138 d = {0.138 * 16:.1f} random patterns" in text
    assert "2.2 random patterns" in text and "0.14 d" not in text


@pytest.mark.parametrize("page", [None, "classical", "dense", "modern", "landscape", "side_by_side",
                                  "attention", "energy_transformer", "capacity_lab",
                                  "learning", "attention_family"])
def test_default_settings_show_the_lesson_not_a_warning(page):
    at = open_app(page)
    assert not at.warning and not at.error and not at.exception, (
        [w.value for w in at.warning], [e.value for e in at.error])

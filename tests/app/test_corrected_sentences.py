"""The sentences issues 12 and 34 found wrong, as the pages now say them (their numbers are
checked against the core in tests/ui/pages/test_page_claims.py and test_dense_readable_energy.py)."""
import pytest

from tests.support.apptest import open_app
from ui import pages


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
               "$N = 10 > 0.138\\,d \\approx 8.8$",
               "up to about $2^{d/2}$ random ones (fewer when the query is noisy)",
               "(at $\\beta = 0.02$ too). From $\\beta = 0.05$ up it retrieves H."],
     ["multiplies the capacity by about d.", "An energy of 0 is no bug", "took $n \\to \\infty$",
      "0.14\\,d", "exponentially many patterns, $2^{d/2}$ random ones", "From "
      "$\\beta = 0.1$ up it retrieves H"]),
    ("modern", ["Drop it to 1: X gets weight again, but not an equal share: O 0.40, Q 0.41, X 0.19, "
                "so k90 = 3 (*global*)", "Only near beta = 0.1 do the three weigh about the same "
                "(0.34, 0.34, 0.32)", "O and Q are near-twins (overlap 0.895, so separation "
                "1 - 0.895 = 0.105), and the paper's guarantee needs beta >= 70.5",
                "X, far from both, is guaranteed from beta = 3.6",
                "a blend of them all (the *global* fixed point), the plain average only as "
                "$\\beta \\to 0$", "With $\\gamma = 1$, the state as the query, the stored "
                "patterns as both the keys and the values, and no learned projections, this "
                "update is exactly a Transformer's attention"],
     ["the average of all three (*global*)", "differ in only ~10 % of their shape", "open circles",
      "With $\\beta = 1/\\sqrt{d_k}$ this update is exactly Transformer attention"]),
    ("landscape", ["at β ≈ 1.84 three more valleys appear beside the central one",
                   "at β = 2 the centre turns into a hill",
                   "synchronous updates of binary neurons can climb",
                   "into the valley whose basin holds it (usually, not always, the nearest one)"],
     ["past β = 2 the centre becomes a hill, three valleys appear", "updates only ever go",
      "into the nearest one."]),
    ("home", ["slides away to a state that keeps only part of it, and less the more patterns "
              "are stored", "averages about 0.78 with $0.2\\,d$ patterns and about 0.56 with "
              "$0.25\\,d$, over 8,000 trials",
              "an exponential $e^{z}$ exponentially many in $d$",
              "It holds about $0.138\\,d$ random patterns in $d$ neurons, each recalled with at "
              "most about 1.6 % of its bits wrong", "beyond that the memory near each pattern "
              "is lost", "stores a number of patterns that grows like $d^{\\,n-1}$",
              "When the patterns are well separated and the inverse temperature $\\beta$ is "
              "large, one update retrieves a pattern",
              "a blend of a few (metastable), or a blend of them all (the plain average only "
              "as $\\beta \\to 0$)", "the state as the query, the stored patterns as both the "
              "keys and the values, and no learned projections",
              "whose dynamics descend one global energy",
              "the valley whose basin holds the query (usually, not always, the nearest)"],
     ["spurious mixtures take over", "resembles none of the memories",
      "an exponential exponentially many", "fewer and fewer of the stored patterns are fixed "
      "points", "$0.14\\,d$", "averages 0.76 with", "and 0.57 with",
      "stores about $d^{\\,n-1}$", "a metastable average of a few",
      "or the global average", "every step lowers one global energy", "the nearest valley",
      "The continuous update *is* the attention"]),
    ("attention", ["Only when the keys and the values are the stored patterns themselves",
                   "no energy is guaranteed to fall", "are at most $|\\xi|$: 1 for a query "
                   "with flipped pixels", "at nearly the **average**"],
     ["applying it again and again is the Hopfield dynamics",
      "$x_\\mu^\\top\\xi$ are at most 1"]),
    ("energy_transformer",
     ["A standard Transformer's attention is a step down an energy only in special cases",
      "with independent learned $W_Q, W_K, W_V$ no energy is guaranteed to fall",
      "Here one block is reused and every part descends one global energy",
      "the energy never rises in the limit of small steps",
      "the mean-fill yardstick stays near 0.05 – 0.06: the ET's lead shrinks"],
     ["already an implicit step on an energy of its own queries and keys",
      "the parts share no energy", "the energy can only fall",
      "and so does the mean-fill yardstick's"]),
    ("learning", ["Four of them settle, one on each cluster; the other two win almost none of "
                  "the data", "at seed 0 each pattern takes a cluster of its own"],
     ["split up, and each settles on a cluster"]),
    ("side_by_side", ["mostly on D (weight 0.90) with a trace of B (0.05), so k90 = 2",
                      "it blends nearly every letter (k90 = 7 of 8)",
                      "quadratic energy holds about $0.138\\,d$ random patterns"],
     ["metastable average of D and B", "it averages nearly every letter", "$0.14\\,d$"]),
    ("transformer_heads",  # issue 43, items 5 and 7
     ["the softmax weights of one attention step are those of one Hopfield update",
      "The head then averages its own values, made by its W_V, not the keys",
      "after the one step the Transformer takes and at the fixed point of its Hopfield update",
      "the head then averages its values, not its keys", "this page runs it, the Transformer "
      "does not", "(Ramsauer et al.'s eq. 2, with its constants), the keys $k_j$ as the stored "
      "patterns", "into **four** classes, at N/2, N/8 and N/32 of the N tokens",
      "At the fixed point keys are compared with keys and long keys pull"],
     ["One attention step is one Hopfield update",
      "which of the three kinds of fixed point each head reaches",
      "each further step applies the update", "as this page does"]),
    ("capacity_lab", ["The one exception in this lab is a single stored pattern at small "
                      "$\\beta$", "wide enough for 6 flipped bits"],
     ["A query with a flipped bit lies outside that small sphere"]),
])
def test_the_corrected_sentences_are_on_the_page(page, said, gone):
    at = open_app(None if page == "home" else page)
    text = text_of(at)
    for s in said:
        assert s in text, s
    for s in gone:
        assert s not in text, s


def test_the_descent_view_says_what_the_energy_transformer_does_instead_of_tying_weights():
    """Attention family, descent view: the ET takes its update from one energy's gradient (no
    independent W_V), not 'ties its weights'; the caption names the no-projection condition."""
    at = open_app("attention_family", query={"view": "descent"})
    text = text_of(at)
    assert ("This is why the Energy Transformer takes its update from the gradient of one "
            "energy (it has no independent $W_V$), the same energy at every step") in text
    assert "with fixed memories as both keys and values (no projections) every layer" in text
    assert "ties its weights" not in text and "with tied weights" not in text


def test_the_landscape_states_caption_computes_the_classical_capacity():
    at = open_app("landscape", query={"view": "states", "bd": "16"})
    text = text_of(at)
    assert f"Hebbian capacity is about 0.138 d = {0.138 * 16:.1f} random patterns" in text
    assert "2.2 random patterns" in text and "0.14 d" not in text


@pytest.mark.parametrize("page", [None if p.default else p.file for p in pages.PAGES])
def test_default_settings_show_the_lesson_not_a_warning(page):
    at = open_app(page)
    assert not at.warning and not at.error and not at.exception, (
        [w.value for w in at.warning], [e.value for e in at.error])

"""The page "Inside a trained Transformer" in AppTest: both models, the head map against the
core, typed sentences and bad ones, the link, and the player's settling head."""
import json

import numpy as np
import pytest

from hopfield_core.heads import (
    analysis,
    fixed_point,
    kinds,
    minilm,
    vit,
    vit_checkpoint,
)
from tests.support import player
from tests.support.apptest import array, open_app, open_numbers
from ui.pages.transformer_heads import cache, explain, figures, sections
from ui.pages.transformer_heads.settings import DEFAULT_TEXT, MAX_TEXT

PAGE = "transformer_heads"
TEXT_KEY = f"{PAGE}_text"


def chart(at, key, t="start"):
    """The figure the head view's player shows in its panel `key` (bars, energy) at step t (the
    step it opens at by default)."""
    p = player.payload(at, PAGE)
    return player.at_step(at, PAGE, p["start"] if t == "start" else t).figure(key)


def head_map(at):
    heat = next(json.loads(c.proto.spec) for c in at.get("plotly_chart")
                if json.loads(c.proto.spec)["data"][0]["type"] == "heatmap")
    return array(heat["data"][0]["z"]).astype(int)


def core_heads(text=DEFAULT_TEXT):
    return analysis.analyse_model(minilm.load().read(text).layer_heads())


def tokens_shown(at):
    return at.code[0].value


def test_opens_on_the_minilm_with_the_kind_rule_and_the_papers_words():
    at = open_app(PAGE)
    assert at.get("plotly_chart") and not at.error
    assert any(kinds.KIND_RULE in c.value for c in at.caption)
    assert "[CLS]" in tokens_shown(at) and "1:the" in tokens_shown(at)
    text = " ".join(m.value for m in at.markdown)
    assert "BERT-base" in text and "MiniLM" in text and "digits ViT" in text


@pytest.mark.parametrize("fixed", [False, True])
def test_the_head_maps_kinds_are_the_cores(fixed):
    at = open_app(PAGE, {"fixed": "1" if fixed else "0"})
    heads = core_heads()
    want = np.stack([a.fixed_head_kind if fixed else a.one_step_head_kind for a in heads])
    np.testing.assert_array_equal(head_map(at), want)
    counts = np.bincount(want.ravel(), minlength=3)
    when = "at the fixed point" if fixed else "after one step"
    assert any(f"On this input, {when}: {counts[0]} global, {counts[1]} metastable, "
               f"{counts[2]} retrieval heads." in c.value for c in at.caption)


def test_the_vit_opens_on_a_held_out_digit_and_its_map_is_the_cores():
    at = open_app(PAGE, {"model": "vit", "digit": "7"})
    images, labels, _ = vit_checkpoint.load_heldout()
    heads = analysis.analyse_model(vit.layer_heads(vit_checkpoint.load(), images[7]))
    np.testing.assert_array_equal(head_map(at), np.stack([a.one_step_head_kind for a in heads]))
    assert head_map(at).shape == (4, 4)
    assert any(f"Held-out digit 7: a {int(labels[7])}" == c.value for c in at.caption)


def test_without_the_minilm_the_page_says_so_and_runs_on_the_vit(monkeypatch):
    cache._minilm.clear()
    monkeypatch.setattr(minilm, "PACKAGE", "no_such_minilm_package")
    try:
        at = open_app(PAGE)
        assert any("The MiniLM model is not installed" in w.value and "digits ViT" in w.value
                   for w in at.warning)
        assert head_map(at).shape == (4, 4)  # the ViT's 4 layers x 4 heads
        assert not at.text_area  # no sentence box: the ViT reads digits
    finally:
        cache._minilm.clear()


def test_a_typed_sentence_changes_the_view_and_the_link():
    at = open_app(PAGE)
    before, tokens_before = head_map(at), tokens_shown(at)
    sentence = "Paris is the capital of France and Berlin is the capital of Germany."
    at.text_area(key=TEXT_KEY).input(sentence).run()
    assert not at.exception
    assert "paris" in tokens_shown(at) and "germany" in tokens_shown(at)
    after = head_map(at)
    want = np.stack([a.one_step_head_kind for a in core_heads(sentence)])
    np.testing.assert_array_equal(after, want)
    assert at.query_params["text"] == sentence
    assert tokens_shown(at) != tokens_before  # the view is the new sentence's
    np.testing.assert_array_equal(before, np.stack([a.one_step_head_kind
                                                    for a in core_heads(DEFAULT_TEXT)]))


BAD = {
    "empty": ("", "the box is empty"),
    "spaces only": ("   \n\t ", "the box is empty"),
    # the box keeps the first MAX_TEXT characters of a longer text and says so
    "past the box's limit": ("word " * (MAX_TEXT // 4), f"only its first {MAX_TEXT} are kept"),
    "control characters": ("bad\x00 text\x07 here\x1b", "control or format characters"),
    "only control characters": ("\x00\x01\x02", "the box is empty"),
    "emoji": ("I love it 😀🎉🚀", "are [UNK]"),
    "only emoji": ("😀🎉", "are [UNK]"),
    "right-to-left text": ("שלום עולם مرحبا بالعالم \u202eevil\u202c", "control or format"),
    "markup": ("<b>bold</b> [link](http://example.org) **star** <script>x</script> $x^2$", None),
    "many tokens": ("a " * 290, "longer than 128 tokens"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_gives_a_message_never_an_exception(name):
    text, message = BAD[name]
    at = open_app(PAGE)
    at.text_area(key=TEXT_KEY).input(text).run()
    assert not at.exception and not at.error
    if message is not None:
        said = [i.value for i in at.info] + [w.value for w in at.warning]
        assert any(message in v for v in said), said


def test_markup_in_a_sentence_is_shown_as_plain_text():
    at = open_app(PAGE)
    at.text_area(key=TEXT_KEY).input("<b>bold</b> **star** [x](http://e.org)").run()
    shown = tokens_shown(at)  # st.code: plain text, whatever it holds
    assert "<" in shown and "*" in shown and "[" in shown
    for m in at.markdown:  # no markdown element carries the user's markup
        assert "<b>" not in m.value and "**star**" not in m.value


def test_the_link_round_trips():
    query = {"model": "minilm", "text": "Dogs chase cats in the garden every morning.",
             "fixed": "1", "layer": "2", "head": "5", "token": "3", "view": "head",
             "iteration": "2"}
    at = open_app(PAGE, query)
    assert at.text_area(key=TEXT_KEY).value == query["text"]
    assert at.number_input(key=f"{PAGE}_layer").value == 2
    assert at.number_input(key=f"{PAGE}_head").value == 5
    assert at.number_input(key=f"{PAGE}_token").value == 3
    assert at.toggle(key=f"{PAGE}_fixed").value
    for k, v in query.items():
        assert at.query_params[k] == v
    assert "link_messages" not in at.session_state


def test_a_link_with_10000_characters_is_refused_with_a_message():
    at = open_app(PAGE, {"text": "word " * 2000})
    assert not at.exception
    assert any("is far too long" in w.value for w in at.warning)
    assert at.text_area(key=TEXT_KEY).value == DEFAULT_TEXT


def test_clean_text_cuts_long_text_and_drops_invisible_marks():
    from ui.pages.transformer_heads.sections import clean_text

    text, notes = clean_text("x" * 10_000)
    assert len(text) == MAX_TEXT and "Your text has 10,000 characters" in notes[0]
    text, notes = clean_text("a\u202eb\x00c\nd")
    assert text == "abc d" and "2 control or format characters" in notes[0]
    assert clean_text("plain words") == ("plain words", [])


def test_a_paste_over_the_limit_is_cut_with_a_message_and_read():
    """Issue 44: the box's max_chars dropped a longer paste silently (the old sentence stayed).
    Now it keeps the first MAX_TEXT characters, says so once, and the link carries what is kept."""
    at = open_app(PAGE)
    pasted = ("Dogs chase cats in the garden. " * 30)[:700]
    at.text_area(key=TEXT_KEY).input(pasted).run()
    assert not at.exception
    said = [w.value for w in at.warning if "characters" in w.value]
    assert said == [f"Your text has 700 characters; only its first {MAX_TEXT} are kept and read. "
                    "Shorten it to see all of it."]
    assert at.text_area(key=TEXT_KEY).value == pasted[:MAX_TEXT]
    assert at.query_params["text"] == pasted[:MAX_TEXT]
    assert "dogs" in tokens_shown(at)
    at.text_area(key=TEXT_KEY).input("A short one.").run()  # the message goes with the long text
    assert not [w for w in at.warning if "characters" in w.value]


def test_a_link_past_the_vits_size_is_kept_within_it():
    at = open_app(PAGE, {"model": "vit", "layer": "5", "head": "11", "token": "100"})
    assert not at.exception
    assert at.number_input(key=f"{PAGE}_layer").value == 3
    assert at.number_input(key=f"{PAGE}_head").value == 3
    assert at.number_input(key=f"{PAGE}_token").value == 16


def test_the_player_walks_the_iteration_and_the_energy_falls():
    at = open_app(PAGE, {"layer": "0", "head": "0", "token": "1"})
    inp = cache.text_input(DEFAULT_TEXT)
    run = fixed_point.settle(inp.layers[0][0][0, 1], inp.layers[0][1][0],
                             analysis.default_beta(inp.d))
    T = run.steps
    assert T >= 2 and player.steps(at, PAGE) == T and player.payload(at, PAGE)["start"] == 0
    E0 = array(chart(at, "energy")["data"][0]["y"])
    assert len(E0) == 1
    E1 = array(chart(at, "energy", 1)["data"][0]["y"])
    np.testing.assert_allclose(E1, run.energies[:2])
    assert E1[1] <= E1[0]
    bars = array(chart(at, "bars", 1)["data"][0]["y"])
    np.testing.assert_allclose(bars, run.extras["weights"][1])
    E = array(chart(at, "energy", "end")["data"][0]["y"])
    assert len(E) == T + 1 and np.all(np.diff(E) <= 1e-9)
    W = run.extras["weights"]
    k_first, k_last = kinds.k90(W[0]), kinds.k90(W[T])
    assert any(f"k90 goes from {k_first} " in c.value and f"to {k_last} " in c.value
               for c in at.caption)
    first, last = player.at_step(at, PAGE, 0).sentence(), player.at_step(at, PAGE, "end").sentence()
    assert first.startswith(f"At the real attention: k90 = {k_first} of {inp.N} tokens")
    assert last == (f"At the fixed point: k90 = {k_last} of {inp.N} tokens, so this query is "
                    f"{kinds.kind_name(k_last, inp.N)}; energy {run.energies[T]:.6g}.")


def test_the_whole_model_tables_are_the_cores():
    at = open_app(PAGE, {"view": "model"})
    heads = core_heads()
    table = analysis.kinds_table(heads)
    ours = at.dataframe[0].value
    assert list(ours.columns) == ["layer", *sections.SHORT]  # the full names; short ones shown
    assert sections.TABLE_WORDS in [c.value for c in at.caption]  # what the short headers mean
    np.testing.assert_array_equal(ours["global, one step"].to_numpy(), table.one_step[:, 0])
    np.testing.assert_array_equal(ours["retrieval, fixed point"].to_numpy(), table.fixed[:, 2])
    held, share, n, _ = cache.heldout_table("minilm")
    theirs = at.dataframe[1].value
    np.testing.assert_array_equal(theirs["metastable, one step"].to_numpy(), held.one_step[:, 1])
    assert any(f"{100 * share:.1f} % of (token, head) pairs change kind" in c.value
               for c in at.caption)
    text = " ".join(m.value for m in at.markdown)
    assert f"{100 * share:.0f} % of (token, head) pairs change kind" in text


def test_the_papers_four_classes_stand_beside_the_three_kinds():
    """Issue 43, item 4: the same heads by Ramsauer et al.'s cut-offs (N/2, N/8, N/32), from the
    core, and what they mean at this input's N (17 tokens: no class IV; retrieval is class III)."""
    at = open_app(PAGE, {"view": "model"})
    table = analysis.kinds_table(core_heads())
    ours = at.dataframe[2].value
    assert list(ours.columns) == ["layer", *sections.CLASS_SHORT]
    for j, c in enumerate(kinds.PAPER_CLASSES):
        np.testing.assert_array_equal(ours[f"class {c}, fixed point"].to_numpy(),
                                      table.paper_fixed[:, j])
        np.testing.assert_array_equal(ours[f"class {c}, one step"].to_numpy(),
                                      table.paper_one_step[:, j])
    assert not table.paper_fixed[:, 3].any() and not table.paper_one_step[:, 3].any()
    held, _, _, _ = cache.heldout_table("minilm")
    np.testing.assert_array_equal(at.dataframe[3].value["class I, one step"].to_numpy(),
                                  held.paper_one_step[:, 0])
    words = " ".join(m.value for m in at.markdown)
    N, n_held = cache.text_input(DEFAULT_TEXT).N, cache.heldout_table("minilm")[3]
    assert N == 17 and "**On your input**: with 17 tokens class IV would need a median k90 " \
        "of at most 0.531: below 1, so no head can be in it; this page's retrieval heads are " \
        "the paper's class III." in words
    assert n_held == 64 and "**On the shipped held-out set**: with 64 tokens class IV is a " \
        "median k90 of at most 2; this page's retrieval heads are the paper's class IV." in words
    assert kinds.PAPER_RULE in " ".join(c.value for c in at.caption)


def test_a_sentence_with_markup_stays_out_of_the_link_and_a_link_with_markup_is_refused():
    at = open_app(PAGE)
    at.text_area(key=TEXT_KEY).input("a <b>bold</b> claim").run()
    assert "text" not in at.query_params
    assert any("the page's link leaves it out" in c.value for c in at.caption)
    at = open_app(PAGE, {"text": "see [this](http://evil.example)"})
    assert any("The link sets text = " in w.value and "markup" not in w.value.split("`")[0]
               for w in at.warning)
    assert at.text_area(key=TEXT_KEY).value == DEFAULT_TEXT


def test_the_bars_mark_the_k90_set_and_say_the_kind():
    at = open_app(PAGE, {"layer": "3", "head": "7", "token": "5"})
    inp = cache.text_input(DEFAULT_TEXT)
    Q, K = inp.layers[3]
    weights = kinds.attention_weights(Q[7, 5], K[7], analysis.default_beta(inp.d))
    bars = chart(at, "bars")["data"][0]
    np.testing.assert_allclose(array(bars["y"]), weights, rtol=1e-6)
    blue = [c == figures.BLUE for c in bars["marker"]["color"]]
    k = kinds.k90(weights)
    assert sum(blue) == k  # the k90 set: the k largest weights
    assert min(w for w, b in zip(weights, blue) if b) >= max([w for w, b in zip(weights, blue)
                                                               if not b] or [0])
    assert any(f"Query token 5: `{inp.tokens[5]}`" in c.value for c in at.caption)


def test_the_papers_section_states_the_held_out_counts_computed_here():
    at = open_app(PAGE)
    text = " ".join(m.value for m in at.markdown)
    for model, name in (("minilm", "MiniLM"), ("vit", "digits ViT")):
        table, share, n, _ = cache.heldout_table(model)
        g, m, r = table.total_one_step
        assert f"**{name}**" in text and f"one step: {g} global, {m} metastable, {r} retrieval" in text
        g, m, r = table.total_fixed
        assert f"at the fixed point: {g} global, {m} metastable, {r} retrieval" in text
        assert f"{100 * share:.0f} % of (token, head) pairs change kind" in text
        assert f"{100 * explain.sharper_share(table):.0f} % of those get sharper" in text


def test_the_sharper_share_is_that_of_all_changed_pairs():
    heads = core_heads()
    want = sum(int(a.sharper.sum()) for a in heads) / sum(int(a.changed.sum()) for a in heads)
    assert explain.sharper_share(analysis.kinds_table(heads)) == pytest.approx(want)


def test_a_link_opens_the_player_at_its_step():
    """The link's `iteration` is the step the head view opens at (the player then runs in the
    browser: its later steps do not reach the server); a new head starts at 0."""
    at = open_app(PAGE, {"layer": "0", "head": "0", "token": "1", "iteration": "3"})
    p = player.payload(at, PAGE)
    assert p["start"] == 3 and len(array(chart(at, "energy")["data"][0]["y"])) == 4
    assert at.query_params["iteration"] == "3"
    at.number_input(key=f"{PAGE}_head").set_value(1).run()  # a new head starts at step 0
    assert player.payload(at, PAGE)["start"] == 0
    assert at.query_params.get("iteration", "0") == "0"  # and its link says so
    at = open_app(PAGE, {"iteration": "200"})  # past the query's last step: its last step, said so
    T = player.steps(at, PAGE)
    assert player.payload(at, PAGE)["start"] == T
    assert any(f"past this query's last step, {T}" in c.value for c in at.caption)
    at = open_app(PAGE, {"iteration": "-4"})
    assert any("The link sets iteration = " in w.value for w in at.warning)
    assert player.payload(at, PAGE)["start"] == 0


def test_the_settling_heads_numbers_are_offered():
    at = open_numbers(open_app(PAGE), f"{PAGE}_head_numbers")
    inp = cache.text_input(DEFAULT_TEXT)
    table = next(d.value for d in at.dataframe if "energy" in d.value.columns)
    T = player.steps(at, PAGE)
    assert len(table) == T + 1 and len(table.columns) == 2 + inp.N  # a row per step, a column per token
    np.testing.assert_allclose(table["energy"].to_numpy(), array(chart(at, "energy", "end")["data"][0]["y"]))
    np.testing.assert_allclose(table.iloc[T, 2:].to_numpy(dtype=float),
                               array(player.at_step(at, PAGE, "end").figure("bars")["data"][0]["y"]), rtol=1e-6)


def test_the_sentence_help_counts_word_pieces_and_tokens_as_the_reader_does():
    """Issue 43, item 9: 128 tokens are [CLS], 126 word pieces and [SEP] (the truncation note
    says 126 too); the help said "its first 128 word pieces"."""
    from hopfield_core.heads.wordpiece import MAX_TOKENS

    at = open_app(PAGE)
    help_text = at.text_area(key=TEXT_KEY).help
    assert f"only its first {MAX_TOKENS - 2} word pieces are read ({MAX_TOKENS} tokens" in help_text
    assert f"first {MAX_TOKENS} word pieces" not in help_text
    long = cache.text_input("word " * 400)
    assert len(long.tokens) == MAX_TOKENS and long.tokens[0] == "[CLS]" \
        and long.tokens[-1] == "[SEP]"


def test_the_energy_shown_is_ramsauers_with_the_keys_as_patterns():
    """Issue 43, item 8: the head view defines its energy (Ramsauer et al.'s eq. 2 with its
    constants, the head's keys as the stored patterns), and the curve it draws is that formula,
    computed here directly from the head's query and keys."""
    from ui.pages.transformer_heads import head

    at = open_app(PAGE)
    assert any(head.ENERGY_LATEX in x.value for x in at.latex)
    shown = array(chart(at, "energy", "end")["data"][0]["y"])
    inp = cache.text_input(DEFAULT_TEXT)
    layer, head_i, token = (int(at.session_state[f"{PAGE}_{k}"]) for k in ("layer", "head", "token"))
    Q, K = inp.layers[layer]
    q, k = Q[head_i, token].astype(np.float64), K[head_i].astype(np.float64)  # (d,), (N, d)
    beta = analysis.default_beta(inp.d)
    s = beta * k @ q
    direct = (-(np.log(np.sum(np.exp(s - s.max()))) + s.max()) / beta + 0.5 * q @ q
              + np.log(len(k)) / beta + 0.5 * np.max(np.sum(k * k, axis=1)))
    assert shown[0] == pytest.approx(direct, rel=1e-5)
    assert np.all(np.diff(shown) <= 1e-9 * np.abs(shown[:-1]))  # never rises


def test_the_pull_of_the_longest_key_is_said_and_shown():
    """Issue 43, item 1: at the fixed point the weights compare keys with keys and long keys
    pull; the page says how often the retrieval pairs end on their head's longest key (one
    step against fixed point, beside chance), on the input and held out, and the head view
    says where its query ends against the head's longest key, computed here directly."""
    at = open_app(PAGE, {"view": "model"})
    heads = core_heads()
    pull = analysis.longest_pull(heads)
    assert pull.fixed > 3 * pull.one_step  # the default sentence: 49 % against 10 %
    captions = " ".join(c.value for c in at.caption)
    assert explain.pull_sentence(pull, "On this input") in captions
    held = cache.heldout_table("minilm")[0]
    assert explain.pull_sentence(held.pull, "Pooled") in captions
    assert held.pull.fixed > 2 * held.pull.one_step
    assert explain.PULL_WHY in [m.value for m in at.markdown]
    text = " ".join(m.value for m in at.markdown)
    for t in (held, cache.heldout_table("vit")[0]):  # the paper's section, both models
        assert (f"Long keys pull: of the retrieval pairs, {100 * t.pull.one_step:.0f} % put their "
                f"most weight on their head's longest key after one step, "
                f"{100 * t.pull.fixed:.0f} % at the fixed point") in text

    at = open_app(PAGE, {"layer": "0", "head": "0", "token": "1"})
    inp = cache.text_input(DEFAULT_TEXT)
    Q, K = inp.layers[0]
    fp = fixed_point.iterate(Q[0], K[0], analysis.default_beta(inp.d))
    land = np.argmax(fp.weights[0], axis=1)  # (N,) the token each query ends on
    norms = np.linalg.norm(K[0], axis=1)
    b = int(land[1])
    words = " ".join(c.value for c in at.caption)
    # the example: L0 H0 sends all 17 queries to "mouse", the 3rd longest key
    assert inp.tokens[b] == "mouse" and int(np.sum(land == b)) == inp.N == 17
    assert int(np.sum(norms > norms[b])) + 1 == 3
    assert f"on token {b} `mouse` at the fixed point, whose key is the 3rd longest of the " \
           f"head's 17. At the fixed point 17 of this head's 17 queries end on that token" in words


@pytest.mark.parametrize("n, said", [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"),
                                     (12, "12th"), (13, "13th"), (21, "21st"), (22, "22nd")])
def test_ordinals_are_english(n, said):
    from ui.serving.text import ordinal

    assert ordinal(n) == said

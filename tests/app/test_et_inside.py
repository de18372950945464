"""The Energy Transformer page's look inside the model (ui/pages/energy_transformer/inside.py): PSNR
beside MSE, the patch to look from chosen on a grid over the picture and carried by the link,
each head's sentence and chart against hopfield_core.et.inspect and hopfield_core.modern, and
the most used memories with the numbers under them."""
import json

import numpy as np
import pytest

from hopfield_core.et import load_pretrained
from hopfield_core.et.checkpoint import MODELS
from hopfield_core.et.inspect import (
    attention,
    drawn,
    memory_patches,
    memory_use,
    psnr,
    random_directions,
    roughness,
    top_memories,
)
from hopfield_core.et.masks import masked_patch_mse, random_mask
from hopfield_core.modern import k90
from hopfield_core.presets import preset_image
from tests.support.apptest import array, click, grid_sent, open_app
from tests.support.player import at_step, payload
from ui.pages.energy_transformer import inside
from ui.pages.energy_transformer.settings import GRID, PATCH, SIZE


@pytest.fixture(scope="module")
def et():
    """The model the page opens on: the paper's."""
    from hopfield_core.et.checkpoint import MODELS

    return load_pretrained("cpu", MODELS["paper"])


def metric(at, label: str, t) -> tuple[str, str, str]:
    """(value, change, tone) of the player's metric `label` at step t."""
    step = at_step(at, "energy_transformer", t)
    (name,) = [k for k, v in step.p["panels"].items() if v["kind"] == "metric" and v["label"] == label]
    return step.metric(name)


def attention_chart(at) -> dict:
    return json.loads(next(c for c in at.get("plotly_chart") if "energy_transformer_attention" in c.proto.id).proto.spec)


def head_lines(at) -> list[str]:
    return [line[2:] for m in at.markdown if m.value.startswith("**Patch ")
            for line in m.value.split("\n") if line.startswith("- ")]


def test_psnr_sits_beside_the_mse_and_follows_the_step(et):
    at = open_app("energy_transformer")
    img, mask = preset_image("photos", "coffee", SIZE), random_mask(GRID, 0.5, 0)
    ref = et.complete(img, mask)
    mse = [masked_patch_mse(f, img, mask, PATCH) for f in ref.frames]
    assert metric(at, "PSNR, ET", 0) == (f"{psnr(mse[0]):.2f} dB", "", "off")  # step 0: nothing to compare with
    # one delta a row (the MSE's): the PSNR's value follows the step, with no change line
    assert metric(at, "PSNR, ET", "end") == (f"{psnr(mse[-1]):.2f} dB", "", "off")
    row = next(row for row in payload(at, "energy_transformer")["layout"] if ["psnr", 1] in row)
    assert [pid for pid, _ in row][:2] == ["mse", "psnr"]  # beside the MSE
    assert not at.exception


def test_each_heads_sentence_and_chart_are_the_attention_of_the_chosen_patch(et):
    at = open_app("energy_transformer")  # the look inside is at the last step unless moved
    img, mask = preset_image("photos", "coffee", SIZE), random_mask(GRID, 0.5, 0)
    ref = et.complete(img, mask)
    T = len(ref.energies) - 1
    q = 27  # the default: row 4, column 4 (counted from 1), hidden under the default mask
    assert mask.flat[q]
    a = attention(et.model, ref.tokens, q)[T]  # (H, N)
    spec = attention_chart(at)
    heat = [tr for tr in spec["data"] if tr["type"] == "heatmap"]
    assert len(heat) == et.cfg.heads
    for h, tr in enumerate(heat):
        z = array(tr["z"])
        np.testing.assert_allclose(z.ravel(), 100 * a[h], rtol=1e-5, atol=1e-6)
    assert f"row 4, column 4) looks, step {T}" in spec["layout"]["title"]["text"].replace("<br>", " ")
    lines = head_lines(at)
    assert len(lines) == et.cfg.heads
    shown = ~mask.ravel()
    for h, line in enumerate(lines):
        keys = np.delete(a[h], q)
        top = int(np.argmax(a[h]))
        assert f"90 % of its weight on {k90(keys)} of {GRID * GRID - 1} patches" in line
        assert f"the most ({100 * a[h, top]:.0f} %) on {inside.place(top)}" in line
        assert f"{100 * a[h][shown].sum():.0f} % on the shown patches" in line
    assert any(m.value.startswith("**Patch row 4, column 4** (hidden)") for m in at.markdown)
    assert not at.exception


def test_a_patch_clicked_on_the_picture_is_looked_from_and_the_link_carries_it(et):
    at = open_app("energy_transformer")
    at.session_state[inside.QUERY_GRID] = click(0, 6, 1)  # row 1, column 7: shown by the mask
    at.run()
    assert at.query_params["query"] in ("6", ["6"])
    sent = grid_sent(at, inside.QUERY_GRID)
    assert sent["label"].endswith("row 1, column 7") and sent["words"][0] == "the patch looked from"
    cells = sent["cells"]
    assert cells[6] == "0" and cells.count("0") == 1  # the chosen patch, and only it
    assert any(m.value.startswith("**Patch row 1, column 7** (shown, so its token does not move)")
               for m in at.markdown)
    again = open_app("energy_transformer", {"query": "6"})
    assert any(m.value.startswith("**Patch row 1, column 7**") for m in again.markdown)
    bad = open_app("energy_transformer", {"query": "640"})  # past the grid: the last patch, said
    assert any(m.value.startswith("**Patch row 8, column 8**") for m in bad.markdown)
    assert any("query = `640`" in w.value and "using 63" in w.value for w in bad.warning)
    assert not at.exception and not bad.exception


@pytest.mark.parametrize("name", list(MODELS))
def test_the_most_used_memories_and_what_the_caption_says(name):
    et = load_pretrained("cpu", MODELS[name])
    at = open_app("energy_transformer", {"start": name})
    img, mask = preset_image("photos", "coffee", SIZE), random_mask(GRID, 0.5, 0)
    ref = et.complete(img, mask)
    use = memory_use(et.model, ref.tokens)[-1]
    order, shares = top_memories(use, inside.TOP)
    half = int(np.searchsorted(np.cumsum(np.sort(use)[::-1]), use.sum() / 2) + 1)
    assert np.cumsum(np.sort(use)[::-1])[half - 1] >= use.sum() / 2 > (
        np.cumsum(np.sort(use)[::-1])[half - 2] if half > 1 else 0)
    rough = (roughness(memory_patches(et.model, order)),
             roughness(drawn(et.model, random_directions(et.model, len(order)))),
             roughness(drawn(et.model, ref.tokens[-1])))
    want = inside.memory_words(shares, half, GRID * GRID, *rough)
    assert want in [c.value for c in at.caption]
    assert f"holds {100 * shares[0]:.1f} % of it" in want and f"{half} memories to make half" in want
    # issue 43, item 3: like with like; the memories' drawing is as rough as a random one's, and
    # an image's own tokens drawn the same way are far smoother (the photo's patches were the
    # wrong yardstick: "far rougher than pieces of photos")
    # measured: harmonic 0.29 against 0.33 (random) and 0.02 (tokens); paper 0.24, 0.30, 0.09
    near_random = {"harmonic": "about as rough as", "paper": "smoother than"}[name]
    assert f"{near_random} random directions" in want and "rougher than the image's" in want
    assert rough[2] < rough[0] / 2.5 and "far rougher than pieces of photos" not in want
    block = next(b for b in at.get("flex_container") if b.proto.id.endswith("-energy_transformer_memories"))
    image = next(e for e in block.children.values() if e.type == "image").proto.imgs[0]
    assert image.alt.startswith(f"The {inside.TOP} most used of the model's {et.cfg.memories}")
    assert not at.exception


@pytest.mark.parametrize("name", list(MODELS))
def test_the_page_says_what_the_descent_does_on_held_out_photos_from_the_card(name):
    """The sentence's figures are the card's (config.json "eval" and "eval_bench", which
    test_et_shipped.py re-measures); what it says of the descent follows from them, and its
    standing against biharmonic inpainting holds on both sets of crops (the default model is
    0.95 x on the card's 60 and 1.00 x on the benchmark's 240: "about level", not "better")."""
    from hopfield_core.et.checkpoint import shipped_config, shipped_eval
    from hopfield_core.et.standing import verdict
    from ui.pages.energy_transformer.explain import held_out_words

    ev, bench = shipped_eval(MODELS[name]), shipped_eval(MODELS[name], "eval_bench")
    at = open_app("energy_transformer", {"start": name})
    said = held_out_words(shipped_config(MODELS[name]), ev, bench)
    assert said in [m.value for m in at.markdown]
    assert f"{ev['et_mse'] / ev['mean_fill_mse']:.2f} x the mean fill's" in said
    ratios = [e["et_mse"] / e["biharmonic_mse"] for e in (ev, bench)]
    assert (f"it is {verdict(ratios)} biharmonic inpainting: {ratios[0]:.2f} x biharmonic's mean error on the "
            f"card's 60 crops and {ratios[1]:.2f} x on 240 crops of the same photos") in said
    counts = f"{round(ev['biharmonic_better_share'] * 60)} of 60 and {round(bench['biharmonic_better_share'] * 240)} of 240"
    assert counts in said
    if name == "harmonic":
        assert "it is about level with biharmonic" in said and "about 2 in 3 of the crops" in said
        assert f"by only {100 * (1 - ev['et_mse'] / ev['harmonic_mse']):.1f} % overall" in said
    else:
        assert "it is behind biharmonic" in said
        assert ("behind the harmonic fill" in said) == (ev["et_mse"] > ev["harmonic_mse"])
    assert held_out_words(shipped_config(MODELS[name]), {}) == ""  # no card, no claim
    assert held_out_words(shipped_config(MODELS[name]), {**ev, "et_mse": "junk"}) == ""
    alone = held_out_words(shipped_config(MODELS[name]), ev, {})  # no benchmark figures: the card's only
    assert f"{ratios[0]:.2f} x biharmonic's mean error on the card's 60 crops" in alone and "240" not in alone


def test_a_head_is_named_by_the_one_rule_for_attention_heads():
    """Issue 43, item 2: 90 % of the weight on 49 of 63 patches (top 5 %, uniform 1.6 %) is
    global, as on the heads page (k90 >= N/2) and in Ramsauer et al.'s class I; the ET's look
    inside had called it metastable by the modern page's fixed-point rule (k90 >= 0.9 N)."""
    from hopfield_core.heads import kinds
    from hopfield_core.modern import fixed_point_kind

    N, q = GRID * GRID, 0
    w = np.zeros(N)
    w[1:50] = 0.9 / 49
    w[50:] = 0.1 / (N - 50)
    w[1] += 0.05 - w[1]
    w /= w.sum()
    keys = np.delete(w, q)
    assert k90(keys) == 49 and fixed_point_kind(keys) == "metastable"  # the other rule
    (words,) = inside.head_words(w[None], np.ones((GRID, GRID), bool), q, self_out=True)
    assert kinds.kind_name(49, 63) == "global"
    assert words.startswith("Head 1 averages over half the patches or more (global): 90 % of "
                            "its weight on 49 of 63 patches")
    assert f"retrieval: k90 <= {kinds.RETRIEVAL_MAX_K90}; global: k90 >= N/2" in inside.KIND_WORDS
    assert kinds.global_min_k90(63) == 32  # N/2 of the 63 patches a head looks at
    at = open_app("energy_transformer")
    assert inside.KIND_WORDS in [c.value for c in at.caption]
    assert not any("averages over nearly all" in m.value for m in at.markdown)


def test_the_look_inside_is_computed_once_per_run_step_and_patch_for_the_whole_class(monkeypatch):
    """Issue 45: the look inside was about 8 % of the server's time under a class's load,
    recomputed on every rerun of every session. Now it is cached by the run, the step and the
    patch (ui/pages/energy_transformer/cache.py): a second student on the same link, and a
    rerun, compute nothing; another patch computes its own attention only."""
    from hopfield_core.et import inspect
    from ui.pages.energy_transformer import cache

    calls = {"attention": 0, "memory_use": 0}
    for name in calls:
        real = getattr(inspect, name)

        def counted(*a, _real=real, _name=name, **k):
            calls[_name] += 1
            return _real(*a, **k)
        monkeypatch.setattr(inspect, name, counted)
    cache.attention.clear()
    cache.memories.clear()
    first = open_app("energy_transformer")
    assert calls == {"attention": 1, "memory_use": 1}, calls
    open_app("energy_transformer")  # another student, the same link
    first.run()  # a rerun
    assert calls == {"attention": 1, "memory_use": 1}, calls
    open_app("energy_transformer", {"query": "5"})
    assert calls == {"attention": 2, "memory_use": 1}, calls

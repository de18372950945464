"""Inside a trained Transformer in a real browser (issue 36): a student types a sentence,
picks a layer and a head, and plays that head's Hopfield update to its fixed point in the
browser player; the link names the head, and the words stay text."""
import re

from tests.support.browser import assert_healthy, goto, player_button, wait_idle

SENTENCE = "Paris is the capital of France, and <b>Berlin</b> is the capital of Germany."


def main_text(pg) -> str:
    return pg.inner_text('[data-testid="stMain"]')


def set_number(pg, label: str, value: int) -> None:
    box = pg.get_by_role("spinbutton", name=label, exact=True)
    box.fill(str(value))
    box.press("Enter")
    wait_idle(pg)


def test_type_a_sentence_pick_a_head_and_play_it_to_the_fixed_point(page, server):
    goto(page, server, "transformer_heads")
    box = page.get_by_role("textbox", name="Your sentence (the MiniLM reads it)")
    box.fill(SENTENCE)
    box.press("Control+Enter")
    wait_idle(page)
    text = main_text(page)
    assert "paris" in text and "germany" in text  # the MiniLM's word pieces, lower-cased
    assert page.locator('[data-testid="stMain"] b').count() == 0  # markup stays text
    assert "<" in text and "1:paris" in text
    set_number(page, "Layer", 2)
    set_number(page, "Head", 3)
    set_number(page, "Query token (position)", 2)
    last = int(re.search(r"step 0 of (\d+)", main_text(page)).group(1))
    assert last >= 1
    player_button(page, "Play").click()
    page.wait_for_function(f"() => document.body.innerText.includes('step {last} of {last}')",
                           timeout=120_000)
    wait_idle(page, settle_ms=800)
    text = main_text(page)
    player = ".st-key-transformer_heads_player"
    said = page.locator(f"{player} .hp-live").first.text_content()  # the live region under the bars
    assert said.startswith("At the fixed point: k90 = "), said
    titles = " ".join(page.locator(f"{player} [data-panel=bars] .gtitle").all_text_contents())
    assert re.search(rf"Attention of token 2,\s*layer 2, head 3, step {last}\b", titles), titles
    # the link names the view: model, sentence is left out (it holds markup), layer, head, token
    # (the player's step stays in the browser: a link opens at the step it names)
    url = page.url
    for part in ("layer=2", "head=3", "token=2"):
        assert part in url, url
    assert "text=" not in url and "leaves it out" in text
    assert_healthy(page)


def test_a_paste_over_the_limit_is_cut_and_the_page_says_so(page, server):
    """Issue 44: a paste of 700 characters did nothing (Streamlit's max_chars dropped it, the
    old sentence stayed, no message). Now the box keeps the first 600 and a message says so."""
    from ui.pages.transformer_heads.settings import MAX_TEXT

    goto(page, server, "transformer_heads")
    box = page.get_by_role("textbox", name="Your sentence (the MiniLM reads it)")
    pasted = ("The cat sat on the mat and looked at the dog. " * 20)[:700]
    box.click()
    box.fill(pasted)  # fill sends the text in one input event, as a paste does
    box.press("Control+Enter")
    wait_idle(page)
    assert f"Your text has 700 characters; only its first {MAX_TEXT} are kept and read." in main_text(page)
    assert box.input_value() == pasted[:MAX_TEXT]
    assert "dog" in main_text(page)  # the MiniLM read the new text, not the old sentence
    assert_healthy(page)

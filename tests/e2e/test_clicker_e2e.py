"""A presentation clicker in presenter mode (ui/player/keyboard.py CLICKER, browser_player.js): Page
Down and the Right arrow step the page's player forward, Page Up and the Left arrow step back, Home
resets, on the classical, modern and Energy Transformer pages; in a lesson the press after the last
step of the run opens the lesson's next step. Outside presenter mode the keys are the browser's
(Page Down scrolls). The Play speed starts from the link and a change is written back to it."""
from urllib.parse import parse_qs, urlparse

import pytest

from tests.support.browser import assert_healthy, goto, shot, wait_idle
from ui.lessons import ready
from ui.pages import lesson_steps

BAR = ".st-key-lesson_bar"


def frame(pg, player: str) -> int:
    return int(pg.locator(f"{player} .hp-root").get_attribute("data-frame"))


def shown(pg, player: str) -> int:
    """The run's last frame."""
    return pg.evaluate(f"() => document.querySelector('{player} .hp-root').__hp.p.shown")


def press(pg, key: str, times: int = 1) -> None:
    pg.evaluate("() => document.activeElement && document.activeElement.blur()")  # as a clicker: no focus
    for _ in range(times):
        pg.keyboard.press(key)


# presenter mode: at the run's end the verdict, with the page's finding, and the state share the
# projector's first screen (ui/player/dynamics_frames.layout; tests/app/test_presenter_finding.py)
FINDING = {"classical": "Retrieved pattern", "dense": "The classical network (1982), same query:",
           "modern": "Fixed point: "}
BOX = """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
                    return [r.top, r.bottom, document.querySelector(sel).innerText]; }"""


@pytest.mark.parametrize("name", ["classical", "dense", "modern", "energy_transformer"])
def test_a_clicker_steps_and_resets_in_presenter_mode(page, server, name):
    page.set_viewport_size({"width": 1024, "height": 768})
    goto(page, server, f"{name}?presenter=1")
    player = f".st-key-{name}_player"
    page.locator(f"{player} button[data-role=step]").wait_for()
    assert frame(page, player) == 0
    last = shown(page, player)
    assert last >= 2
    press(page, "PageDown")
    assert frame(page, player) == 1
    press(page, "ArrowRight", last)  # no further than the run's end
    assert frame(page, player) == last
    if name in FINDING:
        page.wait_for_function(f"() => document.querySelector('{player} [data-panel=notes]').innerText"
                               f".includes({FINDING[name]!r})")
        top, bottom, text = page.evaluate(BOX, f"{player} [data-panel=notes]")
        assert bottom <= 768 and "keep stepping" not in text, (top, bottom, text)
        assert page.evaluate(BOX, f"{player} [data-panel=state]")[1] <= 768
        shot(page, f"clicker_{name}_1024_presenter_end")
    press(page, "PageUp")
    assert frame(page, player) == last - 1
    press(page, "ArrowLeft")
    assert frame(page, player) == last - 2
    shot(page, f"clicker_{name}_1024_presenter")
    press(page, "Home")
    assert frame(page, player) == 0
    press(page, "ArrowLeft")  # nothing before step 0
    assert frame(page, player) == 0
    assert_healthy(page)


def test_outside_presenter_mode_page_down_is_the_browsers(page, server):
    goto(page, server, "classical")
    player = ".st-key-classical_player"
    page.locator(f"{player} button[data-role=step]").wait_for()
    press(page, "PageDown", 2)
    assert frame(page, player) == 0


def test_in_a_lesson_the_press_after_the_run_opens_the_next_step(browser, server):
    r = next(r for r in ready.keep_all(lesson_steps.problems) if r.name == "1-memories-as-valleys")
    n = len(r.lesson.steps)
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(f"{server}/?lesson={r.code}&presenter=1")
    pg.wait_for_function(f"() => document.querySelector('{BAR}')?.innerText.includes('step 1 of {n}')")
    wait_idle(pg)
    player = ".st-key-classical_player"
    press(pg, "PageDown")  # the question waits: the run is held, the press does nothing
    assert frame(pg, player) == 0 and "step 1 of" in pg.locator(BAR).inner_text()
    pg.locator(".st-key-lesson_option [role=radiogroup] label").first.click()  # the first option
    wait_idle(pg)
    pg.locator(".st-key-lesson_lock button").click()
    wait_idle(pg)
    pg.wait_for_function(f"() => !document.querySelector('{player} button[data-role=step]').disabled")
    for _ in range(200):  # a clicker to the end of the run
        last = pg.locator(f"{player} button[data-role=step]").is_disabled()
        if last:
            break
        press(pg, "PageDown")
    assert last, "the clicker did not reach the run's end"
    press(pg, "PageDown")
    pg.wait_for_function(f"() => document.querySelector('{BAR}')?.innerText.includes('step 2 of {n}')")
    assert_healthy(pg)
    context.close()


def test_the_play_speed_starts_from_the_link_and_goes_back_into_it(page, server):
    goto(page, server, "classical?speed=2")
    speed = page.locator(".st-key-classical_player .hp-speed")
    speed.wait_for()
    assert speed.input_value() == "2"
    speed.select_option("4")
    page.wait_for_function("() => new URLSearchParams(location.search).get('speed') === '4'")
    wait_idle(page)
    assert parse_qs(urlparse(page.url).query)["speed"] == ["4"]
    page.locator('[data-testid=stSidebarNav] a[href$="/modern"]').click()  # another page, same session
    wait_idle(page)
    page.locator(".st-key-modern_player .hp-speed").wait_for()
    assert page.locator(".st-key-modern_player .hp-speed").input_value() == "4"


def test_one_back_press_per_page(page, server):
    """A page visit writes its settings into the address bar after its run, and a slider move
    changes them again: neither is a history entry of its own (ui/shell/history.py)."""
    goto(page, server, "classical")
    for path in ("modern", "dense"):
        page.locator(f'[data-testid=stSidebarNav] a[href$="/{path}"]').click()
        page.wait_for_url(f"**/{path}?**")
        wait_idle(page)
    page.locator(".st-key-dense_steps input").fill("44")
    page.keyboard.press("Enter")
    page.wait_for_url("**steps=44**")
    wait_idle(page)
    page.go_back()
    page.wait_for_url("**/modern?**")
    wait_idle(page)
    page.go_back()
    page.wait_for_url("**/classical?**")
    assert "/classical" in page.url


def test_presenter_mode_shows_the_result_when_the_run_reaches_it(page, server):
    """The modern page's k90 and fixed-point kind are not on the page at step 0 in presenter
    mode; once the clicker reaches the run's end they are (the player tells the server)."""
    page.set_viewport_size({"width": 1024, "height": 768})
    goto(page, server, "modern?presenter=1")
    player = ".st-key-modern_player"
    page.locator(f"{player} button[data-role=step]").wait_for()
    labels = '[data-testid="stMetricLabel"]'
    assert page.locator(labels).filter(has_text="Fixed point").count() == 0
    assert page.get_by_text("Shown when the run reaches its end").count() >= 1
    press(page, "PageDown", shown(page, player))
    page.locator(labels).filter(has_text="Fixed point").first.wait_for()
    assert_healthy(page)
    shot(page, "presenter_result_after_the_run_1024")

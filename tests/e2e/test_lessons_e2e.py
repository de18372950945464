"""Lessons in a real browser: a student goes through a ready lesson by keyboard alone (Tab to the
question, choose, lock, Tab to the player's Run, Tab to Next) to the summary; a teacher builds a
two-step lesson with "Add this view to a lesson", saves it, and a second browser opens the
student link; what a teacher typed is shown inert; axe finds no serious violation with the lesson
bar on the page; screenshots at 1400 x 1000, 1024 x 768 in presenter mode and 390 x 844."""
import re

import pytest

from tests.support.axe import describe, violations
from tests.support.browser import assert_healthy, shot, wait_idle
from ui.lessons import lesson_store, ready
from ui.pages import lesson_steps

BAR = ".st-key-lesson_bar"
FOCUS = """() => {
  const a = document.activeElement;
  if (!a || a === document.body) return "";
  const bar = a.closest('.st-key-lesson_bar');
  if (a.closest('.hp-root')) return 'player:' + (a.dataset.role || a.tagName);
  const where = bar ? 'bar:' : '';
  if (a.type === 'radio') return where + 'radio:' + (a.closest('label')?.innerText || a.value || '').trim();
  return where + (a.innerText || a.getAttribute('aria-label') || a.tagName).trim();
}"""


def focus(pg) -> str:
    return pg.evaluate(FOCUS)


def tab_to(pg, wanted, most: int = 150, key: str = "Tab") -> str:
    """Press Tab (or `key`, e.g. Shift+Tab) until the focus matches `wanted` (a regular
    expression); the focus's name."""
    for _ in range(most):
        pg.keyboard.press(key)
        now = focus(pg)
        if re.search(wanted, now):
            return now
    raise AssertionError(f"Tab never reached {wanted!r} (last: {focus(pg)!r})")


def bar_text(pg) -> str:
    return pg.locator(BAR).inner_text()


def wait_step(pg, k: int, n: int) -> None:
    pg.wait_for_function(f"() => (document.querySelector('{BAR}') || {{}}).innerText?.includes('step {k} of {n}')",
                         timeout=60_000)
    wait_idle(pg)


@pytest.fixture(scope="module")
def lessons():
    return {r.name: r for r in ready.keep_all(lesson_steps.problems)}


def test_a_student_takes_a_ready_lesson_by_keyboard_alone(browser, server, lessons):
    r = lessons["1-memories-as-valleys"]
    n = len(r.lesson.steps)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(f"{server}/?lesson={r.code}")
    wait_step(pg, 1, n)
    found = violations(pg)
    assert not found, describe(found)
    shot(pg, "lesson_student_1400_question")
    for k, step in enumerate(r.lesson.steps, start=1):
        wait_step(pg, k, n)
        assert_healthy(pg)
        player = f".st-key-{step.page}_player"
        if step.question:
            assert pg.locator(f"{player} .hp-held").inner_text().startswith("Step, Run and Play open")
            assert pg.locator(f"{player} button[data-role=step]").is_disabled()
            pg.evaluate("() => document.activeElement && document.activeElement.blur()")  # from the top
            assert tab_to(pg, r"^bar:radio:") == "bar:radio:Not sure yet"  # the choice to start with
            pg.keyboard.press("ArrowDown")  # round to the first option
            pg.wait_for_function("() => document.querySelector('.st-key-lesson_bar input[type=radio]').checked")
            wait_idle(pg)
            tab_to(pg, r"^bar:Lock my prediction")
            pg.keyboard.press("Enter")
            pg.wait_for_function(f"() => !document.querySelector('{player} button[data-role=step]').disabled",
                                 timeout=60_000)
            wait_idle(pg)
            assert "Your prediction is locked" in bar_text(pg)
            tab_to(pg, r"^player:run_all$")
            pg.keyboard.press("Enter")
            answer = pg.locator(f"{player} .hp-answer")
            answer.wait_for(state="visible")
            assert re.match(r"^You predicted .+\. .+", answer.inner_text())
            assert answer.get_attribute("role") == "status"  # announced
            if k == 1:
                shot(pg, "lesson_student_1400_answered")
        tab_to(pg, r"^bar:(arrow_forward\s*)?(Next|See my summary)$", key="Shift+Tab")  # the bar is above the page
        pg.keyboard.press("Enter")
    pg.wait_for_function(f"() => (document.querySelector('{BAR}') || {{}}).innerText?.includes('Your predictions')")
    wait_idle(pg)
    text = bar_text(pg)
    asked = sum(1 for s in r.lesson.steps if s.question)
    assert f"{asked} of {asked} questions answered" in text
    found = violations(pg)
    assert not found, describe(found)
    shot(pg, "lesson_student_1400_summary")
    context.close()


@pytest.mark.parametrize("width, height, query, name", [
    (1024, 768, "&presenter=1", "presenter_1024"), (390, 844, "", "phone_390")])
def test_the_lesson_bar_in_presenter_mode_and_on_a_phone(browser, server, lessons, width, height, query, name):
    r = lessons["2-from-hopfield-to-attention"]
    context = browser.new_context(viewport={"width": width, "height": height})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(f"{server}/?lesson={r.code}{query}")
    wait_step(pg, 1, len(r.lesson.steps))
    box = pg.locator(BAR).bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1  # nothing cut at the sides
    lock = pg.get_by_role("button", name="Lock my prediction")
    assert lock.is_visible()
    found = violations(pg)
    assert not found, describe(found)
    shot(pg, f"lesson_bar_{name}")
    context.close()


def test_a_teacher_builds_a_lesson_and_a_student_opens_its_link(browser, server):
    teacher = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = teacher.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(f"{server}/classical?mode=sync")  # the draft lives in this tab's session: from here
    wait_idle(pg)                               # on, the app's own navigation
    for k, then in ((1, "Modern network & metastable states"), (2, "Lessons")):
        pg.get_by_role("button", name=re.compile("Add this view to a lesson")).click()
        pg.get_by_text(f"Added as step {k} of your draft lesson").wait_for()
        pg.locator('[data-testid="stSidebarNav"]').get_by_role("link", name=then).click()
        wait_idle(pg)
    hostile = "<img src=x onerror=\"window.pwned=1\"> **not bold** [a link](http://example.org)"
    pg.get_by_label("Lesson title (at most 80 characters)").fill("Two views")
    pg.get_by_label("Instruction for students").first.fill(hostile)
    pg.keyboard.press("Tab")
    wait_idle(pg)
    pg.get_by_role("button", name="Save", exact=True).click()
    wait_idle(pg)
    links = pg.locator('[data-testid="stCode"]')
    links.first.wait_for()
    student_link = links.nth(0).inner_text().strip()
    assert re.search(r"/\?lesson=[2-9A-HJKMNP-Z]{6}$", student_link), student_link
    assert "key=" in links.nth(1).inner_text()
    shot(pg, "lesson_teacher_saved")
    code = student_link.rsplit("=", 1)[1]
    assert lesson_store.get(code).body["steps"][0]["instruction"] == hostile
    student = browser.new_context(viewport={"width": 390, "height": 844})
    sp = student.new_page()
    sp.set_default_timeout(60_000)
    sp.goto(student_link)
    wait_step(sp, 1, 2)
    text = bar_text(sp)
    assert hostile in text.replace("\u2060", "")  # as typed (a word joiner keeps the address unlinked)
    assert sp.locator(f"{BAR} img").count() == 0 and sp.locator(f"{BAR} a").count() == 0
    assert sp.locator(f"{BAR} strong", has_text="not bold").count() == 0
    assert not sp.evaluate("() => window.pwned === 1")
    assert "Teacher's note" not in text and "key=" not in sp.url
    shot(sp, "lesson_student_phone_built")
    student.close()
    teacher.close()


def test_a_lesson_file_is_imported_or_refused_in_one_sentence(browser, server, lessons):
    import json

    from ui.lessons import lesson_file

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    pg.goto(f"{server}/lessons")
    wait_idle(pg)
    box = pg.locator('[data-testid="stFileUploader"]').filter(has_text="Import a lesson file")
    bad = {"format": "hopfield-lesson", "version": 1, "title": "Bad",
           "steps": [{"page": "classical", "view": {"betta": "5"}, "title": "x"}]}
    box.locator('input[type="file"]').set_input_files(
        files=[{"name": "bad.json", "mimeType": "application/json", "buffer": json.dumps(bad).encode()}])
    alert = pg.locator('[data-testid="stAlert"]').filter(has_text="was not imported")
    alert.wait_for()
    assert "has no setting called" in alert.inner_text() and "betta" in alert.inner_text()
    assert pg.get_by_text("Your draft has no steps yet").count() == 1  # nothing half-imported
    good = lesson_file.write(lessons["3-how-much-can-a-memory-hold"].lesson)
    box.locator('input[type="file"]').set_input_files(
        files=[{"name": "good.json", "mimeType": "application/json", "buffer": good}])
    pg.get_by_text("Imported \"How much can a memory hold\"").wait_for()
    wait_idle(pg)
    assert pg.get_by_label("Lesson title (at most 80 characters)").input_value() == "How much can a memory hold"
    shot(pg, "lesson_teacher_imported")
    context.close()

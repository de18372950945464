"""A live class in Chromium: a teacher (1024 x 768, presenter and projector mode) and three
students (one on a 390 x 844 phone) in their own browser contexts. The students join by the code
from Home, each sends a prediction; the teacher's counts reach 3; Reveal opens the outcome on the
students' pages; Next moves them to the next step. axe finds no serious or critical violation on
the teacher's board or a student's bar. Screenshots: artifacts/e2e/live_*.png."""
from urllib.parse import parse_qs, urlparse

from tests.support.axe import describe, violations
from tests.support.browser import assert_healthy, goto, shot, wait_idle
from tests.support.live_lesson import BODY
from ui.lessons import lesson_store

CHOICES = ["pattern H", "pattern O", "Not sure yet"]


def params(pg) -> dict:
    return {k: v[0] for k, v in parse_qs(urlparse(pg.url).query).items()}


def test_a_teacher_and_three_students_predict_reveal_and_move_on(browser, server):
    lesson, _ = lesson_store.create(BODY, BODY["title"])
    teacher_ctx = browser.new_context(viewport={"width": 1024, "height": 768})
    teacher = teacher_ctx.new_page()
    teacher.set_default_timeout(60_000)
    goto(teacher, server, f"?lesson={lesson}")
    teacher.locator(".st-key-class_start button").click()
    teacher.locator(".hp-class-code").wait_for()
    wait_idle(teacher)
    code = params(teacher)["class"]
    goto(teacher, server, urlparse(teacher.url).path.lstrip("/") + "?" + urlparse(teacher.url).query
         + "&presenter=1&projector=1")
    teacher.locator(".hp-class-code").wait_for()

    students, contexts = [], []
    for i, size in enumerate([(390, 844), (1024, 768), (1400, 1000)]):
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
        pg = ctx.new_page()
        pg.set_default_timeout(60_000)
        goto(pg, server, "")
        pg.locator(".st-key-join_code input").fill(f" {code.lower()} ")
        pg.keyboard.press("Enter")
        pg.locator(".st-key-class_send button").wait_for()
        wait_idle(pg)
        assert params(pg)["class"] == code and "ckey" not in params(pg)
        pg.get_by_text(CHOICES[i], exact=True).click()
        pg.locator(".st-key-class_send button").click()
        pg.get_by_text("Waiting for your teacher", exact=False).wait_for()
        students.append(pg)
        contexts.append(ctx)
    shot(students[0], "live_student_390_waiting")
    found = violations(students[0])
    assert not found, describe(found)

    teacher.wait_for_function("() => [...document.querySelectorAll('[data-testid=stMetric]')]"
                              ".some(m => m.innerText.includes('Predicted') && m.innerText.includes('3'))",
                              timeout=20_000)
    shot(teacher, "live_teacher_1024_projector_3_predicted")
    found = violations(teacher)
    assert not found, describe(found)

    teacher.locator(".st-key-class_reveal button").click()
    wait_idle(teacher)
    for pg in students:
        pg.get_by_text("Your teacher has shown the answer", exact=False).wait_for(timeout=20_000)
    shot(students[0], "live_student_390_revealed")
    shot(teacher, "live_teacher_1024_projector_revealed")

    teacher.locator(".st-key-class_next_t button").click()
    for pg in students:  # every student's page follows within the polls
        # the step's number is written a run before the page switches to the step's page: wait for both
        pg.wait_for_function("() => new URLSearchParams(location.search).get('step') === '2'"
                             " && location.pathname.endsWith('/modern')", timeout=20_000)
        assert "/modern" in pg.url
    for pg in [teacher, *students]:
        assert_healthy(pg)
    for ctx in [teacher_ctx, *contexts]:
        ctx.close()

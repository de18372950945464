"""Building a lesson in the app (AppTest): "Add this view to a lesson" takes the page's view; the
Lessons page edits, reorders, removes, refuses what the schema refuses (one sentence, nothing
saved), previews as a student, saves (a code, a student link, a teacher link), and the teacher's
link opens the lesson back for editing; codes typed by hand and saves are rate-limited."""
import time

from tests.support.apptest import open_app
from ui.lessons import lesson_file, lesson_store
from ui.pages import lesson_steps
from ui.pages.lessons import sections


def add_view(at, **settings):
    for key, value in settings.items():
        widget = at.radio(key=f"classical_{key}") if key == "mode" else at.slider(key=f"classical_{key}")
        widget.set_value(value).run()
    at.button(key="add_view_to_lesson").click().run()
    assert not at.exception, at.exception
    return at


def texts(elements) -> list[str]:
    return [e.value.replace("\\", "") for e in elements]


def draft_with_two_steps():
    at = open_app("classical")
    add_view(at, mode="sync")
    assert "Added as step 1 of your draft lesson: edit it on the Lessons page." in texts(at.sidebar.caption)
    add_view(at, mode="async", T=0.1)
    at.switch_page("app_pages/lessons.py").run()
    assert not at.exception, at.exception
    return at


def uids(at) -> list[str]:
    return [t.key.rsplit("_", 1)[1] for t in at.text_input if t.key.startswith("lessons_title_")]


def test_views_added_on_a_page_become_steps_that_save_as_a_lesson_with_links():
    at = draft_with_two_steps()
    first, second = uids(at)
    at.button(key="lessons_save").click().run()
    assert texts(at.error) == ["Not saved: The lesson's title is empty."]
    at.text_input(key="lessons_title").set_value("Sync against async").run()
    at.text_area(key=f"lessons_instruction_{first}").set_value("x" * 501).run()
    assert "This instruction is 501 characters long; at most 500 are allowed. Shorten it to save." in texts(at.error)
    at.button(key="lessons_save").click().run()
    assert "Not saved: Step 1's instruction is 501 characters long; at most 500 are allowed." in texts(at.error)
    assert not at.code  # nothing saved: no code, no links
    at.text_area(key=f"lessons_instruction_{first}").set_value("Predict, then Play.").run()
    at.selectbox(key=f"lessons_question_{first}").set_value("destination").run()
    at.text_area(key=f"lessons_note_{second}").set_value("<b>async settles</b>").run()
    at.button(key="lessons_save").click().run()
    assert not at.exception and not at.error
    student, teacher = [c.value for c in at.code]
    code = student.rsplit("=", 1)[1]
    assert student.endswith(f"/?lesson={code}") and f"lesson={code}&key=" in teacher
    kept = lesson_store.get(code)
    steps = kept.body["steps"]
    assert [s["view"]["mode"] for s in steps] == ["sync", "async"] and steps[1]["view"]["T"] == "0.1"
    assert steps[0]["question"] == "destination" and steps[1]["note"] == "<b>async settles</b>"
    assert "uid" not in steps[0] and kept.title == "Sync against async"
    assert key_not_shown_to(student_app := open_app(query={"lesson": code}), teacher)
    assert student_app.query_params["mode"] == "sync"


def key_not_shown_to(at, teacher_link: str) -> bool:
    key = teacher_link.rsplit("=", 1)[1]
    return all(key not in str(e.value) for e in [*at.markdown, *at.caption, *at.code]) \
        and key not in str(dict(at.query_params))


def test_steps_move_and_go():
    at = draft_with_two_steps()
    first, second = uids(at)
    at.button(key=f"lessons_down_{first}").click().run()
    assert uids(at) == [second, first]
    assert at.button(key=f"lessons_up_{second}").disabled and at.button(key=f"lessons_down_{first}").disabled
    at.button(key=f"lessons_remove_{second}").click().run()
    assert uids(at) == [first]


def test_the_teacher_link_opens_the_lesson_for_editing_and_saves_in_place():
    body = {"format": "hopfield-lesson", "version": 1, "title": "Old", "steps": [
        {"page": "modern", "view": {"beta": "2"}, "title": "Beta 2", "question": "fixed_point", "note": "n"}]}
    code, key = lesson_store.create(body, "Old")
    at = open_app(query={"lesson": code, "key": key})
    at.switch_page("app_pages/lessons.py").run()
    at.button(key="lessons_edit").click().run()
    at.text_input(key="lessons_title").set_value("New title").run()
    at.button(key="lessons_save").click().run()
    assert f"Lesson {code} saved: its links are unchanged." in texts(at.success)
    assert lesson_store.get(code).title == "New title" and lesson_store.count()[0] >= 1
    at.button(key="lessons_delete").click().run()
    assert lesson_store.get(code) is None


def test_a_preview_is_taken_as_a_student_and_keeps_nothing():
    at = draft_with_two_steps()
    at.text_input(key="lessons_title").set_value("Preview me").run()
    first = uids(at)[0]
    at.selectbox(key=f"lessons_question_{first}").set_value("energy_rises").run()
    before = lesson_store.count()
    at.button(key="lessons_preview").click().run()
    assert not at.exception
    assert any("**Preview me** · step 1 of 2" in m.value for m in at.markdown)
    at.radio(key="lesson_option").set_value("yes")
    at.button(key="lesson_lock").click().run()
    assert lesson_store.count() == before and "lesson" not in at.query_params


def test_the_export_is_a_lesson_file_that_reads_back():
    at = draft_with_two_steps()
    assert at.get("download_button")[0].proto.disabled  # no title yet: nothing to export
    at.text_input(key="lessons_title").set_value("Exported").run()
    assert not at.get("download_button")[0].proto.disabled
    lesson = sections.checked(at.session_state["_lesson_draft"])  # what the button's bytes are made of
    back = lesson_file.read(lesson_file.write(lesson), lesson_steps.problems)
    assert back == lesson and back.title == "Exported" and len(back.steps) == 2


def test_wrong_codes_get_a_message_then_a_wait():
    at = open_app("lessons")
    for typed in ["ABCDEF", "0OIL11", "<b>x</b>", "ZZZZZZ"] * 3:
        at.text_input(key="lessons_code").set_value(typed)
        at.button(key="lessons_open").click().run()
        assert not at.exception
    said = texts(at.warning)
    assert any("Too many wrong codes from this tab: wait" in s for s in said), said


def test_a_tab_saves_at_most_20_new_lessons_an_hour():
    at = draft_with_two_steps()
    at.text_input(key="lessons_title").set_value("One more").run()
    at.session_state["_lessons_made"] = [time.time()] * 20
    at.button(key="lessons_save").click().run()
    assert any("has saved 20 new lessons in the last hour" in s for s in texts(at.warning))
    assert not at.code


def test_a_code_typed_in_any_case_opens_the_lesson_at_its_first_step():
    from ui.lessons import ready

    r = ready.keep_all(lesson_steps.problems)[0]
    at = open_app("lessons")
    at.text_input(key="lessons_code").set_value(f" {r.code[:3].lower()}-{r.code[3:]} ")
    at.button(key="lessons_open").click().run()
    assert not at.exception and at.query_params["lesson"] == r.code and at.query_params["step"] == "1"
    assert any(f"**{r.lesson.title}** · step 1 of" in m.value for m in at.markdown)
    assert not [e for e in at.expander if e.label.startswith("Teacher's note")]  # nobody's key opens it


def test_the_lessons_page_says_how_long_predictions_are_kept(monkeypatch):
    said = lambda at: [c.value for c in at.caption if c.value.startswith("Kept: ")]  # noqa: E731
    assert "for 30 days." in said(open_app("lessons"))[0]
    monkeypatch.setenv("HOPFIELD_PREDICTION_DAYS", "7")  # the server's owner chose a week
    assert "for 7 days." in said(open_app("lessons"))[0]

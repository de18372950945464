"""Short links in the app (ui/shell/share.py): the sidebar makes two (for students, and in presenter
mode), each opens the same view as the long link; presenter mode's "Student link" is the view
without presenter mode; a code the server does not know says so and the page opens as it is."""
from urllib.parse import parse_qs, urlsplit

from tests.support.apptest import open_app
from ui.lessons import short_links


def qp(at) -> dict:
    return {k: (v[-1] if isinstance(v, list) else v) for k, v in at.query_params.items()}


def codes_shown(at) -> list[str]:
    return [parse_qs(urlsplit(c.value).query)["v"][0] for c in at.code if "?v=" in c.value]


def test_the_sidebar_makes_short_links_that_open_the_same_view():
    at = open_app("modern", query={"beta": "50", "steps": "40"})
    long_link = qp(at)
    at.button(key="short_links").click().run()
    student, teacher = codes_shown(at)
    assert short_links.find(student) == ("modern", long_link)
    assert short_links.find(teacher) == ("modern", {**long_link, "presenter": "1"})
    opened = open_app(None, query={"v": student})  # a fresh session opens the short link
    assert not opened.exception
    assert qp(opened) == long_link and opened.session_state["modern_beta"] == 50.0
    assert not opened.warning


def test_presenter_modes_student_link_leaves_presenter_mode_out():
    at = open_app("classical", query={"presenter": "1", "projector": "1", "T": "0.5"})
    assert not codes_shown(at)  # nothing made (nor written) until asked: a sweep writes no rows
    at.button(key="student_short_link").click().run()
    [code] = codes_shown(at)  # in the "Student link" popover
    page, view = short_links.find(code)
    assert page == "classical" and view["T"] == "0.5"
    assert "presenter" not in view and "projector" not in view


def test_an_unknown_short_link_says_so_and_the_page_opens():
    at = open_app(None, query={"v": "ZZZZZZ"})
    assert not at.exception
    [note] = [w.value for w in at.warning]
    assert note.startswith("This server has no short link `ZZZZZZ`: it may be mistyped, or it was not opened "
                           "for 365 days and was deleted.")
    at = open_app(None, query={"v": "[x](http://evil.example)"})
    assert "`[x](http://evil.example)`" in at.warning[0].value


def test_a_tab_that_asks_for_too_many_short_links_is_told_to_wait():
    import time

    from ui.shell import share

    at = open_app("modern")
    at.session_state["_short_links_made_at"] = [time.time()] * (share.PER_HOUR - 1)
    at.button(key="short_links").click().run()  # two more would pass the most
    errors = [e.value for e in at.error]
    assert errors and errors[0].startswith(f"This tab has made {share.PER_HOUR - 1} short links in the last "
                                           "hour, the most it may; try again in")
    assert not codes_shown(at) and not at.exception


def test_no_short_link_keeps_a_teachers_key_or_a_students_id():
    """A teacher's tab in a lesson and a live class carries the lesson's key, the class's key and
    its own student id: a short link (kept in the database as written) carries none of them, so a
    student who opens it is neither the teacher nor the teacher's id, and joins the class."""
    from tests.support.live_lesson import BODY
    from ui.lessons import lesson_store
    from ui.live import class_store

    lesson, key = lesson_store.create(BODY, BODY["title"])
    at = open_app(query={"lesson": lesson, "key": key})
    at.button(key="class_start").click().run()
    code, ckey = at.query_params["class"], at.query_params["ckey"]
    assert at.query_params["key"] == key and at.query_params["student"]
    at.button(key="short_links").click().run()
    for short in codes_shown(at):
        page, view = short_links.find(short)
        assert not {"key", "ckey", "student"} & set(view) and view["class"] == code and view["lesson"] == lesson
    opened = open_app(None, query={"v": codes_shown(at)[0]})
    assert "ckey" not in opened.query_params and opened.query_params["student"] != at.query_params["student"]
    assert "class_reveal" not in {b.key for b in opened.button} and class_store.state(code).joined == 1
    assert ckey not in str(dict(opened.query_params))

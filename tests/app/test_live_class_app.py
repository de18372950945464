"""A live class in the app (AppTest, two sessions on one database, as two students' browsers on
two processes would be): a teacher starts a class from a lesson and sees its code, the join link
and its QR code; a student joins from Home by the code; the student's prediction reaches the
teacher's counts; Reveal opens the outcome for the student with the class's spread; Next moves the
student; a wrong code, too many wrong codes and a made-up teacher key each get their sentence."""
import pytest

from hopfield_core import questions
from tests.support.apptest import open_app
from tests.support.live_lesson import BODY
from ui.lessons import codes, codes_typed, lesson_store
from ui.live import class_store


@pytest.fixture
def lesson():
    return lesson_store.create(BODY, BODY["title"])[0]


def teacher_with_a_class(lesson_code):
    at = open_app(query={"lesson": lesson_code})
    at.button(key="class_start").click().run()
    assert not at.exception, at.exception
    code, key = at.query_params["class"], at.query_params["ckey"]
    assert codes.clean_code(code) == code and class_store.key_opens(code, key)
    return at, code, key


def join(code: str):
    at = open_app()
    at.text_input(key="join_code").set_value(code.lower())
    at.button(key="FormSubmitter:join_class_form-Join").click().run()
    assert not at.exception, at.exception
    return at


def markdowns(at) -> list[str]:
    return [m.value for m in at.markdown]


def test_the_teacher_sees_the_code_the_link_and_its_qr_code(lesson):
    at, code, key = teacher_with_a_class(lesson)
    (big,) = [h.proto.body for h in at.get("html") if 'class="hp-class-code"' in h.proto.body]
    assert f'<span aria-hidden="true">{code}</span>' in big  # large; a screen reader hears it spelled:
    assert f"Class code, spelled: {' '.join(code)}." in big
    (link,) = [c.value for c in at.code]
    assert link.endswith(f"/?join={code}")
    alts = [im.proto.imgs[0].alt for im in at.get("image")]
    assert f"QR code of the join link {link}" in alts
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Joined"] == "0" and metrics["Predicted"] == "0"
    assert not at.button(key="class_reveal").disabled  # the step asks a question on this page


def test_a_student_joins_by_the_code_predicts_and_the_teacher_counts_it(lesson):
    teacher, code, key = teacher_with_a_class(lesson)
    student = join(code)
    assert student.query_params["class"] == code and "ckey" not in student.query_params
    sid = student.query_params["student"]
    assert codes.is_student(sid) and student.query_params["lesson"] == lesson
    assert class_store.state(code).joined == 1
    assert "class_reveal" not in {b.key for b in student.button}  # a student's bar has no teacher's buttons
    first = student.radio(key="class_option_0").options[0]
    student.radio(key="class_option_0").set_value(first)
    student.button(key="class_send").click().run()
    assert class_store.tally(code, 0).answered == 1
    assert any("Waiting for your teacher" in i.value for i in student.info)
    student.radio(key="class_option_0").set_value(questions.NOT_SURE_LABEL)
    student.button(key="class_send").click().run()  # changed: still one answer
    assert class_store.tally(code, 0) == class_store.Tally(1, 1, {questions.NOT_SURE: 1})
    teacher.run()
    assert {m.label: m.value for m in teacher.metric}["Predicted"] == "1"


def test_reveal_opens_the_outcome_with_the_class_spread_and_next_moves_the_class(lesson):
    teacher, code, key = teacher_with_a_class(lesson)
    student = join(code)
    first = student.radio(key="class_option_0").options[0]
    student.radio(key="class_option_0").set_value(first)
    student.button(key="class_send").click().run()
    assert "class_spread" not in [c.proto.id.split("-")[-1] for c in student.get("plotly_chart")]
    teacher.button(key="class_reveal").click().run()
    assert 0 in class_store.state(code).revealed and class_store.state(code).revealed[0]
    student.run()
    assert any("Your teacher has shown the answer" in s.value for s in student.success)
    assert any(c.proto.id.endswith("-class_spread") for c in student.get("plotly_chart"))
    with pytest.raises(class_store.Closed):  # the answers closed at the reveal
        class_store.answer(code, 0, student.query_params["student"], "x", "")
    teacher.button(key="class_next_t").click().run()
    assert class_store.state(code).step == 1
    student.run()
    assert student.query_params["step"] == "2"  # the student's page followed the teacher


def test_a_wrong_code_says_so_and_too_many_ask_to_wait(lesson):
    at = open_app()
    at.text_input(key="join_code").set_value("O0I1L!")
    at.button(key="FormSubmitter:join_class_form-Join").click().run()
    assert any("is not a class code" in e.value for e in at.error)
    for _ in range(codes_typed.WRONG_PER_MINUTE):
        at.text_input(key="join_code").set_value("ZZZZZZ")
        at.button(key="FormSubmitter:join_class_form-Join").click().run()
    assert any("Too many codes" in e.value for e in at.error), [e.value for e in at.error]
    assert not at.exception


def test_a_made_up_teacher_key_opens_the_class_as_a_students(lesson):
    teacher, code, key = teacher_with_a_class(lesson)
    at = open_app(query={"class": code, "ckey": "0" * 32})
    assert "class_reveal" not in {b.key for b in at.button}
    assert any("does not open this class" in w.value for w in at.warning)
    assert class_store.state(code).step == 0 and class_store.state(code).joined == 1


def test_let_them_explore_frees_the_students_and_follow_me_takes_them_back(lesson):
    teacher, code, key = teacher_with_a_class(lesson)
    student = join(code)
    assert "class_next" not in {b.key for b in student.button}  # following: no Next of their own
    teacher.button(key="class_pace").click().run()
    assert class_store.state(code).pace == "free"
    student.run()
    student.button(key="class_next").click().run()
    assert student.query_params["step"] == "2" and class_store.state(code).step == 0  # ahead on their own
    teacher.button(key="class_pace").click().run()  # "Follow me"
    student.run()
    assert class_store.state(code).pace == "follow" and student.query_params["step"] == "1"


def test_an_ended_class_tells_its_students_and_keeps_their_lesson(lesson):
    teacher, code, key = teacher_with_a_class(lesson)
    student = join(code)
    teacher.button(key="class_end").click().run()
    student.run()
    assert any(f"Class {code} has ended" in w.value for w in student.warning)
    assert not student.exception and student.query_params["lesson"] == lesson
    assert "class" not in student.query_params


def test_the_summary_gives_each_revealed_questions_spread_and_the_models_answer():
    from ui.lessons import lesson_file
    from ui.live import summary

    steps = lesson_file.read(__import__("json").dumps(BODY)).steps
    results = {0: {"counts": {"h": 3, "o": 1}, "right": "h", "labels": [("h", "pattern H"), ("o", "pattern O"),
                                                                      ("x", "pattern X")]}}
    text = summary.text("K7M2QX", "Memories as valleys", steps, results, 5)
    assert "Live class K7M2QX: Memories as valleys" in text and "5 students joined" in text
    assert "  pattern H: 3 (75%)  <- the model's answer\n  pattern O: 1 (25%)\n  pattern X: 0 (0%)" in text
    assert "Step 2. Metastable\n  Not revealed" in text


def test_a_database_that_does_not_answer_shows_reconnecting_and_keeps_what_was_typed(lesson, monkeypatch):
    teacher, code, key = teacher_with_a_class(lesson)
    student = join(code)
    first = student.radio(key="class_option_0").options[0]
    student.radio(key="class_option_0").set_value(first)
    student.text_input(key="class_reason_0").set_value("the nearest valley")

    def away(*args, **kwargs):
        raise class_store.database.Unavailable("The lessons' database cannot be reached just now.")

    monkeypatch.setattr(class_store, "answer", away)
    student.button(key="class_send").click().run()
    assert any("was not saved" in e.value and "send it again" in e.value for e in student.error)
    chosen = student.radio(key="class_option_0").value
    assert chosen != questions.NOT_SURE  # what was chosen and typed is still there
    assert student.text_input(key="class_reason_0").value == "the nearest valley"
    monkeypatch.setattr(class_store, "state", away)
    student.run()
    assert any("Reconnecting" in w.value for w in student.warning) and not student.exception
    monkeypatch.undo()
    student.run()
    student.button(key="class_send").click().run()  # the database is back: sent
    assert class_store.tally(code, 0).answered == 1
    kept = class_store.answers_of(code, student.query_params["student"])[0]
    assert (kept.option, kept.reason) == (chosen, "the nearest valley")


def test_only_the_teacher_has_the_downloads(lesson):
    teacher, code, key = teacher_with_a_class(lesson)
    student = join(code)
    keys = lambda at: {d.proto.id.split("-")[-1] for d in at.get("download_button")}  # noqa: E731
    assert {"class_csv", "class_summary"} <= keys(teacher)
    assert not keys(student) & {"class_csv", "class_summary"}


def test_in_a_class_the_outcome_waits_for_the_teachers_reveal_and_says_so(lesson):
    """A student's own prediction does not open the run or the outcome's sections (in a lesson
    alone it would): the player and the sections say the teacher reveals it; after Reveal both open."""
    from tests.support import player
    from ui.settings import gate

    teacher, code, key = teacher_with_a_class(lesson)
    student = join(code)
    student.radio(key="class_option_0").set_value(student.radio(key="class_option_0").options[0])
    student.button(key="class_send").click().run()
    for at in (student, teacher.run()):
        held = player.payload(at, "classical")
        assert held["shown"] == 0 and held["held"] == gate.CLASS_HELD_TEXT
        assert gate.CLASS_CLOSED_TEXT in [c.value for c in at.caption]
    teacher.button(key="class_reveal").click().run()
    student.run()
    opened = player.payload(student, "classical")
    assert opened["shown"] == opened["last"] > 0 and "held" not in opened
    assert gate.CLASS_CLOSED_TEXT not in [c.value for c in student.caption]
    shown = player.payload(teacher.run(), "classical")  # the projector: the run, no one's prediction
    assert shown["shown"] == shown["last"] > 0 and "held" not in shown and "answer" not in shown


@pytest.mark.parametrize("name", ["2-from-hopfield-to-attention"])
def test_a_ready_lesson_runs_as_a_live_class_to_its_end(name):
    """A ready lesson (assets/lessons/) taken by a class: each step's question revealed with the
    model's own answer, the class moved step by step to the summary."""
    from ui.lessons import ready
    from ui.pages import lesson_steps

    ready.keep_all(lesson_steps.problems)
    r = {x.name: x for x in ready.read_all(lesson_steps.problems)}[name]
    teacher, code, key = teacher_with_a_class(r.code)
    student = join(code)
    for i, step in enumerate(r.lesson.steps):
        student.run()
        assert student.query_params["step"] == str(i + 1) and not student.exception
        if step.question:
            options = student.radio(key=f"class_option_{i}").options
            student.radio(key=f"class_option_{i}").set_value(options[0])
            student.button(key="class_send").click().run()
            teacher.run()
            teacher.button(key="class_reveal").click().run()
            assert class_store.state(code).revealed[i] is not None  # the model's answer, computed
        teacher.button(key="class_next_t").click().run()
        assert not teacher.exception
    assert class_store.state(code).step == len(r.lesson.steps)
    results = class_store.results(code, key)
    assert sorted(results) == [i for i, s in enumerate(r.lesson.steps) if s.question]


def test_the_teachers_board_shows_counts_never_who_answered(lesson):
    """What the teacher's page sends the browser (texts, charts, the player) after three students
    answered and the reveal holds none of their ids; the CSV (a download) is where they are."""
    from tests.support import player

    teacher, code, key = teacher_with_a_class(lesson)
    ids = []
    for _ in range(3):
        student = join(code)
        student.radio(key="class_option_0").set_value(student.radio(key="class_option_0").options[0])
        student.button(key="class_send").click().run()
        ids.append(student.query_params["student"])
    teacher.run()
    teacher.button(key="class_reveal").click().run()
    texts = [e.value for kind in ("markdown", "code", "caption", "subheader", "info", "success", "warning", "error")
             for e in getattr(teacher, kind)]
    texts += [f"{m.label} {m.value}" for m in teacher.metric] + [h.proto.body for h in teacher.get("html")]
    texts += [c.proto.spec for c in teacher.get("plotly_chart")] + [str(player.payload(teacher, "classical"))]
    sent = "\n".join(texts)
    assert code in sent and "3 predictions" in sent  # what it shows is read (a check that can fail)
    assert {m.label: m.value for m in teacher.metric}["Predicted"] == "3"
    assert not [i for i in ids if i in sent]
    assert {r["student"] for r in class_store.answers(code, key)} == set(ids)

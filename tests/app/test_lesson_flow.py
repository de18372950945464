"""A lesson taken in the app (AppTest): the link opens the step's page with the step's view; the
question's options come from the page's own run; before the prediction is locked nothing past
step 0 reaches the browser and no section shows the outcome; after it, the run and the sections
come, the player compares the prediction with the run, and the lock holds across a reload;
Next moves to the next step's page; the summary lists each prediction beside the outcome."""
import json

import pytest

from hopfield_core import questions
from tests.support import player
from tests.support.apptest import array, open_app
from ui.lessons import codes, lesson_store
from ui.settings import gate

BODY = {"format": "hopfield-lesson", "version": 1, "title": "Memories as valleys", "steps": [
    {"page": "classical", "view": {"mode": "sync", "presets": "letters/H,letters/O,letters/X", "q_amount": "0.45"},
     "title": "A 2-cycle", "instruction": "Predict, then press Play.\n**Not bold**, <b>not HTML</b>",
     "question": "destination", "note": "Synchronous updates can cycle."},
    {"page": "modern", "view": {"beta": "2", "presets": "letters/H,letters/O,letters/X"}, "title": "Metastable",
     "question": "fixed_point"},
    {"page": "landscape", "view": {}, "title": "Look around"},
]}


@pytest.fixture
def lesson():
    return lesson_store.create(BODY, BODY["title"])


def markdowns(at) -> list[str]:
    return [m.value for m in at.markdown]


def captions(at) -> list[str]:
    return [c.value for c in at.caption]


def choose(at, key: str, reason: str = ""):
    """Choose the option whose key is `key` and lock it, as a click would."""
    at.radio(key="lesson_option").set_value(key)
    at.text_input(key="lesson_reason").set_value(reason)
    at.button(key="lesson_lock").click().run()
    assert not at.exception, at.exception
    return at


def test_a_lesson_link_opens_the_steps_page_with_its_view_and_question(lesson):
    code, _ = lesson
    at = open_app(query={"lesson": code})
    assert at.query_params["lesson"] == code and at.query_params["mode"] == "sync"
    assert codes.is_student(at.query_params["student"])
    texts = markdowns(at)
    assert "**Memories as valleys** · step 1 of 3" in texts
    # the instruction as typed: markdown and HTML escaped, its two lines kept
    assert r"Predict, then press Play\.  " + "\n" + r"\*\*Not bold\*\*, \<b\>not HTML\</b\>" in texts
    radio = at.radio(key="lesson_option")
    assert radio.label == "Where will the query end?" and radio.value == questions.NOT_SURE  # to start with
    assert radio.options[:3] == ["pattern H", "pattern O", "pattern X"]
    assert radio.options[-1] == questions.NOT_SURE_LABEL and any("2\\-cycle" in o for o in radio.options)
    assert not [e for e in at.expander if "Teacher" in e.label]  # the note is not a student's


def test_before_the_lock_nothing_past_step_0_is_sent_then_all_of_it(lesson):
    code, _ = lesson
    at = open_app(query={"lesson": code})
    held = player.payload(at, "classical")
    assert held["shown"] == 0 and held["held"] == gate.HELD_TEXT and "answer" not in held
    assert held["T"] == held["last"] == 0  # not even how many steps the run takes
    assert all(len(p.get("value", p.get("items", p.get("text", p.get("index", p.get("frames", [])))))) == 1
               for p in held["panels"].values())
    assert gate.CLOSED_TEXT in captions(at)
    labels_before = [e.label for e in at.expander]
    assert "Download this run" not in labels_before
    choose(at, "pattern:0", "it starts closest to H")
    full = player.payload(at, "classical")
    T = full["T"]
    assert full["shown"] == full["last"] and full["last"] > 0 and "held" not in full
    end = player.at_step(at, "classical", "end")
    held_bytes = json.dumps(held)
    assert end.metric()[0] != held["panels"]["energy_metric"]["value"][0]
    assert end.metric()[0] not in held_bytes  # the final energy was never sent before the lock
    # the comparison, from the same run: the overlaps it names are those the player ends on
    said = full["answer"]
    assert said.startswith("You predicted pattern H. ")
    bars = end.figure("overlaps")["data"][0]
    overlaps = {name: float(m) for name, m in zip(["H", "O", "X"], array(bars["y"]))}
    top = max(overlaps, key=lambda n: abs(overlaps[n]))
    assert f"with {top} {overlaps[top]:.2f}" in said
    labels_after = [e.label for e in at.expander]
    assert "Download this run" in labels_after  # and the run's numbers
    assert labels_after.count("Show the numbers") == labels_before.count("Show the numbers") + 1
    assert gate.CLOSED_TEXT not in captions(at) and T >= 1
    assert any(s.value.replace("\\", "").startswith("Your prediction is locked: pattern H.") for s in at.success)


def test_a_locked_prediction_stays_locked_after_a_reload(lesson):
    code, _ = lesson
    at = choose(open_app(query={"lesson": code}), "mirror")
    student = at.query_params["student"]
    again = open_app(query={"lesson": code, "student": student})
    assert "lesson_option" not in [r.key for r in again.radio]
    assert any("the inverse of a stored pattern" in s.value.replace("\\", "") for s in again.success)
    assert player.payload(again, "classical")["shown"] > 0
    assert lesson_store.predict(code, 0, student, "pattern:1").option == "mirror"  # the first stays


def test_a_reason_over_200_characters_is_refused_and_nothing_is_kept(lesson):
    code, _ = lesson
    at = choose(open_app(query={"lesson": code}), "pattern:1", "x" * 201)
    assert any("201 characters long; at most 200" in e.value for e in at.error)
    assert player.payload(at, "classical")["shown"] == 0
    assert lesson_store.predictions_of(code, at.query_params["student"]) == {}


def test_next_applies_the_next_steps_view_and_gates_its_sections_then_the_summary(lesson):
    code, _ = lesson
    at = choose(open_app(query={"lesson": code}), questions.NOT_SURE)
    at.button(key="lesson_next").click().run()
    assert not at.exception
    assert at.query_params["step"] == "2" and at.query_params["beta"] == "2"
    assert "**Memories as valleys** · step 2 of 3" in markdowns(at)
    assert at.radio(key="lesson_option").label == questions.FIXED_POINT.question
    assert not [m for m in at.metric if m.label in ("k90", "Fixed point")]  # held back
    at = choose(at, "single")
    kinds = {m.label: m.value for m in at.metric}
    assert "k90" in kinds and "Fixed point" in kinds
    said = player.payload(at, "modern")["answer"]
    assert said.startswith("You predicted single: one pattern holds 90 % of the weight. ")
    assert f"k90 = {kinds['k90']} of 3 patterns: a {kinds['Fixed point']} state" in said
    assert said.endswith("That is right.") == (kinds["Fixed point"] == "single")
    at.button(key="lesson_next").click().run()  # a step with no question: no gate
    assert at.query_params["step"] == "3" and "lesson_option" not in [r.key for r in at.radio]
    at.button(key="lesson_next").click().run()
    texts = markdowns(at)
    assert "**Your predictions**: 2 of 2 questions answered, " + ("1" if kinds["Fixed point"] == "single" else "0") \
        + " right." in texts
    assert any(t.replace("\\", "").startswith("1. **A 2-cycle**: You were not sure yet. The query") for t in texts)


def test_a_teacher_link_shows_the_note_and_a_wrong_key_opens_as_a_student(lesson):
    code, key = lesson
    at = open_app(query={"lesson": code, "key": key})
    assert [e for e in at.expander if e.label.startswith("Teacher's note")]
    assert any("teacher's view" in m for m in markdowns(at))
    wrong = open_app(query={"lesson": code, "key": codes.new_key()})
    assert not [e for e in wrong.expander if e.label.startswith("Teacher's note")]
    assert any("does not open this lesson for editing" in w.value for w in wrong.warning)


@pytest.mark.parametrize("asked", ["ZZZZZZ", "abc", "<b>x</b>", "A" * 500])
def test_an_unknown_or_bad_lesson_code_gets_a_message_and_the_page_works(asked):
    at = open_app("classical", {"lesson": asked})
    assert not at.exception and "lesson_option" not in [r.key for r in at.radio]
    said = [w.value for w in at.warning]
    assert any("There is no lesson" in s or "is not a lesson code" in s for s in said), said
    assert player.payload(at, "classical")["shown"] > 0  # a plain page, its run whole


def one_step(page: str, view: dict, question: str | None) -> str:
    body = {"format": "hopfield-lesson", "version": 1, "title": "One step",
            "steps": [{"page": page, "view": view, "title": "Predict", "question": question}]}
    return lesson_store.create(body, "One step")[0]


def test_the_dense_comparison_waits_for_the_lock():
    code = one_step("dense", {"presets": "letters/H,letters/O,letters/X", "view": "compare"}, "destination")
    at = open_app(query={"lesson": code})
    assert "The same query, classical vs dense" in [h.value for h in at.header]
    assert gate.CLOSED_TEXT in captions(at)
    before = [m.value for m in at.markdown]
    choose(at, "pattern:0")
    assert gate.CLOSED_TEXT not in captions(at) and [m.value for m in at.markdown] != before


def test_the_energy_transformer_holds_how_far_it_settled_until_the_lock():
    code = one_step("energy_transformer", {"start": "paper", "steps": "4"}, "error_falls")
    at = open_app(query={"lesson": code})
    assert player.payload(at, "energy_transformer")["shown"] == 0
    assert gate.CLOSED_TEXT in captions(at) and "Why the energy falls" not in [h.value for h in at.header]
    choose(at, "lower")
    p = player.payload(at, "energy_transformer")
    assert p["shown"] == p["last"] and "Why the energy falls" in [h.value for h in at.header]
    assert p["answer"].startswith("You predicted lower: the steps fill the hole better. The hidden-patch error went")


def test_a_lesson_naming_a_setting_the_app_no_longer_has_gets_a_message():
    code = one_step("classical", {"betta": "5"}, None)  # saved before the app changed (no check here)
    at = open_app(query={"lesson": code})
    said = [w.value.replace("\\", "") for w in at.warning]
    assert any(f"Lesson {code} can no longer be shown: Step 1: the page Classical network (1982) has no "
               "setting called" in s for s in said), said
    assert "lesson_option" not in [r.key for r in at.radio] and not at.exception


def test_a_database_that_is_down_gets_a_message_and_the_page_works(monkeypatch, tmp_path):
    monkeypatch.setenv("HOPFIELD_DATABASE_URL", f"postgresql://nobody@/none?host={tmp_path}")
    at = open_app("classical", {"lesson": "ABC234"})
    said = [w.value for w in at.warning]
    assert any("cannot be reached just now, so lessons are off; the page works as usual" in s for s in said)
    assert player.payload(at, "classical")["shown"] > 0 and not at.exception


def test_a_question_on_a_page_with_no_run_yet_says_how_to_get_one():
    code = one_step("classical", {"presets": ""}, "destination")  # an empty store: no run to ask about
    at = open_app(query={"lesson": code})
    assert "lesson_option" not in [r.key for r in at.radio]
    assert any(i.value.startswith("The question opens when the page has a run to show") for i in at.info)

"""The ready lessons (assets/lessons/) walked as a student would, step by step, in the app: every
step opens on its page without an error, every question is offered by the page's own run and
held until the lock, and the answer each teacher's note promises is the one the live model gives
(a note is a claim: if the model's answer changes, this fails and the note must change too)."""
import pytest

from hopfield_core import questions
from tests.support import player
from tests.support.apptest import open_app
from ui.lessons import ready
from ui.pages import lesson_steps

READY = {r.name: r for r in ready.read_all(lesson_steps.problems)}
# what each question step's note says the model does, by lesson and step (1-based)
PROMISED = {
    "1-memories-as-valleys": {1: "pattern:0", 2: "cycle", 4: "other", 5: "pattern:7"},
    "2-from-hopfield-to-attention": {1: "pattern:7", 2: "single", 3: "global", 4: "blend"},
    "3-how-much-can-a-memory-hold": {1: "pattern:0", 2: "other", 4: "pattern:7", 5: "single"},
    "4-energy-transformer-and-heads": {1: "lower", 2: "no", 3: "same"},
}


def test_there_are_four_ready_lessons_of_4_to_8_steps_with_two_questions_on_three_pages():
    assert len(READY) >= 4
    for r in READY.values():
        assert 4 <= len(r.lesson.steps) <= 8
        assert sum(1 for s in r.lesson.steps if s.question) >= 2
        assert len({s.page for s in r.lesson.steps}) >= 3
    assert set(PROMISED) == set(READY)


@pytest.mark.parametrize("name", sorted(READY))
def test_a_ready_lesson_walks_to_its_summary_with_the_answers_its_notes_promise(name):
    r = READY[name]
    ready.keep_all(lesson_steps.problems)
    at = open_app(query={"lesson": r.code})
    for i, step in enumerate(r.lesson.steps):
        assert at.query_params["step"] == str(i + 1) and not at.exception
        assert any(f"· step {i + 1} of {len(r.lesson.steps)}" in m.value for m in at.markdown)
        if step.question:
            radio = at.radio(key="lesson_option")
            assert radio.label.replace("\\", "") == questions.KINDS[step.question].question
            if step.page in ("classical", "dense", "modern", "energy_transformer"):
                assert player.payload(at, step.page)["shown"] == 0
            promised = PROMISED[name][i + 1]
            at.radio(key="lesson_option").set_value(promised)
            at.button(key="lesson_lock").click().run()
            assert not at.exception, at.exception
            said = player.payload(at, step.page)["answer"]
            assert said.endswith("That is right."), (i + 1, said)
        else:
            assert i + 1 not in PROMISED[name]
        at.button(key="lesson_next").click().run()
    assert any(m.value.startswith("**Your predictions**: ") for m in at.markdown)
    assert not at.exception

"""Lesson files: a versioned JSON schema (pydantic), one clear sentence for each kind of bad
file, nothing half-read, texts kept exactly as typed; hostile files from hypothesis and by hand."""
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ui.lessons import lesson_file as lf
from ui.pages import lesson_steps

GOOD = {"format": "hopfield-lesson", "version": 1, "title": "Memories as valleys", "steps": [
    {"page": "classical", "view": {"mode": "sync", "presets": "letters/H,letters/O"}, "title": "A 2-cycle",
     "instruction": "Predict, then press Play.", "question": "destination", "note": "Sync updates can cycle."},
    {"page": "modern", "view": {"beta": "2"}, "title": "Metastable", "question": "fixed_point"},
]}


def file(**changes) -> bytes:
    return json.dumps({**GOOD, **changes}).encode()


def step(**changes) -> bytes:
    return file(steps=[{**GOOD["steps"][0], **changes}])


def test_a_good_file_reads_back_as_it_was_written():
    lesson = lf.read(json.dumps(GOOD), lesson_steps.problems)
    assert lesson.title == "Memories as valleys" and len(lesson.steps) == 2
    assert lesson.steps[1].instruction == "" and lesson.steps[1].note == ""
    assert lf.read(lf.write(lesson), lesson_steps.problems) == lesson
    assert lf.body(lesson)["steps"][0]["view"] == {"mode": "sync", "presets": "letters/H,letters/O"}


@pytest.mark.parametrize("data, sentence", [
    (file(version=2), "This lesson file is version 2; this app reads version 1 files."),
    (file(version="one"), 'This lesson file is version "one"; this app reads version 1 files.'),
    (file(format="other"), 'This is not a lesson file of this app (its format is not "hopfield-lesson").'),
    (file(steps=[GOOD["steps"][0]] * 31), "The lesson has 31 steps; a lesson has at most 30."),
    (file(steps=[]), "The lesson has no steps."),
    (file(title="x" * 81), "The lesson's title is 81 characters long; at most 80 are allowed."),
    (step(instruction="y" * 501), "Step 1's instruction is 501 characters long; at most 500 are allowed."),
    (step(note="z" * 1001), "Step 1's teacher's note is 1001 characters long; at most 1000 are allowed."),
    (step(title="w" * 10_000), "Step 1's title is 10000 characters long; at most 80 are allowed."),
    (step(title=""), "Step 1's title is empty."),
    (step(page="nowhere"), "Step 1: the app has no page called `nowhere`"),
    (step(view={"betta": "5"}), "Step 1: the page Classical network (1982) has no setting called `betta`."),
    (step(view={"T": "99"}), "Step 1: Temperature T (`T`): `99` is outside 0 to 1."),
    (step(view={"presets": "upload/" + "0" * 24}), "Step 1: the pattern store (`presets`): "),
    (step(question="fixed_point"), "Step 1: the page Classical network (1982) asks no question of the kind"),
    (step(view={"T": 0.5}), "Step 1's setting \"T\" should be text."),
    (step(title=["a"]), "Step 1's title should be text."),
    (step(extra=1), 'Step 1 has a field "extra" that a step does not have.'),
    (file(author="me"), 'The lesson file has a field "author" that lesson files do not have.'),
    (step(title="a\x00b"), "Step 1's title contains a NUL character."),
    (file(steps="abc"), "The lesson's steps should be a list."),
    (b"[" * 40_000 + b"]" * 20_000, "The file is not a lesson file: it is not JSON text."),
    (b'{"a": ' * 5_000 + b"1" + b"}" * 5_000, "The file is not a lesson file: it is not JSON text."),
    (b"\xff\xfe\x00", "The file is not a lesson file: it is not JSON text."),
    (b'"just text"', "The file is not a lesson file: it holds no lesson."),
    (b" " * (64 * 1024 + 1), "The file is 64 KB; a lesson file is at most 64 KB."),
    (b"", "The file is not a lesson file: it is not JSON text."),
], ids=lambda v: str(v)[:40] if isinstance(v, str) else None)
def test_a_bad_file_gets_one_sentence(data, sentence):
    with pytest.raises(lf.LessonFileError) as e:
        lf.read(data, lesson_steps.problems)
    assert str(e.value).startswith(sentence), str(e.value)
    assert "\n" not in str(e.value) and len(str(e.value)) < 400


def test_markup_in_a_text_is_kept_as_typed_not_refused():
    hostile = "<script>alert(1)</script> **bold** [link](http://x.org) ![i](http://x.org/a.png) $x$"
    lesson = lf.read(step(title="<b>T</b>", instruction=hostile, note=hostile), lesson_steps.problems)
    assert lesson.steps[0].instruction == hostile and lesson.steps[0].title == "<b>T</b>"


texts = st.text(max_size=120)
views = st.dictionaries(st.text(min_size=1, max_size=12), st.text(max_size=30), max_size=4)
steps = st.fixed_dictionaries({"page": st.sampled_from(["classical", "modern", "x"]), "title": texts},
                              optional={"view": views, "instruction": texts, "question": st.none() | texts,
                                        "note": texts, "other": st.integers()})
anything = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | texts,
                        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
                        max_leaves=20)


@given(title=texts, body=st.lists(steps, max_size=4))
def test_any_lesson_shaped_file_is_read_or_refused_in_one_sentence(title, body):
    data = json.dumps({"format": "hopfield-lesson", "version": 1, "title": title, "steps": body})
    try:
        lesson = lf.read(data, lesson_steps.problems)
    except lf.LessonFileError as e:
        assert str(e) and "\n" not in str(e)
        return
    assert lf.read(lf.write(lesson), lesson_steps.problems) == lesson  # what was read writes back


@given(anything)
def test_any_json_at_all_is_read_or_refused_in_one_sentence(value):
    try:
        lf.read(json.dumps(value), lesson_steps.problems)
    except lf.LessonFileError as e:
        assert str(e) and "\n" not in str(e)


@given(st.binary(max_size=200))
def test_any_bytes_are_refused_in_one_sentence(data):
    with pytest.raises(lf.LessonFileError):
        lf.read(data, lesson_steps.problems)

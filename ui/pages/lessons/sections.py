"""The Lessons page's sections: open a lesson by its code, the ready lessons, the lesson this
tab holds as its teacher, and the draft (build, reorder, check, preview, save, export, import).
Texts typed by a teacher are shown as written (ui.lessons.bar.plain); what a save or an import
refuses is one sentence, and nothing of a refused file or draft is kept."""
from __future__ import annotations

import json
import secrets
from urllib.parse import urlencode

import streamlit as st

from hopfield_core import questions
from ui.lessons import codes, codes_typed, database, draft, flow, lesson_file, lesson_store, ready
from ui.lessons.bar import plain
from ui.serving.text import escaped
from ui.shell import share

from .. import lesson_steps, page

PAGE = "lessons"
_SAVED = "lessons_saved"   # (code, key) of the lesson this tab saved last
_SAID = "lessons_said"     # a sentence for the next run: (kind, text)


def _say(kind: str, text: str) -> None:
    st.session_state[_SAID] = (kind, text)


def said() -> None:
    kind, text = st.session_state.pop(_SAID, (None, None))
    if text:
        getattr(st, kind)(plain(text))


def base_url() -> str:
    """The app's address as this browser reached it (scheme, host, port, path to the app)."""
    return share.app_root(PAGE)


def student_link(code: str) -> str:
    return f"{base_url()}/?{urlencode({'lesson': code})}"


def teacher_link(code: str, key: str) -> str:
    return f"{base_url()}/?{urlencode({'lesson': code, 'key': key})}"


# ---------------------------------------------------------------- opening a lesson

def open_section() -> None:
    st.header("Open a lesson")
    st.text_input("Lesson code (6 letters and digits, from your teacher)", key="lessons_code",
                  placeholder="e.g. K7MP2Q")
    st.button("Open the lesson", key="lessons_open", on_click=_open, type="primary")


def _open() -> None:
    wait = codes_typed.wait_s()
    if wait > 0:
        _say("warning", f"Too many wrong codes from this tab: wait {int(wait) + 1} seconds, then try again.")
        return
    typed = st.session_state.get("lessons_code") or ""
    code = codes.clean_code(typed)
    if code is None:
        codes_typed.wrong()
        _say("warning", "A lesson code has 6 letters and digits (no 0, O, 1, I or L); check it and try again.")
        return
    if not flow.start(code, lesson_steps.problems):  # its message says why
        codes_typed.wrong()
        return
    flow.go(0)


# ---------------------------------------------------------------- ready lessons

def ready_section() -> None:
    st.header("Ready lessons")
    try:
        found = ready.keep_all(lesson_steps.problems)
    except database.Unavailable as e:
        st.warning(plain(str(e)))
        return
    for r in found:
        with st.container(border=True):
            asked = sum(1 for s in r.lesson.steps if s.question)
            st.subheader(plain(r.lesson.title), anchor=False)
            st.markdown(f"{len(r.lesson.steps)} steps, {asked} questions, on "
                        + ", ".join(dict.fromkeys(escaped(page(s.page).title) for s in r.lesson.steps)) + ".")
            st.caption(f"Code {r.code} · student link: {student_link(r.code)}")
            a, b = st.columns(2)
            a.button("Take it as a student", key=f"lessons_take_{r.name}", on_click=_take, args=(r.code,),
                     width="stretch")
            b.button("Copy into my draft", key=f"lessons_copy_{r.name}", on_click=_copy, args=(r.lesson,),
                     width="stretch")


def _take(code: str) -> None:
    if flow.start(code, lesson_steps.problems):
        flow.go(0)


def _copy(lesson) -> None:
    draft.replace_with(_with_ids(draft.from_lesson(lesson)))
    _say("success", f"Copied \"{lesson.title}\" into your draft below: change it, then save it as your own.")


# ---------------------------------------------------------------- the teacher's lesson

def teacher_section() -> None:
    t = flow.taking()
    saved = st.session_state.get(_SAVED)
    if saved:
        code, key = saved
        st.header("Your saved lesson")
        st.markdown(f"Code **{code}**. Give students this link (or the code):")
        st.code(student_link(code), language=None, wrap_lines=True)
        st.markdown("Your teacher's link: keep it to yourself, it is the only way to edit this lesson.")
        st.code(teacher_link(code, key), language=None, wrap_lines=True)
    if t is not None and t.teacher and t.code:
        st.header("The lesson you opened as its teacher")
        st.markdown(f"**{plain(t.title)}**, code {t.code}.")
        a, b = st.columns(2)
        a.button("Edit it in the draft", key="lessons_edit", on_click=_edit, width="stretch")
        b.button("Delete it and its predictions", key="lessons_delete", on_click=_delete, width="stretch")


def _edit() -> None:
    t = flow.taking()
    try:
        lesson = flow.load(t.code, lesson_steps.problems)
    except (database.Unavailable, lesson_file.LessonFileError) as e:
        _say("error", str(e))
        return
    if lesson is not None:
        draft.replace_with(_with_ids(draft.from_lesson(lesson, t.code, t.key)))


def _delete() -> None:
    t = flow.taking()
    try:
        lesson_store.remove(t.code, t.key)
    except (database.Unavailable, LookupError, PermissionError) as e:
        _say("error", str(e))
        return
    flow.leave()
    st.session_state.pop(_SAVED, None)
    _say("success", f"Lesson {t.code} and every prediction made in it are deleted.")


# ---------------------------------------------------------------- the draft

def _with_ids(d: draft.Draft) -> draft.Draft:
    for s in d.steps:
        s.setdefault("uid", secrets.token_hex(4))
    return d


def _kinds(step: dict) -> list:
    """No question, and the kinds the step's page asks in the step's view."""
    info = page(step["page"])
    if info.asked_in and step["view"].get("view") not in info.asked_in:
        return [None]
    return [None, *info.questions]


def draft_section() -> None:
    d = _with_ids(draft.draft())
    st.header("Your draft lesson" + (f" (editing {d.code})" if d.code else ""))
    if not d.steps:
        st.info("Your draft has no steps yet. On any page, press **Add this view to a lesson** in the sidebar.")
        _import()
        return
    d.title = st.text_input("Lesson title (at most 80 characters)", value=d.title, key="lessons_title")
    _cap(d.title, "title")
    for i, s in enumerate(list(d.steps)):
        _step(d, i, s)
    st.divider()
    _save_row(d)
    _import()


def _cap(text: str, what: str) -> None:
    cap = lesson_file.CAPS[what]
    if len(text) > cap:
        st.error(f"This {what} is {len(text)} characters long; at most {cap} are allowed. Shorten it to save.")


def _step(d: draft.Draft, i: int, s: dict) -> None:
    uid, n = s["uid"], len(d.steps)
    with st.container(border=True, key=f"lessons_step_{uid}"):
        st.markdown(f"**Step {i + 1} of {n}** · {escaped(page(s['page']).title)} · "
                    f"{len(s['view'])} settings")
        s["title"] = st.text_input("Title", value=s["title"], key=f"lessons_title_{uid}")
        _cap(s["title"], "title")
        s["instruction"] = st.text_area("Instruction for students", value=s["instruction"],
                                        key=f"lessons_instruction_{uid}", height=80)
        _cap(s["instruction"], "instruction")
        kinds = _kinds(s)
        s["question"] = st.selectbox(
            "Question", kinds, index=kinds.index(s["question"]) if s["question"] in kinds else 0,
            format_func=lambda k: "No question" if k is None else questions.KINDS[k].question,
            key=f"lessons_question_{uid}", disabled=len(kinds) == 1,
            help=None if len(kinds) > 1 else "This page asks no question in this view.")
        s["note"] = st.text_area("Teacher's note (students never see it)", value=s["note"],
                                 key=f"lessons_note_{uid}", height=68)
        _cap(s["note"], "note")
        up, down, drop = st.columns(3)
        up.button("Move up", key=f"lessons_up_{uid}", on_click=draft.move, args=(i, -1), disabled=i == 0,
                  width="stretch", icon=":material/arrow_upward:")
        down.button("Move down", key=f"lessons_down_{uid}", on_click=draft.move, args=(i, 1),
                    disabled=i == n - 1, width="stretch", icon=":material/arrow_downward:")
        drop.button("Remove", key=f"lessons_remove_{uid}", on_click=draft.remove, args=(i,), width="stretch",
                    icon=":material/delete:")


def checked(d: draft.Draft) -> lesson_file.Lesson:
    """The draft as a lesson, through the file's schema and the pages' check (LessonFileError)."""
    return lesson_file.read(json.dumps(draft.as_file(_without_ids(d))), lesson_steps.problems)


def _without_ids(d: draft.Draft) -> draft.Draft:
    return draft.Draft(d.title, [{k: v for k, v in s.items() if k != "uid"} for s in d.steps], d.code, d.key)


def _save_row(d: draft.Draft) -> None:
    a, b, c = st.columns(3)
    a.button("Preview as a student", key="lessons_preview", on_click=_preview, width="stretch")
    b.button("Save changes" if d.code else "Save", key="lessons_save", on_click=_save, type="primary",
             width="stretch")
    try:
        data = lesson_file.write(checked(d))
    except lesson_file.LessonFileError:
        data = None
    c.download_button("Export as a file", data=data or b"", file_name="lesson.json", mime="application/json",
                      key="lessons_export", disabled=data is None, width="stretch",
                      help="A lesson file (JSON) another teacher can import." if data else
                      "Fix what Save says first.")


def _preview() -> None:
    try:
        lesson = checked(draft.draft())
    except lesson_file.LessonFileError as e:
        _say("error", f"The draft cannot be previewed yet: {e}")
        return
    flow.preview(lesson)
    flow.go(0)


def _save() -> None:
    d = draft.draft()
    try:
        lesson = checked(d)
    except lesson_file.LessonFileError as e:
        _say("error", f"Not saved: {e}")
        return
    try:
        if d.code and d.key:
            lesson_store.replace(d.code, d.key, lesson_file.body(lesson), lesson.title)
            st.session_state[_SAVED] = (d.code, d.key)
            _say("success", f"Lesson {d.code} saved: its links are unchanged.")
            return
        why = draft.may_create()
        if why:
            _say("warning", why)
            return
        code, key = lesson_store.create(lesson_file.body(lesson), lesson.title)
    except (database.Unavailable, LookupError, PermissionError) as e:
        _say("error", f"Not saved: {e}")
        return
    draft.created()
    d.code, d.key = code, key
    st.session_state[_SAVED] = (code, key)
    _say("success", f"Saved as lesson {code}. Its links are below.")


def _import() -> None:
    st.file_uploader("Import a lesson file (JSON, at most 64 KB): it replaces your draft", type=["json"],
                     key="lessons_import", on_change=_imported)


def _imported() -> None:
    f = st.session_state.get("lessons_import")
    if f is None:
        return
    try:
        lesson = lesson_file.read(f.getvalue(), lesson_steps.problems)
    except lesson_file.LessonFileError as e:
        _say("error", f"{f.name[:60]} was not imported: {e}")
        return
    draft.replace_with(_with_ids(draft.from_lesson(lesson)))
    _say("success", f"Imported \"{lesson.title}\" ({len(lesson.steps)} steps) into your draft.")


"""The lesson bar, above every page of a lesson: the lesson's title, step k of n, the step's title
and instruction, its question (a labelled radio group, an optional reason, "Lock my prediction"),
Back and Next; after the last step, the student's own summary (each prediction beside what the
model did). A teacher's link also shows the step's note. Every text a teacher or a student typed
is shown as written (ui.serving.text.escaped): never as markdown or HTML.

The bar is drawn after the page ran, into a place streamlit_app.py kept above it: the page's run
is what offers the question's options (ui.settings.gate). The lock is a callback, so it runs
before the next run of the page, which then sends the whole run to the player."""
from __future__ import annotations

import streamlit as st

from hopfield_core import questions
from ui.serving.text import escaped
from ui.settings import gate
from ui.settings.modes import presenter

from . import flow

_FAILED = "_lesson_lock_failed"
LOCKED_TEXT = ("Your prediction is locked: {label}. Now run the demonstration: Step, Run or Play. "
               "When the run ends, the player compares it with what happened.")


def plain(text: str) -> str:
    """A teacher's or student's text as markdown that shows it as typed, its lines kept."""
    return "  \n".join(escaped(line) for line in str(text).splitlines())


def draw(page: str, pages: flow.Pages) -> None:
    for message in flow.messages():
        st.warning(plain(message))
    st.session_state.pop("lesson_messages", None)
    t = flow.taking()
    if t is None:
        return
    with st.container(key="lesson_bar", border=True):
        step = t.current()
        where = f"step {t.step + 1} of {t.n}" if step is not None else f"summary ({t.n} steps)"
        st.markdown(f"**{plain(t.title)}** · {where}" + (" · teacher's view" if t.teacher else ""))
        if step is None:
            summary(t)
        else:
            st.subheader(plain(step.title), anchor=False)
            if step.instruction:
                st.markdown(plain(step.instruction))
            if step.page != page:
                st.info(f"This step is on the page {escaped(pages.title_of(step.page))}.")
                st.button("Go to this step's page", key="lesson_return", on_click=flow.go, args=(t.step,))
            elif step.question:
                question(t, step)
            if t.teacher and step.note:
                with st.expander("Teacher's note (students do not see it)"):
                    st.markdown(plain(step.note))
        navigation(t)


def question(t: flow.Taking, step) -> None:
    kind = questions.KINDS[step.question]
    offer = gate.offered()
    kept = t.answers.get(t.step)
    st.markdown(f"**Predict first.** {escaped(kind.question)}")
    if kept is not None:
        label = _label(offer, kept.option)
        st.success(escaped(LOCKED_TEXT.format(label=label)))
        if kept.reason:
            st.caption("Your reason: " + plain(kept.reason))
        return
    if offer is None:
        st.info("The question opens when the page has a run to show: store some patterns, choose "
                "an image, or press Run first.")
        return
    options = [o.key for o in offer.options]
    labels = {o.key: o.label for o in offer.options}
    # "Not sure yet" (the last) to start with: a group with a choice moves by the arrow keys
    st.radio(escaped(kind.question), options, index=len(options) - 1, key="lesson_option",
             format_func=lambda k: escaped(labels[k]), label_visibility="collapsed",
             horizontal=presenter())  # on a projector, in rows: the demonstration stays in view
    st.text_input("Why? (optional, one line, at most 200 characters)", key="lesson_reason")
    failed = st.session_state.pop(_FAILED, None)
    if failed:
        st.error(plain(failed))
    st.button("Lock my prediction", key="lesson_lock", type="primary", on_click=_lock)


def _label(offer, option: str) -> str:
    labels = {o.key: o.label for o in (offer.options if offer else ())}
    return labels.get(option, questions.NOT_SURE_LABEL if option == questions.NOT_SURE else option)


def _lock() -> None:
    option = st.session_state.get("lesson_option")
    reason = (st.session_state.get("lesson_reason") or "").strip()
    failed = flow.lock(option, reason) if option else "Choose one of the options first (or \"Not sure yet\")."
    if failed:
        st.session_state[_FAILED] = failed
    else:
        st.session_state.pop("lesson_option", None)
        st.session_state.pop("lesson_reason", None)


def summary(t: flow.Taking) -> None:
    asked = [(i, s) for i, s in enumerate(t.steps) if s.question]
    if not asked:
        st.markdown("This lesson asked no questions. Go back to any step to look again.")
        return
    right = sum(1 for i, _ in asked if t.answers.get(i) and t.answers[i].correct)
    answered = sum(1 for i, _ in asked if t.answers.get(i))
    st.markdown(f"**Your predictions**: {answered} of {len(asked)} questions answered, {right} right.")
    for i, s in asked:
        kept = t.answers.get(i)
        said = kept.outcome if kept and kept.outcome else "You did not lock a prediction for this step."
        mark = "" if not kept or kept.correct is None else (" (right)" if kept.correct else " (not this time)")
        st.markdown(f"{i + 1}. **{plain(s.title)}**{mark}: {plain(said)}")


def navigation(t: flow.Taking) -> None:
    back, ahead, leave = st.columns(3)
    back.button("Back", key="lesson_back", on_click=flow.go, args=(t.step - 1,), disabled=t.step == 0,
                width="stretch", icon=":material/arrow_back:")
    if t.step < t.n:
        ahead.button("Next" if t.step < t.n - 1 else "See my summary", key="lesson_next", type="secondary",
                     on_click=flow.go, args=(t.step + 1,), width="stretch", icon=":material/arrow_forward:")
    leave.button("Leave the lesson", key="lesson_leave", on_click=flow.leave, width="stretch")

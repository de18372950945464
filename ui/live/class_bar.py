"""The live class's bar above the page, in place of the lesson bar (ui/lessons/bar.py), drawn after
the page ran (the page's run offers the question's options, ui.settings.gate):

- a student's: the class code and step, the step's title and instruction, the question (their
  prediction sent, and changeable, until the teacher reveals), "waiting for your teacher"; after
  the reveal the class's distribution beside the outcome (never who answered what); Back and
  Next only while the teacher lets the class explore;
- the teacher's (made for presenter and projector mode): the code large with the join link and
  its QR code, how many joined and predicted, the live histogram, Reveal, Back, Next, "Let them
  explore" / "Follow me", End the class, and the downloads (CSV, a one-page summary).

Both poll the database (fragments): a student's page every POLL_S seconds (a new step, a reveal
or a pace change reruns the page), the teacher's counts and histogram every TEACHER_POLL_S; a database that does not answer shows "Reconnecting", and what a student typed
stays in its fields. Everything a student or a teacher typed is shown as plain text."""
from __future__ import annotations

import time

import streamlit as st

from hopfield_core import questions
from ui.charts import charts
from ui.lessons import bar as lesson_bar
from ui.lessons import database, flow
from ui.serving.text import escaped
from ui.settings import gate
from ui.shell import share

from . import attending, board, class_store, summary

POLL_S = 2.0          # every student's poll of the class (the page reruns on a change)
TEACHER_POLL_S = 1.0  # the teacher's counts and histogram: one session, so the class's answers show within 2 s
_FAILED = "_class_send_failed"
WAITING = "Waiting for your teacher to show the answer: you can still change your prediction."


def draw(page: str) -> None:
    for message in flow.messages():  # what the link asked for that could not be done
        st.warning(lesson_bar.plain(message))
    st.session_state.pop("lesson_messages", None)
    a, t = attending.attending(), flow.taking()
    if a is None or t is None:
        return
    try:
        state = class_store.state(a.code)
    except database.Unavailable as e:
        st.warning(f"Reconnecting to the class: {e}")
        _keep_drafts()
        _poll(a, None)
        return
    if state is None or not state.live():
        st.info(f"Class {a.code} has ended. The lesson stays open here as a lesson of your own.")
        attending.leave()
        return
    with st.container(key="class_teacher" if a.teacher else "class_bar", border=True):
        if a.teacher:
            _teacher(page, a, t, state)
        else:
            _student(page, a, t, state)
    _poll(a, state)


def start_button() -> None:
    """Under a lesson's bar: a teacher takes the lesson to the class (a new live class, this tab
    its teacher's)."""
    t = flow.taking()
    if t is None or not t.code:
        return
    st.button("Teaching? Start a live class with this lesson", key="class_start", icon=":material/groups:",
              on_click=_start)
    failed = st.session_state.pop(_FAILED, None)
    if failed:
        st.error(lesson_bar.plain(failed))


def _start() -> None:
    why = attending.start()
    if why:
        st.session_state[_FAILED] = why


# ---------------------------------------------------------------- a student's bar

def _student(page, a, t, state) -> None:
    step = t.current()
    where = f"step {t.step + 1} of {t.n}" if step is not None else "the summary"
    pace = "your teacher leads" if state.pace == "follow" else "explore at your own pace"
    st.markdown(f"**{lesson_bar.plain(t.title)}** · live class {a.code} · {where} · {pace}")
    if step is None:
        st.markdown("The lesson's steps are done: your teacher has the class's answers.")
    else:
        st.subheader(lesson_bar.plain(step.title), anchor=False)
        if step.instruction:
            st.markdown(lesson_bar.plain(step.instruction))
        if step.page != page:
            st.button("Go to this step's page", key="class_return", on_click=flow.go, args=(t.step,))
        elif step.question:
            _question(a, t, step, state)
    if state.pace == "free":
        back, ahead = st.columns(2)
        back.button("Back", key="class_back", on_click=flow.go, args=(t.step - 1,), disabled=t.step == 0,
                    width="stretch", icon=":material/arrow_back:")
        ahead.button("Next", key="class_next", on_click=flow.go, args=(t.step + 1,), disabled=t.step >= t.n,
                     width="stretch", icon=":material/arrow_forward:")


def _question(a, t, step, state) -> None:
    kind = questions.KINDS[step.question]
    offer = gate.offered()
    try:
        mine = class_store.answers_of(a.code, t.student).get(t.step)
    except database.Unavailable as e:
        st.warning(f"Reconnecting to the class: {e}")
        _keep_drafts()
        return
    st.markdown(f"**Predict first.** {escaped(kind.question)}")
    labels = {o.key: o.label for o in (offer.options if offer else ())}
    words = lambda k: labels.get(k, questions.NOT_SURE_LABEL if k == questions.NOT_SURE else k)  # noqa: E731
    if t.step in state.revealed:
        said = f"Your prediction: {words(mine.option)}." if mine else "You sent no prediction for this step."
        st.success(escaped(said) + " Your teacher has shown the answer: run the demonstration to see it.")
        _class_spread(a, t, offer, state.revealed[t.step])
        return
    if offer is None:
        st.info("The question opens when the page has a run to show.")
        return
    options = [o.key for o in offer.options]
    option_key, reason_key = f"class_option_{t.step}", f"class_reason_{t.step}"
    if st.session_state.get(option_key) not in options:  # none yet (or a draft of another run): the sent one
        st.session_state[option_key] = mine.option if mine and mine.option in options else options[-1]
    st.session_state.setdefault(reason_key, mine.reason if mine else "")
    st.radio(escaped(kind.question), options, key=option_key,
             format_func=lambda k: escaped(labels[k]), label_visibility="collapsed")
    st.text_input(f"Why? (optional, one line, at most {class_store.REASON_CHARS} characters)", key=reason_key,
                  max_chars=class_store.REASON_CHARS)
    failed = st.session_state.pop(_FAILED, None)
    if failed:
        st.error(lesson_bar.plain(failed))
    st.button("Change my prediction" if mine else "Send my prediction", key="class_send", type="primary",
              on_click=_send, args=(a.code, t.step, t.student))
    if mine:
        st.info(escaped(f"Your prediction: {words(mine.option)}. {WAITING}"))


def _keep_drafts() -> None:
    """A run that cannot draw the question (the database is away) would drop its fields' values
    with the widgets: kept, so that nothing a student chose or typed is lost."""
    for k in [k for k in st.session_state if str(k).startswith(("class_option_", "class_reason_"))]:
        st.session_state[k] = st.session_state[k]


def _send(code: str, step: int, student: str) -> None:
    option = st.session_state.get(f"class_option_{step}")
    reason = (st.session_state.get(f"class_reason_{step}") or "").strip()
    try:
        class_store.answer(code, step, student, option or "", reason)
    except database.Unavailable as e:
        st.session_state[_FAILED] = f"Your prediction was not saved: {e} It is still here: send it again."
    except (class_store.Closed, class_store.Ended, LookupError, ValueError) as e:
        st.session_state[_FAILED] = f"Your prediction was not saved: {e}"


def _class_spread(a, t, offer, right) -> None:
    """After the reveal: how the class predicted, the model's answer marked."""
    try:
        tally = class_store.tally(a.code, t.step)
    except database.Unavailable as e:
        st.warning(f"Reconnecting to the class: {e}")
        return
    options = [(o.key, o.label) for o in offer.options] if offer else []
    charts.plot(st, board.histogram(tally.counts, options, right), key="class_spread")


# ---------------------------------------------------------------- the teacher's bar

CODE_HTML = ('<div class="hp-class-code"><span class="hp-sr">Class code, spelled: {spelled}. </span>'
             '<span aria-hidden="true">{code}</span></div>'
             '<style>.hp-class-code {{ font-size: 64px; font-weight: 700; letter-spacing: 0.08em; '
             'line-height: 1.1; font-family: "Source Code Pro", monospace; }}'
             '.hp-sr {{ position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); '
             'white-space: nowrap; }}</style>')


def _teacher(page, a, t, state) -> None:
    """The board: the code, the link and its QR code, the counts and the controls on the first
    row; the histogram under them, the width of the page (the class reads it from the back)."""
    step = t.current()
    where = f"step {t.step + 1} of {t.n}" if step is not None else "the summary"
    url = board.join_url(share.app_root(page if page != "home" else ""), a.code)
    code_col, qr_col, side = st.columns([1.3, 1, 1], vertical_alignment="top")
    with code_col:  # the code from the alphabet of codes: nothing a user typed
        st.html(CODE_HTML.format(code=a.code, spelled=" ".join(a.code)))
        st.caption("Join on Home with this code, or at this link (its QR code beside it):")
        st.code(url, language=None, wrap_lines=True)
        st.caption(f"{lesson_bar.plain(t.title)} · {where} · "
                   + ("the class follows you" if state.pace == "follow" else "the class explores"))
    qr_col.image(board.qr_png(url), width=220, alt=f"QR code of the join link {url}")
    asks = step is not None and step.question and step.page == page
    follow = state.pace == "follow"
    with side:
        _live_counts(a.code, t.step)
        with st.container(key="class_controls"):
            st.button("Reveal", key="class_reveal", type="primary", width="stretch",
                      disabled=not asks or t.step in state.revealed, on_click=_reveal, args=(a, t.step),
                      icon=":material/visibility:")
            back, ahead = st.columns(2)
            back.button("Back", key="class_back_t", disabled=t.step == 0, on_click=_go, args=(a, t.step - 1),
                        width="stretch")
            ahead.button("Next", key="class_next_t", disabled=t.step >= t.n, on_click=_go, args=(a, t.step + 1),
                         width="stretch")
            st.button("Let them explore" if follow else "Follow me", key="class_pace", width="stretch",
                      on_click=_pace, args=(a, "free" if follow else "follow"))
            st.button("End the class", key="class_end", on_click=_end, args=(a,), width="stretch")
    failed = st.session_state.pop(_FAILED, None)
    if failed:
        st.error(lesson_bar.plain(failed))
    if step is not None:
        st.subheader(lesson_bar.plain(step.title), anchor=False)
        if step.question:
            _live_histogram(a.code, t.step, state.revealed.get(t.step) if t.step in state.revealed else None)
        if step.note:
            with st.expander("Teacher's note (students do not see it)"):
                st.markdown(lesson_bar.plain(step.note))
    with st.expander("The class's answers"):
        summary.downloads(a, t)


@st.fragment(run_every=TEACHER_POLL_S)
def _live_counts(code: str, step_index: int) -> None:
    """How many joined and how many predicted: redrawn every TEACHER_POLL_S seconds."""
    try:
        tally = class_store.tally(code, step_index)
    except database.Unavailable:
        st.caption("Reconnecting to the class…")
        return
    c1, c2 = st.columns(2)
    c1.metric("Joined", tally.joined)
    c2.metric("Predicted", tally.answered)


@st.fragment(run_every=TEACHER_POLL_S)
def _live_histogram(code: str, step_index: int, right: str | None) -> None:
    """The class's predictions, redrawn every TEACHER_POLL_S seconds; after the reveal the model's answer
    marked with the class's share."""
    try:
        tally = class_store.tally(code, step_index)
    except database.Unavailable as e:
        st.warning(f"Reconnecting to the class: {e}")
        return
    offer = gate.offered()
    options = [(o.key, o.label) for o in offer.options] if offer else []
    charts.plot(st, board.histogram(tally.counts, options, right, height=240), key="class_histogram")


def _teacher_call(action) -> None:
    try:
        action()
    except class_store.WrongKey as e:
        st.session_state[_FAILED] = str(e)
    except (class_store.Ended, database.Unavailable, ValueError) as e:
        st.session_state[_FAILED] = f"Not done: {e}"


def _reveal(a, step: int) -> None:
    offer = gate.offered()
    right = offer.outcome().right if offer else None
    labels = [(o.key, o.label) for o in offer.options] if offer else []
    _teacher_call(lambda: class_store.reveal(a.code, a.key, step, right, labels=labels))


def _go(a, step: int) -> None:
    _teacher_call(lambda: class_store.go(a.code, a.key, step))
    flow.go(step)


def _pace(a, pace: str) -> None:
    _teacher_call(lambda: class_store.set_pace(a.code, a.key, pace))


def _end(a) -> None:
    _teacher_call(lambda: class_store.end(a.code, a.key))


# ---------------------------------------------------------------- polling

def _poll(a, state) -> None:
    seen = None if state is None else (state.step, state.pace, tuple(sorted(state.revealed)))
    st.session_state[attending._SEEN] = seen
    _watch(a.code)


@st.fragment(run_every=POLL_S)
def _watch(code: str) -> None:
    """Every POLL_S seconds: the class as the database has it; a change the page has not drawn
    (a new step, a reveal, the pace) reruns the whole page."""
    try:
        state = class_store.state(code)
    except database.Unavailable:
        st.caption("Reconnecting to the class…")
        return
    now = None if state is None else (state.step, state.pace, tuple(sorted(state.revealed)))
    if state is None or not state.live(time.time()) or now != st.session_state.get(attending._SEEN):
        st.rerun()

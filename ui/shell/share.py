"""Sharing a view: short links (the link's `v` value, a code kept in the lessons' database by
ui/lessons/short_links.py) and the student's link of a presenter's view.

- `open_short(script_of)`: first thing in a session's run, a short link becomes the view it
  keeps (its page, its settings), as if that long link had been opened; a code this server does
  not know, or a database it cannot reach, is said in one sentence and the page opens as it is.
- `sidebar_button(page, link)`: "Short links to this view" in the sidebar: two short links, the view
  as it is (for students) and the same in presenter mode (for the teacher's slides).
- `student_link(where, page, link)`: presenter mode's "Student link": the same view without
  presenter and projector mode, short, shown large enough to be typed from the projector.
"""
from __future__ import annotations

import time
from typing import Callable
from urllib.parse import urlencode, urlsplit

import streamlit as st

from ui.lessons import database, short_links
from ui.serving.text import quoted
from ui.settings import layer

_SAID = "_short_links_made"   # page -> the codes of the view last made, for the sidebar's button
_MADE = "_short_links_made_at"  # when this tab asked for its short links (PER_HOUR)
PER_HOUR = 40  # short links a tab may ask for in an hour: a script cannot fill the database
_STUDENT = "_student_links"   # (page, settings) -> its code, so a presenter's rerun writes nothing
TEACHER_ONLY = ("presenter", "projector")  # what a student's link leaves out
# never in a short link (kept in the database as written): a teacher's keys (a lesson's, a live
# class's: the database keeps only their hashes) and the tab's own student id (each student gets
# their own)
PRIVATE = ("key", "ckey", "student")


def _shareable(link: dict, leave: tuple = ()) -> dict:
    return {k: v for k, v in link.items() if k not in PRIVATE and k not in leave}


def app_root(page: str) -> str:
    """The app's address as this browser reached it (scheme, host, port, path to the app), the
    page's own path (`page`) taken off."""
    url = urlsplit(st.context.url or "http://localhost:8501/")
    path = url.path.rstrip("/")
    if page and path.endswith("/" + page):
        path = path[: -len(page) - 1]
    return f"{url.scheme}://{url.netloc}{path}"


def short_url(page: str, code: str) -> str:
    return f"{app_root(page)}/?{urlencode({short_links.PARAM: code})}"


def open_short(script_of: Callable[[str], str], known: Callable[[str], bool]) -> None:
    """A short link (the link's `v`) opens the view kept under that code (once a session: the view's own link
    then stands in the address bar). script_of(page) -> its script; known(page): whether the app has it."""
    code = layer.opening_value(short_links.PARAM)
    if code is None or st.session_state.get("_short_opened"):
        return
    st.session_state["_short_opened"] = True
    try:
        found = short_links.find(code)
    except database.Unavailable as e:
        layer.note(f"The short link {quoted(code)} could not be opened: {e}")
        return
    if found is None or not known(found[0] or "home"):
        layer.note(f"This server has no short link {quoted(code)}: it may be mistyped, or it was not opened for "
              f"{short_links.view_days():g} days and was deleted. The page opened without it.")
        return
    page, params = found
    layer.open_view(script_of(page or "home"), params)


def _may_make(count: int, now: float | None = None) -> str | None:
    """None when this tab may make `count` more short links now (PER_HOUR), else why not."""
    now = time.time() if now is None else now
    made = [t for t in st.session_state.get(_MADE, []) if now - t < 3600]
    if len(made) + count > PER_HOUR:
        wait = int(3600 - (now - made[0])) // 60 + 1
        return (f"This tab has made {len(made)} short links in the last hour, the most it may; try again in "
                f"{wait} minutes (the address bar's own link works meanwhile).")
    st.session_state[_MADE] = made + [now] * count
    return None


def _keep(page: str, link: dict) -> tuple[str, str] | str:
    """(the view's code, its presenter-mode code), or why they could not be made."""
    if (why := _may_make(2)) is not None:
        return why
    try:
        student = _shareable(link, TEACHER_ONLY)
        return short_links.keep(page, student), short_links.keep(page, {**_shareable(link), "presenter": "1"})
    except (database.Unavailable, ValueError) as e:
        return str(e)


def sidebar_button(page: str, link: dict) -> None:
    """The sidebar's "Short links to this view" and, once pressed, the two links."""
    if st.button("Short links to this view", key="short_links", icon=":material/link:", width="stretch",
                 help="Two short links that open this view as it is now: for students, and in presenter "
                      f"mode for you. They are kept {short_links.view_days():g} days after they were "
                      "last opened; they hold settings only."):
        st.session_state[_SAID] = (page, _keep(page, link))
    made = st.session_state.get(_SAID)
    if not made or made[0] != page:
        return
    if isinstance(made[1], str):
        st.error(made[1])
        return
    student, teacher = made[1]
    st.caption("For students:")
    st.code(short_url(page, student), language=None)
    st.caption("For you, in presenter mode:")
    st.code(short_url(page, teacher), language=None)


def student_link(where, page: str, link: dict) -> None:
    """Presenter mode's "Student link": the same view, not in presenter mode, as a short link made
    on a click in the popover (Streamlit runs a popover's content while it is closed: made there,
    a live sweep would write a link for every value)."""
    student = _shareable(link, TEACHER_ONLY)
    made = st.session_state.setdefault(_STUDENT, {})
    key = (page, tuple(sorted(student.items())))
    with where.popover("Student link", icon=":material/share:"):
        st.markdown("This view for students (not in presenter mode):")
        if key not in made:
            if not st.button("Make the short link", key="student_short_link"):
                return
            if (why := _may_make(1)) is not None:
                st.error(why)
                return
            try:
                made[key] = short_links.keep(page, student)
            except (database.Unavailable, ValueError) as e:
                st.error(str(e))
                return
        st.code(short_url(page, made[key]), language=None)

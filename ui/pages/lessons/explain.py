"""The Lessons page's words."""
from __future__ import annotations

import streamlit as st

from ui.lessons.lesson_store import retention_days
from ui.shell import heading

TITLE = "Lessons"
LEDE = ("A lesson strings views of the app into steps. On a step with a question, students predict "
        "first; the page holds the run back until they lock a prediction, then the live model shows "
        "what happens and the player compares the two.")


def intro() -> None:
    heading.title(TITLE, LEDE)


def how_to_build() -> None:
    st.header("How to build a lesson")
    st.markdown(
        "1. On any page, set up the view you want (settings, stored patterns, the query), then press "
        "**Add this view to a lesson** in the sidebar.\n"
        "2. Here, give each step a title, an instruction for students and, where the page has one, a "
        "question. The model computes each question's answer from the step's own settings: you never "
        "type an answer.\n"
        "3. Write a note for yourself on any step (expected answers, the model's limits); students "
        "never see it.\n"
        "4. **Preview as a student**, then **Save**: you get the lesson's code, a link for students "
        "and a teacher's link. Keep the teacher's link to yourself: it is the only way to edit the lesson.")
    st.caption("Kept: the lesson until you delete it; students' predictions (a random id, the option, "
               f"the optional reason, the time) for {retention_days():g} days. No names, no accounts, "
               "no IP addresses.")

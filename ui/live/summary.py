"""The teacher's downloads of a live class: every answer as CSV (anonymous ids, options, reasons,
times) and a one-page summary (each revealed question: how the class predicted before the reveal,
and the model's answer)."""
from __future__ import annotations

import time

import streamlit as st

from ui.lessons import database

from . import class_store


def text(code: str, title: str, steps, results: dict, joined: int) -> str:
    """The one-page summary as plain text: the lesson, the class, and per revealed question the
    counts and shares of each option, the model's answer marked."""
    lines = [f"Live class {code}: {title}", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
             f"{joined} students joined. Answers are anonymous: no names were asked.", ""]
    asked = [(i, s) for i, s in enumerate(steps) if s.question]
    if not asked:
        lines.append("This lesson asks no questions.")
    for i, s in asked:
        lines.append(f"Step {i + 1}. {s.title}")
        got = results.get(i)
        if got is None:
            lines += ["  Not revealed: its answers are still open.", ""]
            continue
        counts, words = got["counts"], dict(got["labels"])
        total = sum(counts.values())
        for option in list(words) + [k for k in counts if k not in words]:
            n = counts.get(option, 0)
            mark = "  <- the model's answer" if option == got["right"] else ""
            share = f"{n / total:.0%}" if total else "0%"
            lines.append(f"  {words.get(option, option)}: {n} ({share}){mark}")
        lines += [f"  {total} predictions.", ""]
    return "\n".join(lines) + "\n"


def downloads(a, t) -> None:
    """The two downloads, for the class's teacher only (their key is checked by the database)."""
    try:
        rows = class_store.answers(a.code, a.key)
        results = class_store.results(a.code, a.key)
        joined = class_store.tally(a.code, 0).joined
    except (class_store.WrongKey, class_store.Ended, database.Unavailable) as e:
        st.warning(str(e))
        return
    st.caption(f"{len(rows)} answers so far.")
    c1, c2 = st.columns(2)
    c1.download_button("Answers (CSV)", class_store.csv_bytes(rows), file_name=f"class-{a.code}-answers.csv",
                       mime="text/csv", key="class_csv", width="stretch")
    c2.download_button("Summary (text)", text(a.code, t.title, t.steps, results, joined).encode("utf-8"),
                       file_name=f"class-{a.code}-summary.txt", mime="text/plain", key="class_summary",
                       width="stretch")

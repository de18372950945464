"""Hopfield energy landscapes: the entry point. Run with `streamlit run app.py`.

Streamlit serves streamlit_app.py (the pages). Before the server takes its first
connection it warms the process (ui/boot.py: the heavy imports, both Energy Transformers
loaded and run once): a browser that connects meanwhile waits for it rather than failing,
and no student's first page pays for it. Measured on a fresh server with 30 students
arriving in 5 s: page open p95 1.76 s when the first session did the warm-up, 0.29 s with
it here (README, "A classroom on one server").
"""
import logging
from contextlib import asynccontextmanager

import streamlit as st

from ui import boot

SCRIPT = "streamlit_app.py"


@asynccontextmanager
async def warm_first(_app):
    try:  # blocks the start-up, not a session: nothing is served until it is done
        boot.warm()
    except Exception:  # serve anyway: the first session retries it and shows what went wrong
        logging.getLogger(__name__).exception("the start-up warm-up failed")
    yield


app = st.App(SCRIPT, lifespan=warm_first)

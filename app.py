"""Hopfield energy landscapes: the entry point. Run with `streamlit run app.py`.

Streamlit serves streamlit_app.py (the pages). Before the server takes its first
connection it warms the process (ui/serving/boot.py: the heavy imports, both Energy Transformers
loaded and run once): a browser that connects meanwhile waits for it rather than failing,
and no student's first page pays for it. Measured on a fresh server with 30 students
arriving in 5 s: page open p95 1.76 s when the first session did the warm-up, 0.29 s with
it here (docs/classroom.md, "Running the server for a class").

The same start-up keeps the process's memory near its idle size over a class
(ui/serving/housekeeping.py): malloc tuned before the script threads start, the start-up's objects
frozen out of the garbage collector's passes, and a tidy-up every 30 s that shuts down the
sessions of closed tabs once their reconnection window has passed.

Every HTTP answer carries the frame policy (ui/serving/frame_policy.py): `frame-ancestors 'self'`
and the origins in $HOPFIELD_FRAME_ANCESTORS, the sites that may show the app in a frame.
"""
import asyncio
import logging
from contextlib import asynccontextmanager, suppress

import streamlit as st
from starlette.middleware import Middleware

from ui import pages
from ui.serving import boot, housekeeping
from ui.serving.frame_policy import FrameAncestors, origins_from_env

SCRIPT = "streamlit_app.py"


@asynccontextmanager
async def warm_first(_app):
    housekeeping.tune_malloc()
    try:  # blocks the start-up, not a session: nothing is served until it is done
        boot.warm(pages.warm_up)
    except Exception:  # serve anyway: the first session retries it and shows what went wrong
        logging.getLogger(__name__).exception("the start-up warm-up failed")
    housekeeping.freeze_start_up()
    tidying = asyncio.create_task(housekeeping.tidy_every())
    try:
        yield
    finally:
        tidying.cancel()
        with suppress(asyncio.CancelledError):
            await tidying


app = st.App(SCRIPT, lifespan=warm_first,
             middleware=[Middleware(FrameAncestors, origins=origins_from_env())])

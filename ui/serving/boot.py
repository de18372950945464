"""Everything heavy, imported and loaded once per server process, before any page runs.

Streamlit runs each session's script in its own thread. When 30 students open a freshly
started server at once, 30 threads import pandas, plotly and torch for the first time
together, and Python's per-module import locks can hand one thread a half-initialised
module ("partially initialized module 'pandas' has no attribute 'Series'"). So `warm()`
runs when the server starts (app.py's start-up, before the first connection is served),
and streamlit_app.py calls it first too (a no-op then; the warm-up wherever the script is
hosted otherwise, e.g. AppTest): one process-wide lock, one thread does every first import
and load (the pages' own through ui.pages.warm_up: the Energy Transformers' weights, each
run once), any others wait for it, then pass through for free. Importing this module is cheap (the standard library only).

The warm-up also gives torch and NumPy's BLAS one thread each (`limit_math_threads`). The
server's parallelism is its sessions, one script thread each; a math library that starts a
thread per core for every call from every session oversubscribes the cores, and its waiting
threads spin. Measured: with the other core busy, an Energy Transformer completion cost the
server 450 ms of CPU (380 ms to answer) with torch's default two threads, 210 ms with one.
"""
from __future__ import annotations

import importlib
import logging
import os
import pkgutil
import threading
import time
from contextlib import contextmanager
from typing import Callable

_lock = threading.Lock()
_seconds: float | None = None  # how long the warm-up took; None until it has run

# modules that the pages import lazily, or that Streamlit imports on first use
THIRD_PARTY = ("numpy", "pandas", "pyarrow", "PIL.Image", "plotly.graph_objects", "plotly.io",
               "plotly.subplots", "torch", "safetensors.torch")
SKIP = ("hopfield_core.et.train",)  # the training CLI (needs the dev-only tqdm)
# Streamlit's warning for a cache used outside a script run ("can be ignored"): the start-up
# warm-up fills the shared caches outside any session, on purpose
_NO_RUN_LOGGER = "streamlit.runtime.scriptrunner_utils.script_run_context"


def _import_package(name: str) -> None:
    package = importlib.import_module(name)
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{name}."):
        if info.name not in SKIP:
            importlib.import_module(info.name)


def _first_use() -> None:
    """What Streamlit and Plotly import on first use: a figure of every trace type the
    pages draw, serialised as st.plotly_chart does, and a table as st.dataframe does."""
    import pandas as pd
    import plotly.graph_objects as go
    import plotly.io as pio
    import pyarrow as pa

    fig = go.Figure([go.Scatter(y=[0, 1]), go.Scattergl(y=[0]), go.Heatmap(z=[[0]]),
                     go.Contour(z=[[0, 1], [1, 0]]), go.Bar(y=[1]), go.Image(z=[[[0, 0, 0]]])])
    pio.to_json(fig, validate=False)
    pa.Table.from_pandas(pd.DataFrame({"a": [1.0], "b": ["x"]}))


@contextmanager
def _quiet_outside_a_run():
    logger = logging.getLogger(_NO_RUN_LOGGER)
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def positive_int_env(name: str, default: int) -> int:
    """The environment variable `name` when it is a positive integer, else `default`."""
    value = os.environ.get(name, "")
    return int(value) if value.isdigit() and int(value) > 0 else default


def positive_number_env(name: str, default: float) -> float:
    """The environment variable `name` when it is a positive finite number, else `default`."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if 0 < value < float("inf") else default


def math_threads() -> int:
    """Threads per math call: $HOPFIELD_MATH_THREADS (a positive integer), else 1."""
    return positive_int_env("HOPFIELD_MATH_THREADS", 1)


def limit_math_threads(n: int) -> None:
    """torch's intra-op threads and the BLAS under NumPy, n each. OpenBLAS's limit is
    process-wide; torch's is per thread, and threads started afterwards (Streamlit starts one
    for each script run) inherit it."""
    import torch
    from threadpoolctl import threadpool_limits

    torch.set_num_threads(n)
    threadpool_limits(limits=n, user_api="blas")  # stays in force (not used as a context)


def warm(pages_warm_up: Callable[[], None] | None = None) -> float:
    """Do the process's heavy first imports and loads once; every caller returns after they
    are done. `pages_warm_up` (ui.pages.warm_up: the pages' own first loads, such as both
    Energy Transformers run once) runs last, inside the same lock: the serving layer knows no
    page. Returns how long the warm-up took (0 for a caller that found it done)."""
    global _seconds
    if _seconds is not None:
        return 0.0
    with _lock:
        if _seconds is not None:
            return 0.0
        t0 = time.perf_counter()
        from . import widget_log
        widget_log.install()  # a crafted widget value: one line in the log, not a traceback
        # the click grids (ui/store/grid_editor.py) are st.components.v2 components: their html,
        # css and js travel with the page's message, so declared here, outside any script run,
        # they need no registration with the server (an iframe component did)
        with _quiet_outside_a_run():
            for name in THIRD_PARTY:
                importlib.import_module(name)
            _first_use()
            limit_math_threads(math_threads())
            _import_package("hopfield_core")
            _import_package("ui")
            if pages_warm_up is not None:
                pages_warm_up()
        _seconds = time.perf_counter() - t0
        return _seconds


def warmed() -> bool:
    return _seconds is not None

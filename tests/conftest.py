import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, settings

# Two pytest-xdist workers by default, a test file to each (--dist loadfile: a file's module
# fixtures stay in one process): about 18 min instead of 27 on two cores. Each worker starts
# its own servers on free ports and writes its own logs. Tests marked `quiet` (Chromium's painted
# frames during Play: a chart must never be blank) need the machine to themselves, as a class's
# teacher machine is not shared with a test suite: the workers leave them, and one serial run
# takes them after the workers finish; its failure fails the whole run. HOPFIELD_TEST_WORKERS=0,
# `-n 0` or `-p no:xdist` runs everything serially; `-n N` or `-m` on the command line wins.
WORKERS = int(os.environ.get("HOPFIELD_TEST_WORKERS") or 2)
QUIET = "quiet"


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    if not config.pluginmanager.hasplugin("xdist") or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if config.option.numprocesses is not None or config.option.collectonly \
            or config.option.usepdb or WORKERS < 2:
        return
    config.option.numprocesses = WORKERS
    if config.option.dist == "no":
        config.option.dist = "loadfile"
    if not config.option.markexpr:
        config.option.markexpr = f"not {QUIET}"
        config.stash[_QUIET_AFTER] = list(config.args)


_QUIET_AFTER = pytest.StashKey[list]()
_QUIET_KEY = "hopfield_quiet_after"  # in each worker's workerinput: the workers leave them


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """(xdist, controller) A worker parses the command line afresh, so the `not quiet` the
    controller added must travel to it."""
    if node.config.stash.get(_QUIET_AFTER, None) is not None:
        node.workerinput[_QUIET_KEY] = True


def pytest_configure(config):
    if getattr(config, "workerinput", {}).get(_QUIET_KEY) and not config.option.markexpr:
        config.option.markexpr = f"not {QUIET}"


def pytest_sessionfinish(session, exitstatus):
    """After a parallel run: the `quiet` tests of the same paths, alone on the machine."""
    args = session.config.stash.get(_QUIET_AFTER, None)
    collected_none = exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED  # e.g. only quiet tests
    if args is None or os.environ.get("PYTEST_XDIST_WORKER") or exitstatus not in (0, 1, 5):
        return
    print(f"\n--- the tests marked {QUIET!r}, alone on the machine (serial) ---", flush=True)
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:xdist", "-m", QUIET,
                           "-p", "no:cacheprovider", *args], cwd=session.config.rootpath)
    if done.returncode not in (0, 5):  # 5: none of those paths holds a quiet test
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif collected_none and done.returncode == 0:  # the quiet run was the whole run
        session.exitstatus = pytest.ExitCode.OK


# Deterministic property tests: the same examples on every machine and every run.
settings.register_profile("ci", derandomize=True, max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Uploads go to a throw-away folder, never the checkout's .uploads/: for the AppTests here and
# for every server a test starts (they inherit the environment). An xdist worker inherits the
# controller's folder (marked by _HOPFIELD_TEST_UPLOADS) and takes its own, as a serial run has.
if not os.environ.get("HOPFIELD_UPLOAD_DIR") or (
        os.environ.get("PYTEST_XDIST_WORKER")
        and os.environ.get("_HOPFIELD_TEST_UPLOADS") == os.environ["HOPFIELD_UPLOAD_DIR"]):
    import tempfile

    os.environ["HOPFIELD_UPLOAD_DIR"] = tempfile.mkdtemp(prefix="hopfield-uploads-")
    os.environ["_HOPFIELD_TEST_UPLOADS"] = os.environ["HOPFIELD_UPLOAD_DIR"]

# The lessons' database likewise (ui/lessons/database.py): a throw-away data folder, never the
# checkout's .data/, and never a server named in the environment.
if not os.environ.get("HOPFIELD_DATA_DIR") or (
        os.environ.get("PYTEST_XDIST_WORKER")
        and os.environ.get("_HOPFIELD_TEST_DATA") == os.environ["HOPFIELD_DATA_DIR"]):
    import tempfile

    os.environ["HOPFIELD_DATA_DIR"] = tempfile.mkdtemp(prefix="hopfield-data-")
    os.environ["_HOPFIELD_TEST_DATA"] = os.environ["HOPFIELD_DATA_DIR"]
os.environ.pop("HOPFIELD_DATABASE_URL", None)
# The class's budget of new images a minute (ui/store/upload_budget.py) is sized for a class,
# not for a test run, whose sessions upload dozens a minute into one folder: a one-minute hold
# lifts it to thousands. The tests of the budget and the flood set their own.
os.environ.setdefault("HOPFIELD_UPLOAD_HOLD_MINUTES", "1")


# The app gives torch and NumPy's BLAS one thread each for the whole process (ui/serving/boot.py),
# which is right for a server but would slow the tests that follow an AppTest: give them back.
# Read without importing torch or threadpoolctl (the core's tests run where neither is installed):
# a test that uses them imports them; afterwards each module's end restores their counts.
_THREADS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()


@pytest.fixture(autouse=True, scope="module")
def _math_threads_restored():
    yield
    # OpenBLAS's limit is process-wide, so it is given back. torch's is per thread: this (main)
    # thread gets its count back, and threads started later (an AppTest's script threads)
    # inherit the app's, as a server's sessions do.
    if "threadpoolctl" in sys.modules:
        sys.modules["threadpoolctl"].threadpool_limits(limits=_THREADS, user_api="blas")
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(_THREADS)

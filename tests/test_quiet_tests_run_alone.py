"""tests/conftest.py: a parallel run leaves the tests marked `quiet` to one serial run after its
workers finish, and that run's result is the run's: a failing quiet test fails it, and a path
that holds only quiet tests still runs them (and passes)."""
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

# each run of a quiet test writes a line to the log the probe names
QUIET = ("import os\nimport pytest\n\n\n@pytest.mark.quiet\ndef test_quiet():\n"
         "    with open(os.environ['QUIET_PROBE_LOG'], 'a') as f:\n        f.write('ran\\n')\n"
         "    assert {ok}\n")
QUIET_PASSES, QUIET_FAILS = QUIET.format(ok=True), QUIET.format(ok=False)
OTHER_PASSES = "def test_other():\n    assert True\n"


def run(files: dict, log: Path) -> tuple[int, str]:
    """pytest with the project's default (two workers) on a folder of tests/ holding `files`."""
    folder = TESTS / f"_quiet_probe_{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    try:
        for name, text in files.items():
            (folder / name).write_text(text)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")
               and k not in ("HOPFIELD_TEST_WORKERS", "PYTEST_CURRENT_TEST")}
        env["QUIET_PROBE_LOG"] = str(log)
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               str(folder)], cwd=TESTS.parent, env=env, capture_output=True,
                              text=True, timeout=300)
        return done.returncode, done.stdout
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("files, code", [
    ({"test_a.py": QUIET_FAILS, "test_b.py": OTHER_PASSES}, 1),   # the quiet failure counts
    ({"test_a.py": QUIET_PASSES, "test_b.py": OTHER_PASSES}, 0),
    ({"test_a.py": QUIET_PASSES}, 0),                             # only quiet tests: they run
    ({"test_a.py": QUIET_FAILS}, 1),
], ids=["quiet-fails", "both-pass", "only-quiet-passes", "only-quiet-fails"])
def test_quiet_tests_run_alone_after_the_workers_and_decide_the_result(files, code, tmp_path):
    log = tmp_path / "ran.txt"
    rc, out = run(files, log)
    assert log.read_text() == "ran\n", out[-2000:]  # once: in the serial run, not by a worker
    assert rc == code, out[-2000:]
    assert "alone on the machine" in out, out[-2000:]  # the serial run after the workers
    assert ("1 failed" in out) == (code == 1), out[-2000:]

"""Run a command that ends with the launcher: `python die_with_parent.py PARENT_PID CMD...`.

The launcher starts each child (an app process, nginx) through this small program, which asks
Linux for SIGTERM when its parent dies (prctl PR_SET_PDEATHSIG, kept across exec) and then
becomes the command (os.execv: the same pid, nothing left in between). Doing this in the child
itself, not in a `preexec_fn`, keeps the launcher's fork safe while its other threads run
(the Python docs warn a preexec_fn can deadlock there). Where there is no prctl (not Linux)
the command simply runs; a launcher that died before the signal was set ends the child here.
Standard library only.
"""
from __future__ import annotations

import ctypes
import os
import shutil
import signal
import sys

PR_SET_PDEATHSIG = 1


def main(argv: list[str]) -> None:
    parent, cmd = int(argv[0]), argv[1:]
    try:
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # no prctl here: no parent-death signal
        pass
    if os.getppid() != parent:  # the launcher died before the signal was set
        sys.exit(1)
    os.execv(shutil.which(cmd[0]) or cmd[0], cmd)


if __name__ == "__main__":
    main(sys.argv[1:])

"""A throw-away PostgreSQL server for the database tests: Debian's `postgresql` package, a
cluster made by initdb in a temporary folder and listening only on a Unix socket there, run as
the `postgres` user when the tests run as root (PostgreSQL refuses root), stopped at the end.
`missing()` says why none can run here (the tests then skip with that reason)."""
from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path


def _binary(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    return found[-1] if found else shutil.which(name)


def _as_postgres() -> bool:
    return os.geteuid() == 0


def missing() -> str | None:
    if not _binary("initdb") or not _binary("pg_ctl"):
        return "PostgreSQL is not installed: `apt-get install -y postgresql` (Debian's package)"
    if _as_postgres():
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "there is no `postgres` user to run PostgreSQL as (tests run as root)"
    return None


class Cluster:
    """One server; `database()` makes a fresh, empty database on it and returns its URL."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="hopfield-pg-"))
        self.data = self.dir / "data"
        if _as_postgres():
            shutil.chown(self.dir, "postgres", "postgres")
        self._run([_binary("initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                   "--no-sync", "-E", "UTF8"])
        options = f"-k {self.dir} -c listen_addresses='' -c fsync=on -c max_connections=100"
        self._run([_binary("pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.dir / "log"),
                   "-w", "-t", "60", "start"])

    def _run(self, cmd: list[str]) -> None:
        if _as_postgres():
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{cmd[0]} failed: {done.stdout}{done.stderr}")

    def url(self, name: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@/{name}?host={self.dir}"

    def database(self) -> str:
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(host=str(self.dir), user="postgres", dbname="postgres", autocommit=True) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run([_binary("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"])
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

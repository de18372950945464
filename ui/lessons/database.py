"""The lessons' database: SQLite in the app's data folder by default, PostgreSQL when
$HOPFIELD_DATABASE_URL names one (several machines), both through SQLAlchemy 2, their tables
brought up to date by the Alembic migrations in `migrations/` when a process first opens them.

SQLite, one machine: the file is `$HOPFIELD_DATA_DIR/lessons.sqlite3` (default: the checkout's
git-ignored `.data/`), in WAL mode so that every process of the deploy reads while one writes;
`synchronous=FULL`, so that a committed write survives a killed process and a power cut; a
writer waits up to 10 s for another (`busy_timeout`), and a write transaction takes the write
lock when it begins (`BEGIN IMMEDIATE`: two processes that read, then write, cannot deadlock).
PostgreSQL: `postgresql://user:password@host/name` (psycopg 3 drives it).

`Unavailable` is what a page catches: the database cannot be reached, or stays locked, and its
message is one sentence to show; the page still works as a plain page. No Streamlit here."""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sqlalchemy import Connection, Engine, create_engine, event, exc, text

URL_ENV = "HOPFIELD_DATABASE_URL"
DATA_ENV = "HOPFIELD_DATA_DIR"
DEFAULT_DATA = Path(__file__).resolve().parents[2] / ".data"  # the checkout's, git-ignored
FILE = "lessons.sqlite3"
BUSY_S = 10.0          # how long a writer waits for another (SQLite), or a connection (PostgreSQL)
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_ADVISORY_LOCK = 4_604_606  # PostgreSQL: one process migrates at a time (any constant will do)
_WRITE = "hopfield_write"


class Unavailable(RuntimeError):
    """The database cannot be used just now; str(e) is a sentence for the page."""


def url() -> str:
    """The database's URL: $HOPFIELD_DATABASE_URL (postgres:// and postgresql:// are driven by
    psycopg 3), else the SQLite file in the data folder."""
    given = os.environ.get(URL_ENV, "").strip()
    if given:
        for prefix in ("postgres://", "postgresql://"):
            if given.startswith(prefix):
                return "postgresql+psycopg://" + given[len(prefix):]
        return given
    return f"sqlite:///{Path(os.environ.get(DATA_ENV) or DEFAULT_DATA) / FILE}"


def _sqlite(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def connect(dbapi, _record):
        dbapi.isolation_level = None  # the driver's own BEGINs off: ours below
        cur = dbapi.cursor()
        for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON",
                       f"busy_timeout={int(BUSY_S * 1000)}"):
            cur.execute(f"PRAGMA {pragma}")
        cur.close()

    @event.listens_for(engine, "begin")
    def begin(conn: Connection):
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(_WRITE) else "BEGIN")


def make_engine(address: str) -> Engine:
    """An engine for `address`, its pragmas or timeouts set; opens nothing yet."""
    if address.startswith("sqlite"):
        path = address.split("///", 1)[1] if "///" in address else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(address, connect_args={"timeout": BUSY_S})
        _sqlite(engine)
        return engine
    return create_engine(address, pool_pre_ping=True, connect_args={"connect_timeout": int(BUSY_S)})


def migrate(engine: Engine) -> None:
    """Bring the tables up to the newest migration; two processes at once are serialised (the
    write lock on SQLite, an advisory lock on PostgreSQL) and the second finds nothing to do."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as conn:
        conn.execution_options(**{_WRITE: True})
        with conn.begin():
            if engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _ADVISORY_LOCK})
            config.attributes["connection"] = conn
            command.upgrade(config, "head")


_engines: dict[str, Engine] = {}
_lock = threading.Lock()


def engine(address: str | None = None) -> Engine:
    """The process's engine for `address` (default: url()), migrated on first use."""
    address = address or url()
    with _lock:
        if address not in _engines:
            made = make_engine(address)
            with guarded():
                migrate(made)
            _engines[address] = made
        return _engines[address]


def forget(address: str | None = None) -> None:
    """Close and forget the process's engine (tests; a new URL)."""
    with _lock:
        made = _engines.pop(address or url(), None)
    if made is not None:
        made.dispose()


@contextmanager
def guarded() -> Iterator[None]:
    """Database errors as Unavailable (a sentence); other errors pass."""
    try:
        yield
    except exc.OperationalError as e:
        locked = "locked" in str(e.orig).lower() or "busy" in str(e.orig).lower()
        raise Unavailable(
            "The lessons' database is busy just now; try again in a moment." if locked else
            "The lessons' database cannot be reached just now, so lessons are off; the page works as usual."
        ) from e
    except exc.InterfaceError as e:
        raise Unavailable("The lessons' database cannot be reached just now, so lessons are off; "
                          "the page works as usual.") from e


@contextmanager
def reading(address: str | None = None) -> Iterator[Connection]:
    """A connection in a read transaction."""
    with guarded():
        with engine(address).connect() as conn, conn.begin():
            yield conn


@contextmanager
def writing(address: str | None = None) -> Iterator[Connection]:
    """A connection in a write transaction, committed when the block ends (then acknowledged)."""
    with guarded():
        with engine(address).connect() as conn:
            conn.execution_options(**{_WRITE: True})
            with conn.begin():
                yield conn

"""Every database test runs twice: on SQLite (a file in a temporary folder) and on PostgreSQL (a
throw-away server from tests/support/postgres.py, one per test process; skipped, saying why,
where PostgreSQL is not installed). `db` is the database's URL, fresh and empty for each test."""
import pytest

from tests.support import postgres
from ui.lessons import database


@pytest.fixture(scope="session")
def pg_cluster():
    why = postgres.missing()
    if why:
        pytest.skip(why)
    cluster = postgres.Cluster()
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path):
    if request.param == "sqlite":
        address = f"sqlite:///{tmp_path / 'lessons.sqlite3'}"
    else:
        address = request.getfixturevalue("pg_cluster").database()
    yield address
    database.forget(address)

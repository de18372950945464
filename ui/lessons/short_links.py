"""Short links: any view of a page (its path and its link's settings) kept in the lessons'
database under a 6-character code (ui/lessons/codes.py: no 0/O, 1/I/L), opened by the link's `v`
value (ui/shell/share.py).

The same view always gets the same code (its SHA-256 is unique), so a teacher who makes the link
twice writes one row. A view holds settings only, never a name or an address; it is kept
`VIEW_DAYS` after it was last made or opened ($HOPFIELD_VIEW_DAYS), then `prune` deletes it.
Every function raises database.Unavailable when the database cannot be used."""
from __future__ import annotations

import hashlib
import time
from urllib.parse import parse_qsl, urlencode

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from ui.serving.boot import positive_number_env

from . import codes, database
from .tables import views

VIEW_DAYS = 365
VIEW_DAYS_ENV = "HOPFIELD_VIEW_DAYS"
PARAM = "v"          # the link's name for a short link's code
MAX_QUERY = 8_000    # characters of a view's settings (a link is far shorter: a page has < 40 settings)
MAX_PAGE = 40
_CODE_TRIES = 20


def view_days() -> float:
    return positive_number_env(VIEW_DAYS_ENV, VIEW_DAYS)


def _digest(page: str, query: str) -> str:
    return hashlib.sha256(f"{page}?{query}".encode("utf-8")).hexdigest()


def keep(page: str, params: dict[str, str], address: str | None = None) -> str:
    """The code of this view (page: its path, "" for Home; params: the link's settings), made
    now or found (then its time is renewed). ValueError for a view too long to keep."""
    query = urlencode(sorted((str(k), str(v)) for k, v in params.items() if k != PARAM))
    if len(query) > MAX_QUERY or len(page) > MAX_PAGE:
        raise ValueError("This view's settings are too long for a short link.")
    digest, now = _digest(page, query), time.time()
    for _ in range(_CODE_TRIES):
        with database.writing(address) as conn:
            found = conn.execute(select(views.c.code).where(views.c.digest == digest)).scalar()
            if found is not None:
                conn.execute(update(views).where(views.c.code == found).values(opened=now))
                return found
        code = codes.new_code()
        try:
            with database.writing(address) as conn:
                conn.execute(insert(views).values(code=code, digest=digest, page=page, query=query,
                                                  created=now, opened=now))
            return code
        except IntegrityError:  # the code was taken, or another process kept the same view first
            continue
    raise database.Unavailable("No free short-link code was found; try again.")


def find(code: str, address: str | None = None) -> tuple[str, dict[str, str]] | None:
    """(the page's path, the link's settings) of a short link's code (a typed code is cleaned:
    case, spaces, dashes); None when there is none. Opening it renews its time."""
    clean = codes.clean_code(code)
    if clean is None:
        return None
    with database.writing(address) as conn:
        row = conn.execute(select(views.c.page, views.c.query).where(views.c.code == clean)).first()
        if row is None:
            return None
        conn.execute(update(views).where(views.c.code == clean).values(opened=time.time()))
    return row.page, dict(parse_qsl(row.query, keep_blank_values=True))


def prune(now: float | None = None, days: float | None = None, address: str | None = None) -> int:
    """Delete the views not made or opened for `days` (VIEW_DAYS); returns how many went."""
    cutoff = (time.time() if now is None else now) - 86400 * (view_days() if days is None else days)
    with database.writing(address) as conn:
        return conn.execute(delete(views).where(views.c.opened < cutoff)).rowcount

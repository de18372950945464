"""Short links on SQLite and PostgreSQL (ui/lessons/short_links.py): a view kept under a code,
the same view the same code, found again with its settings exactly, typed codes cleaned,
unknown and malformed codes found as none, too long a view refused, old views pruned."""
import time

import pytest

from ui.lessons import codes, short_links

VIEW = {"beta": "50", "presets": "letters/A,letters/B", "q_flip": "", "presenter": "1"}


def test_a_view_is_kept_under_a_code_and_found_again_exactly(db):
    code = short_links.keep("modern", VIEW, db)
    assert codes.clean_code(code) == code
    assert short_links.find(code, db) == ("modern", VIEW)
    assert short_links.find(code.lower()[:3] + "-" + code.lower()[3:], db) == ("modern", VIEW)


def test_the_same_view_gets_the_same_code_and_another_another(db):
    code = short_links.keep("modern", VIEW, db)
    assert short_links.keep("modern", dict(reversed(list(VIEW.items()))), db) == code  # order says nothing
    assert short_links.keep("modern", {**VIEW, "beta": "10"}, db) != code
    assert short_links.keep("classical", VIEW, db) != code


@pytest.mark.parametrize("typed", ["", "ABC", "ZZZZZZZ", "O0O0O0", "<b>x</b>", "23456789"])
def test_unknown_and_malformed_codes_find_nothing(db, typed):
    short_links.keep("modern", VIEW, db)
    assert short_links.find(typed, db) is None


def test_a_view_too_long_is_refused(db):
    with pytest.raises(ValueError, match="too long for a short link"):
        short_links.keep("modern", {"text": "x" * (short_links.MAX_QUERY + 1)}, db)


def test_views_not_opened_for_the_retention_are_pruned(db):
    old = short_links.keep("modern", VIEW, db)
    new = short_links.keep("classical", VIEW, db)
    later = time.time() + 86400 * (short_links.VIEW_DAYS + 1)
    short_links.find(new, db)  # opened now: renewed, but still older than `later` minus the retention
    assert short_links.prune(now=later - 86400 * 2, address=db) == 0
    assert short_links.prune(now=later, address=db) == 2
    assert short_links.find(old, db) is None

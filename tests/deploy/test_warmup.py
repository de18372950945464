"""The deploy's warm-up visits every page of the navigation (ui/pages/__init__.py).

It used to read a stale copy of the page list and skipped the three newest pages. Here the
launcher's default, then a real server: one session runs every page of the registry, and
the navigation message of each run names the page that was asked for.
"""
from __future__ import annotations

from deploy.classroom import parse_args
from deploy.warmup import pages_to_warm, warm
from tests.support.server import Server
from ui.pages import PAGES, url_paths


def test_the_default_warm_up_is_every_page_of_the_registry():
    assert pages_to_warm(parse_args([]).warm) == url_paths() == [p.url_path for p in PAGES]
    assert pages_to_warm("none") == []
    assert pages_to_warm(",classical") == ["", "classical"]


def test_the_warm_up_runs_every_page_on_a_real_server():
    server = Server()
    server.skip_unless_healthy(90)
    try:
        report = warm(server.url, pages_to_warm("all"), timeout=120)
        # a wrong name shows as "page not found" and the run of another page
        bad = warm(server.url, ["no_such_page"], timeout=120)
    finally:
        server.stop()
    assert [line.split()[0] for line in report] == [p or "home" for p in url_paths()]
    assert not [line for line in report if "EXCEPTION" in line], report
    assert "page not found" in bad[0] and "ran page '' instead" in bad[0], bad

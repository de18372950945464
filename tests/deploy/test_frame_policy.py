"""The frame policy (ui/serving/frame_policy.py): an allowlist of origins, one header.

The header on a real server: tests/test_server_config.py (plain `streamlit run app.py`) and
tests/deploy/test_supervision.py (through nginx).
"""
from __future__ import annotations

import asyncio

import pytest

from ui.serving.frame_policy import (
    ENV,
    FrameAncestors,
    origins_from_env,
    parse_origins,
    policy,
)


def test_origins_are_read_from_text_and_lists_and_deduplicated():
    assert parse_origins("https://lms.school.org, https://*.school.org\nhttp://10.0.0.5:8080/") \
        == ["https://lms.school.org", "https://*.school.org", "http://10.0.0.5:8080"]
    assert parse_origins(["https://a.org", "https://a.org https://b.org:*"]) \
        == ["https://a.org", "https://b.org:*"]
    assert parse_origins("") == [] and parse_origins([]) == []


@pytest.mark.parametrize("bad", ["lms.school.org", "*", "https:", "'none'", "javascript:alert(1)",
                                 "https://a.org/path", "https://a.org;", "https://a.org\"",
                                 "https://-a.org", "https://a.org:99999x", "https://a b.org"])
def test_anything_but_scheme_host_port_is_refused_with_the_form_to_use(bad):
    with pytest.raises(ValueError, match="is not an origin: write it as scheme://host"):
        parse_origins(bad)


def test_the_policy_always_allows_the_apps_own_pages():
    assert policy() == "frame-ancestors 'self'"
    assert policy(["https://lms.school.org"]) == "frame-ancestors 'self' https://lms.school.org"


def test_origins_come_from_the_environment():
    assert origins_from_env({ENV: "https://lms.school.org"}) == ["https://lms.school.org"]
    assert origins_from_env({}) == []


def _answer(middleware, scope_type: str = "http") -> list[dict]:
    sent: list[dict] = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request"}

    asyncio.run(middleware({"type": scope_type}, receive, send))
    return sent


def test_every_http_answer_carries_exactly_one_policy_header():
    async def app(scope, receive, send):  # an app that sets its own (stricter) policy
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/html"),
                                (b"Content-Security-Policy", b"frame-ancestors 'none'")]})
        await send({"type": "http.response.body", "body": b"hi"})

    sent = _answer(FrameAncestors(app, origins=["https://lms.school.org"]))
    headers = sent[0]["headers"]
    assert [v for k, v in headers if k.lower() == b"content-security-policy"] == \
        [b"frame-ancestors 'self' https://lms.school.org"]
    assert (b"content-type", b"text/html") in headers
    assert sent[1] == {"type": "http.response.body", "body": b"hi"}


def test_a_websocket_passes_untouched():
    async def app(scope, receive, send):
        await send({"type": "websocket.accept", "headers": []})

    assert _answer(FrameAncestors(app), "websocket") == [{"type": "websocket.accept",
                                                         "headers": []}]

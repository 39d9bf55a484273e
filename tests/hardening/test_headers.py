"""Every page, the admin's included, carries a strict CSP and a Permissions-Policy,
and draws nothing the CSP would block (inline scripts, styles, handlers)."""

from __future__ import annotations

import re

import pytest

from games.flaming_pyramids import layout_css
from tests.hardening.pages_of_every_kind import ANONYMOUS_PATHS, page_paths, running_tables
from tests.pages import client_for

pytestmark = pytest.mark.django_db

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
STYLE_ELEMENT = re.compile(r"<style\b", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[a-z][^>]*\sstyle=", re.I)
HANDLER = re.compile(r"<[a-z][^>]*\son[a-z]+=", re.I)
JS_URL = re.compile(r"""(href|src|action)=["']\s*javascript:""", re.I)


def directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def assert_strict_headers(path, response):
    csp = response.headers.get("Content-Security-Policy")
    assert csp, f"{path}: no Content-Security-Policy"
    d = directives(csp)
    for name in ("script-src", "style-src"):
        assert d.get(name) == ["'self'"], (path, name, d.get(name))
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    assert d["object-src"] == ["'none'"] and d["frame-ancestors"] == ["'none'"]
    policy = response.headers.get("Permissions-Policy", "")
    assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy, path


def assert_nothing_inline(path, html):
    for pattern in (INLINE_SCRIPT, STYLE_ELEMENT, STYLE_ATTRIBUTE, HANDLER, JS_URL):
        found = pattern.search(html)
        assert not found, f"{path}: {html[max(0, found.start() - 80):found.end() + 80]!r}"


def test_every_page_carries_the_headers_and_nothing_inline(make_user):
    admin = make_user("root", is_staff=True, is_superuser=True)
    tables = running_tables(admin)
    checked = 0
    for client, paths in ((client_for(admin), page_paths(tables, staff=True)),
                          (client_for(), ANONYMOUS_PATHS)):
        for path in paths:
            response = client.get(path)
            assert response.status_code in (200, 302, 400, 404), (path, response.status_code)
            assert response.headers.get("X-Frame-Options") == "DENY", path
            assert_strict_headers(path, response)
            if response.status_code != 302:
                assert_nothing_inline(path, response.content.decode())
                checked += 1
    assert checked >= 20


def test_the_htmx_answer_and_the_socket_push_draw_nothing_inline(running_table):
    table = running_table
    table.refresh_from_db()
    user = table.seats.get(position=table.to_move[0]).user
    response = client_for(user).post(f"/tables/{table.pk}/move", {"move": "{}", "based_on": 0},
                                     HTTP_HX_REQUEST="true")
    assert_strict_headers("move (htmx)", response)
    assert_nothing_inline("move (htmx)", response.content.decode())


def test_htmx_is_configured_for_the_csp(make_user):
    html = client_for(make_user("ana")).get("/").content.decode()
    assert '<meta name="htmx-config" content=\'{"includeIndicatorStyles": false' in html


def test_the_flaming_pyramids_layout_stylesheet_is_in_step_with_its_generator():
    assert layout_css.PATH.read_text() == layout_css.build(), \
        "run: python -m games.flaming_pyramids.layout_css"

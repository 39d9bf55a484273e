"""The API's pages in Chromium: the browsable docs work under the CSP (no CDN, no inline
script), and tokens are made and revoked on the profile page without JavaScript."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import sign_in, verified_user
from tests.browser.test_csp import watch

pytestmark = pytest.mark.browser


def test_the_api_docs_page_draws_every_operation_under_the_csp(new_context, live_url):
    violations: list[str] = []
    page = new_context().new_page()
    watch(page, violations)
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto("/api/v1/docs", timeout=90_000)  # Swagger UI is a large script
    expect(page.locator(".opblock").first).to_be_visible(timeout=60_000)
    expect(page.get_by_text("/api/v1/tables/{table_id}/moves").first).to_be_visible()
    assert page.locator(".opblock").count() >= 12
    assert not violations, "\n".join(violations)
    assert all(url.startswith(live_url) or url.startswith("data:") for url in requested), requested


def test_a_token_is_made_shown_once_used_and_revoked(new_context, live_url):
    verified_user("ana")
    context = new_context(java_script_enabled=False)
    page = context.new_page()
    sign_in(page, login="ana")
    page.goto("/profile/")
    page.get_by_label("token name").fill("my bot")
    page.get_by_label("play: make moves, create, join, leave and resign tables").check()
    page.get_by_role("button", name="Make a token").click()
    raw = page.get_by_label("Token (shown only now: copy it)").input_value()
    assert raw.startswith("pt_")
    me = json.load(urllib.request.urlopen(urllib.request.Request(
        live_url + "/api/v1/me", headers={"Authorization": f"Bearer {raw}"}), timeout=10))
    assert me["username"] == "ana" and me["scopes"] == ["play", "read"]
    page.goto("/profile/")
    assert raw not in page.content()
    page.get_by_role("button", name="Revoke the token my bot").click()
    expect(page.get_by_text("You have no API tokens.")).to_be_visible()
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(urllib.request.Request(
            live_url + "/api/v1/me", headers={"Authorization": f"Bearer {raw}"}), timeout=10)
    assert refused.value.code == 401

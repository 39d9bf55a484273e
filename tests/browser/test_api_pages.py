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


def test_the_profile_tokens_on_a_phone_in_spanish(new_context, live_url):
    """The token and bot-account controls in Spanish at 390×844: labelled, nothing wider
    than the screen, a token made with the keyboard alone, axe-core clean."""
    from accounts.models import User
    from tests.browser.helpers import PHONE
    from tests.browser.test_accessibility import AXE, BLOCKING, RUN_AXE

    verified_user("lia")
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    sign_in(page, login="lia")
    User.objects.filter(username="lia").update(language="es")
    page.goto("/profile/")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_text("No tienes tokens de la API.")).to_be_visible()
    expect(page.get_by_label("esta cuenta es un bot")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    problems = [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]
    assert not problems, problems
    page.get_by_label("nombre del token").fill("mi bot")
    page.get_by_label("juego: hacer jugadas, crear mesas, unirse, salir y rendirse").check()
    page.get_by_role("button", name="Crear un token").focus()
    page.keyboard.press("Enter")
    raw = page.get_by_label("Token (se muestra solo ahora: cópialo)").input_value()
    assert raw.startswith("pt_")
    box = page.get_by_label("Token (se muestra solo ahora: cópialo)").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
    problems = [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]
    assert not problems, problems

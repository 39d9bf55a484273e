"""The pages that invite play, in Chromium at phone size and in Spanish: landing, lobby,
rules, a new user's first steps, the new-table form's seats and clock fields, and the time
zone guessed from the browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, sign_in, verified_user

pytestmark = pytest.mark.browser


def phone(new_context, **extra):
    return new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="es-ES",
                       extra_http_headers={"Accept-Language": "es"}, **extra).new_page()


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_landing_lobby_and_rules_on_a_spanish_phone(new_context, live_server_asgi, shots_dir):
    from games.tables import actions

    ana = verified_user("ana")
    actions.check_create_table(creator=ana, game="gizmos", players=3, bots={2: "strong"})
    actions.check_create_table(creator=ana, game="powerhouse", players=2, bots={1: "fast"})
    page = phone(new_context)
    page.goto("/")
    expect(page.locator("[data-testid=showcase] img")).to_have_count(3)
    for img in page.locator("[data-testid=showcase] img").all():
        img.scroll_into_view_if_needed()
        # scrolling starts the load, it does not wait for it (a loaded picture read as "not
        # complete" once in CI); wait until the browser is done with it, then a broken
        # picture (complete, no width) still fails
        page.wait_for_function("i => i.complete", arg=img.element_handle(), timeout=10_000)
        assert img.evaluate("i => i.naturalWidth > 0"), "a game picture did not load"
        assert img.get_attribute("src").endswith(".es.png")  # the board's words in Spanish
    fits(page)
    page.screenshot(path=str(shots_dir / "landing-phone-es.png"), full_page=True)

    page.get_by_role("link", name="Reglas de Gizmos").click()
    expect(page.locator("h1")).to_have_text("Reglas de Gizmos")
    expect(page.locator("main")).to_contain_text("Los convertidores se combinan y encadenan")
    fits(page)
    page.screenshot(path=str(shots_dir / "rules-gizmos-phone-es.png"), full_page=True)

    page.goto("/tables/")
    expect(page.locator("[data-testid=open-tables] li")).to_have_count(1)
    expect(page.locator("[data-testid=watch-tables] li")).to_have_count(1)
    page.locator("select[name=game]").select_option("powerhouse")
    page.get_by_role("button", name="Filtrar").click()
    expect(page).to_have_url("/tables/?game=powerhouse&players=")
    expect(page.locator("main")).to_contain_text("Ninguna mesa abierta coincide")
    expect(page.locator("[data-testid=watch-tables] li")).to_have_count(1)
    fits(page)
    page.screenshot(path=str(shots_dir / "lobby-phone-es.png"), full_page=True)


def test_first_steps_new_table_form_and_time_zone(new_context, live_server_asgi, shots_dir):
    verified_user("bea")
    page = phone(new_context, timezone_id="Europe/Madrid")
    sign_in_es(page, "bea")
    page.goto("/")
    expect(page.locator("[data-testid=first-steps]")).to_contain_text("Empieza tu primera partida")
    page.screenshot(path=str(shots_dir / "first-steps-phone-es.png"), full_page=True)

    page.goto("/tables/new/?game=powerhouse")  # 2 to 5 players
    seats = page.locator("[id^=id_seat_]")
    expect(seats).to_have_count(4)
    visible = page.locator(".field:not([hidden]) [id^=id_seat_]")
    expect(visible).to_have_count(1)  # two players: one other seat
    page.locator("#id_players").select_option("4")
    expect(visible).to_have_count(3)
    expect(page.locator("#id_bank_initial")).to_be_hidden()
    page.locator("#id_clock").select_option("bank")
    expect(page.locator("#id_bank_initial")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("La plaza 1 es tuya")
    fits(page)
    page.screenshot(path=str(shots_dir / "new-table-phone-es.png"), full_page=True)

    page.goto("/profile/")
    expect(page.locator("#id_timezone")).to_have_value("Europe/Madrid")
    expect(page.locator("#timezone-guess")).to_contain_text("Madrid")
    page.get_by_role("button", name="Guardar").click()
    from accounts.models import User
    assert User.objects.get(username="bea").timezone == "Europe/Madrid"


def sign_in_es(page, login: str) -> None:
    from tests.browser.helpers import PASSWORD

    page.goto("/accounts/login/")
    form = page.locator("main form").filter(has=page.locator("input[name=password]"))
    form.locator("input[name=login]").fill(login)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.get_by_role("button", name="Cerrar sesión")).to_be_visible()


def test_gizmos_payment_in_one_click_on_a_spanish_phone(new_context, live_server_asgi, shots_dir):
    """Pick energy until a gizmo is affordable, choose how to pay, and pay in one click."""
    import re

    from tests.browser.helpers import seq_of

    verified_user("cai")
    page = phone(new_context)
    sign_in_es(page, "cai")
    page.goto("/tables/new/?game=gizmos")
    form = page.locator("main form.stacked")
    form.locator("select[name=players]").select_option("2")
    form.locator("select[name=seat_1]").select_option("fast")
    form.locator("button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.locator("#board [data-testid=howto]")).to_contain_text("Cómo se juega")

    def click(locator):
        before = seq_of(page)
        locator.click()
        expect(page.locator("#ws-status")).not_to_have_attribute("data-seq", str(before))

    for _ in range(40):
        expect(page.locator("#status")).to_contain_text(re.compile("Te toca decidir|Terminada"))
        other = page.locator("#board .gz-act-payother button")
        if other.count():
            break
        act = page.locator("#board .gz-prompt-act button, #board .gz-row button")
        click(act.first)
    else:
        pytest.fail("no gizmo became affordable")
    click(other.first)
    plans = page.locator("#board .gz-payplans .gz-act-pay button")
    expect(plans.first).to_be_visible()
    expect(plans.first).to_contain_text("Pagar")
    assert plans.first.bounding_box()["y"] + 40 < page.evaluate("document.documentElement.scrollHeight")
    page.locator("#board .gz-pay").screenshot(path=str(shots_dir / "gizmos-pay-phone-es.png"))
    fits(page)
    click(plans.first)
    expect(page.locator("#board .gz-pay")).to_have_count(0)
    expect(page.locator("#move-list")).to_contain_text("construyó")

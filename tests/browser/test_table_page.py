"""The table page in Chromium: resigning takes a confirmation (with and without
JavaScript), focus after a move and after a push, the polite summary of what just
happened, and the focusable log."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def page_for(new_context, live_url, user, **options):
    client = Client()
    client.force_login(user)
    context = new_context(**options)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_url}])
    return context.new_page()


def seat_users(table):
    return table.seats.get(position=0).user, table.seats.get(position=1).user


@pytest.mark.parametrize("javascript", [True, False])
def test_resign_needs_a_confirmation(new_context, running_table, live_url, javascript):
    from games.tables.models import Table

    table = running_table
    first, second = seat_users(table)
    page = page_for(new_context, live_url, first, java_script_enabled=javascript)
    page.goto(f"/tables/{table.pk}/")
    confirm = page.get_by_role("button", name="Yes, resign this game")
    # Apart from the moves, and folded: the confirming button is not there to hit by mistake.
    expect(page.locator("#play-area [data-testid=resign]")).to_have_count(0)
    expect(confirm).to_be_hidden()
    page.locator("[data-testid=resign] summary").click()
    expect(page.locator("[data-testid=resign]")).to_contain_text("cannot be undone")
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    confirm.click()
    expect(page.locator("[data-testid=results]")).to_contain_text(
        f"{second.name} wins: the other players resigned.")
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.seats.get(position=0).resigned


def test_the_confirmation_page_without_javascript(new_context, running_table, live_url):
    table = running_table
    first, _second = seat_users(table)
    page = page_for(new_context, live_url, first, java_script_enabled=False)
    page.goto(f"/tables/{table.pk}/resign")
    expect(page.locator("h1")).to_have_text("Resign?")
    page.get_by_role("link", name="No, back to the game").click()
    expect(page).to_have_url(f"{live_url}/tables/{table.pk}/")
    table.refresh_from_db()
    assert table.status == "running"
    page.goto(f"/tables/{table.pk}/resign")
    page.get_by_role("button", name="Yes, resign this game").click()
    expect(page.locator("[data-testid=results]")).to_be_visible()


def test_focus_and_the_live_summary_follow_the_game(new_context, running_table, live_url):
    table = running_table
    first, second = seat_users(table)
    ana = page_for(new_context, live_url, first)
    bo = page_for(new_context, live_url, second)
    for page in (ana, bo):
        page.goto(f"/tables/{table.pk}/")
        expect(page.locator('#ws-status[data-connected="1"]')).to_have_count(1)
    log = ana.locator("#move-list")
    expect(log).to_have_attribute("role", "log")
    expect(log).to_have_attribute("tabindex", "0")
    expect(log).to_have_attribute("aria-label", "Game log")

    # Ana moves: her button is gone, so focus goes to the status (nothing to decide now).
    ana.get_by_role("button", name="Keep your hand").click()
    expect(ana.locator("#status")).to_contain_text(f"Waiting for {second.name}")
    ana.wait_for_function("document.activeElement && document.activeElement.id === 'status'")
    expect(ana.locator("#live-summary")).to_have_text(f"{first.name} kept their hand.")
    # Bo sees it announced, politely, from the push.
    expect(bo.locator("#live-summary")).to_contain_text(f"{first.name} kept their hand.")
    expect(bo.locator("#live-summary")).to_have_attribute("aria-live", "polite")

    # Bo moves; on Ana's page the push replaced the focused status: focus goes to her
    # first control, and the summary says what Bo did and that it is her decision.
    bo.get_by_role("button", name="Keep your hand").click()
    expect(ana.locator("#status")).to_contain_text("Your decision")
    ana.wait_for_function(
        "document.activeElement && document.activeElement.closest('#play-area form.move-form')")
    expect(ana.locator("#live-summary")).to_contain_text(f"{second.name} kept their hand.")
    expect(ana.locator("#live-summary")).to_contain_text("Your decision.")

"""Table chat in Chromium against a real Daphne server and the Redis channel layer.

Two players chat live during a game and see each other's messages without a
reload (one on a phone, where the chat starts folded below the board); a
spectator's message is hidden from a player who hid the spectators' channel.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PHONE, sign_in, verified_user

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
LIVE = '#ws-status[data-connected="1"]'


def open_table(page: Page, table) -> None:
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator(LIVE)).to_have_count(1)
    page.evaluate("window.__sameDocument = true")


def assert_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"


def send(page: Page, text: str) -> None:
    page.locator("#chat-body").fill(text)
    page.locator("#chat-form button[type=submit]").click()
    expect(page.locator("#chat-body")).to_have_value("")


def test_players_chat_live_and_a_hidden_spectator_channel_stays_hidden(new_context, live_url,
                                                                     shots_dir):
    from games.tables import actions
    from games.tables.models import Table

    ana_user, bo_user, cy_user = (verified_user(n) for n in ("ana", "bo", "cy"))
    table = actions.check_create_table(creator=ana_user, game="high-card", players=2)
    actions.check_join_table(table_id=table.pk, user=bo_user)

    ana = new_context(viewport=DESKTOP).new_page()
    bo = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    cy = new_context(viewport=DESKTOP).new_page()
    for page, name in ((ana, "ana"), (bo, "bo"), (cy, "cy")):
        sign_in(page, login=name)
    bo_user.language = "es"  # bo reads the table in Spanish
    bo_user.save(update_fields=["language"])
    for page in (ana, bo, cy):
        open_table(page, table)

    # On the phone the chat starts folded below the board; one tap opens it.
    expect(bo.locator("#chat")).not_to_have_attribute("open", "")
    bo.locator("#chat > summary").click()
    expect(bo.locator("#chat-body")).to_be_visible()

    send(ana, "hello bo, good luck")
    expect(bo.locator("#chat-log-players")).to_contain_text("hello bo, good luck")
    expect(ana.locator("#chat-log-players .chat-msg")).to_have_count(1)  # answer + push: once
    send(bo, "thanks ana, you too")
    expect(ana.locator("#chat-log-players")).to_contain_text("thanks ana, you too")
    expect(cy.locator("#chat-log-players")).to_have_count(0)

    # A move in between: the table redraws, a half-written message survives.
    bo.locator("#chat-body").fill("half written")
    table.refresh_from_db()
    mover = ana if table.seats.get(position=table.to_move[0]).user == ana_user else bo
    if mover is bo:
        bo.locator("#chat > summary").scroll_into_view_if_needed()
    mover.locator("form.move-form button").first.click()
    expect(ana.locator("#ws-status")).to_have_attribute(
        "data-seq", str(Table.objects.get(pk=table.pk).seq))
    expect(bo.locator("#ws-status")).to_have_attribute(
        "data-seq", str(Table.objects.get(pk=table.pk).seq))
    expect(bo.locator("#chat-body")).to_have_value("half written")

    # A long unbroken word wraps: the phone page does not scroll sideways.
    send(ana, "W" * 300 + " <b>not bold</b> https://example.org/rules")
    expect(bo.locator("#chat-log-players")).to_contain_text("<b>not bold</b>")
    expect(bo.locator("#chat-log-players a[href='https://example.org/rules']")).to_have_count(1)
    wide = bo.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the chat widened the phone page by {wide}px"
    for page in (ana, bo):
        assert_not_reloaded(page)

    # bo hides the spectators' channel (a plain form), ana keeps it shown.
    bo.locator("#chat-body").fill("")
    bo.get_by_role("button", name="Ocultar el chat de los espectadores").click()
    expect(bo.locator(LIVE)).to_have_count(1)
    expect(bo.locator("#chat-log-spectators")).to_have_count(0)
    send(cy, "psst, play the ten")
    expect(ana.locator("#chat-log-spectators")).to_contain_text("psst, play the ten")
    send(ana, "did you see that?")
    expect(bo.locator("#chat-log-players")).to_contain_text("did you see that?")
    assert "psst" not in bo.content(), "a hidden spectator message reached bo"
    assert_not_reloaded(ana)

    # Private notes save as ana types (debounced), and only ana's page has them.
    from games.chat.models import SeatNote

    ana.locator("#notes-text").fill("she keeps the purple battery for the end")
    expect(ana.locator("#notes-status")).to_contain_text("Saved")
    assert SeatNote.objects.get(seat__user=ana_user).text.endswith("for the end")
    bo.reload()
    expect(bo.locator(LIVE)).to_have_count(1)
    expect(bo.locator("#chat")).to_contain_text("Chat de los jugadores")
    assert "purple battery" not in bo.content()
    assert_not_reloaded(ana)
    ana.screenshot(path=str(shots_dir / "chat-desktop.png"), full_page=True)
    bo.screenshot(path=str(shots_dir / "chat-phone.png"), full_page=True)

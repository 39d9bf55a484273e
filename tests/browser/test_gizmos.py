"""Gizmos in Chromium on a phone: open a table against a bot and play it to the final
scoring by clicking the board itself (energy spheres, card buttons, payment spheres)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PHONE, phone_player, seq_of

pytestmark = pytest.mark.browser

# The board's own controls first, best first; the move list under the board is the fallback.
BOARD_CHOICES = (
    "#board .gz-act-build button",
    "#board .gz-spend button",
    "#board .gz-act-convert button",
    "#board .gz-act-use button",
    "#board .gz-row button",
    "#board .gz-act-file button",
    "#board .gz-act-bottom button",
    "#board .gz-prompt-act button",
    "#board .gz-act-research button",
)


def next_button(page: Page):
    for selector in BOARD_CHOICES:
        buttons = page.locator(selector)
        if buttons.count():
            return buttons.first
    listed = page.locator("#play-area details.all-moves")
    if listed.count() and not listed.evaluate("d => d.open"):
        listed.locator("summary").click()
    return page.locator("#play-area form.move-form button").first


@pytest.mark.slow
def test_a_whole_gizmos_game_against_a_bot_on_a_phone(new_context, live_server_asgi, shots_dir):
    from games.tables.models import Table

    user, page = phone_player(new_context, "ana")

    # Open a table for two with the fast bot in the other seat.
    page.goto("/tables/new/?game=gizmos")
    form = page.locator("main form.stacked")
    form.locator("select[name=players]").select_option("2")
    form.locator("select[name=seat_1]").select_option("fast")
    form.get_by_role("button", name="Create table").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", page.url).group(1))
    expect(page.locator('#ws-status[data-connected="1"]')).to_have_count(1)
    board = page.locator("#board [data-testid=gz-board]")
    expect(board).to_be_visible()
    expect(page.locator("#board .gz-row li")).to_have_count(6)
    # The page fits the phone: only the board may scroll sideways, and it does not need to.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    clicks = 0
    while page.locator(".outcome").count() == 0:
        assert clicks < 400, "the game did not end"
        # Either it is our decision, or the bot's last move has just ended the game.
        expect(page.locator("#status")).to_contain_text(re.compile("Your decision|Finished"))
        if page.locator(".outcome").count():
            break
        before = seq_of(page)
        next_button(page).click()
        expect(page.locator("#ws-status")).not_to_have_attribute("data-seq", str(before))
        clicks += 1
        if clicks == 12:
            page.screenshot(path=str(shots_dir / "gizmos-phone-middle.png"), full_page=True)

    expect(page.locator(".outcome")).to_have_text(re.compile(r"won!"))
    expect(page.locator("#board [data-testid=results]")).to_contain_text("Results")
    expect(page.locator("#move-list")).to_contain_text("Game over")
    expect(page.locator("form.move-form button")).to_have_count(0)
    page.screenshot(path=str(shots_dir / "gizmos-phone-end.png"), full_page=True)
    table = Table.objects.get(pk=table_id)
    assert table.status == Table.Status.FINISHED
    assert table.seq == seq_of(page)

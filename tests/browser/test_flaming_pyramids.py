"""Flaming Pyramids in Chromium on a phone: open a 6-player table with five fast bots and
both variants through the new-table form, then play the whole game by clicking the board
itself (a hand tile and a highlighted spot in either order, the confirm button under the
rules' preview, and a landing cell when a tile falls), until the outcome shows.

Games of six fast bots are short (about 50 to 110 decisions, 7 to 18 of them ours) and
the bots run in the server process, so the game takes a few seconds of clicking. We play
like the fast bot, except that once we pick a placement that collapses, so that we
choose where the tile falls on the landing cells.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PHONE, phone_player, seq_of

pytestmark = pytest.mark.browser



def spot_key(r: int, x: int) -> str:
    return f"{r}-{'m' if x < 0 else ''}{abs(x)}"


def next_move(table, seat: int, *, want_fall: bool) -> dict:
    """The fast bot's move for our seat, or a collapsing placement when `want_fall`."""
    from games.engine import Rng
    from games.flaming_pyramids import bot
    from games.flaming_pyramids.rules import RULES, preview_view
    from games.tables.replay import current_state

    table.refresh_from_db()
    state = current_state(table)
    view = RULES.view(state, seat)
    legal = RULES.legal_moves(state, seat)
    if want_fall:
        for move in legal:
            if move["type"] == "place" and seat in preview_view(view, move)["choosers"]:
                return move
    return bot.choose(view, legal, level="fast", rng=Rng.from_seed(0))


def form_button(page: Page, move: dict):
    value = json.dumps(move, sort_keys=True)
    form = page.locator("#board form.move-form").filter(
        has=page.locator(f"input[name=move][value='{value}']"))
    return form.locator("button")


@pytest.mark.slow
def test_a_whole_six_player_flaming_pyramids_game_on_a_phone(new_context, live_server_asgi,
                                                             shots_dir):
    from games.tables.models import Table

    user, page = phone_player(new_context, "ana")

    # The new-table form: 2 to 6 players, any seat a bot, both variants.
    page.goto("/tables/new/?game=flaming-pyramids")
    form = page.locator("main form.stacked")
    expect(form.locator("select[name=players] option")).to_have_count(5)
    form.locator("select[name=players]").select_option("6")
    for i in range(1, 6):
        form.locator(f"select[name=seat_{i}]").select_option("fast")
    form.locator("input[name=option_curse]").check()
    form.locator("input[name=option_fire_die]").check()
    form.locator("button[type=submit]").click()
    expect(page.locator("#board [data-testid=fp-board]")).to_be_visible()
    table = Table.objects.get(created_by=user)
    assert table.options == {"curse": True, "fire_die": True} and table.players == 6
    me = table.seats.get(user=user).position
    expect(page.locator('#ws-status[data-connected="1"]')).to_have_count(1)
    expect(page.locator("#board [data-testid=fp-prompt]")).to_contain_text("The Curse")
    expect(page.locator("#board [data-testid=fp-prompt]")).to_contain_text("The Fire Die")
    expect(page.locator("#board [data-testid^=fp-seat-]")).to_have_count(6)

    decisions, fell, orders = 0, False, set()
    while page.locator(".outcome").count() == 0:
        assert decisions < 60, "the game did not end"
        expect(page.locator("#status")).to_contain_text(re.compile("Your decision|Finished"))
        if page.locator(".outcome").count():
            break
        # The page fits the phone: only the board may scroll sideways, and it does not need to.
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        move = next_move(table, me, want_fall=not fell)
        before = seq_of(page)
        if move["type"] == "fall":
            expect(page.locator("#board [data-testid=fp-prompt]")).to_contain_text(
                "choose where it falls")
            form_button(page, move).click()
            fell = True
        else:
            board = page.locator("#board")
            tile = board.locator(f"label[for='fp-pick-{move['tile']}']")
            spot = board.locator(f"label[for='fp-spot-{spot_key(move['r'], move['x'])}']")
            # Either order works: a tile then a spot, or a spot then a tile.
            if decisions % 2:
                spot.click()
                tile.click()
                orders.add("spot first")
            else:
                tile.click()
                spot.click()
                orders.add("tile first")
            value = json.dumps(move, sort_keys=True)
            confirm = page.locator("#board .fp-confirm").filter(
                has=page.locator(f"input[name=move][value='{value}']"))
            expect(confirm).to_be_visible()
            expect(confirm.locator("[data-testid=fp-preview]")).not_to_be_empty()
            expect(page.locator("#board .fp-confirm:visible")).to_have_count(1)
            form_button(page, move).click()
        expect(page.locator("#ws-status")).not_to_have_attribute("data-seq", str(before))
        decisions += 1
        if decisions == 3:
            page.screenshot(path=str(shots_dir / "flaming-pyramids-phone-middle.png"), full_page=True)

    assert orders == {"tile first", "spot first"}, orders
    assert fell, "no landing cell was clicked"
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    winner = table.outcome["winners"][0]
    name = "ana" if winner == me else f"Bot {winner + 1} (fast)"
    expect(page.locator(".outcome")).to_have_text(f"{name} won!")
    prompt = "You have no tiles left: you win!" if winner == me else "has no tiles left and wins!"
    expect(page.locator("#board [data-testid=fp-prompt]")).to_contain_text(prompt)
    expect(page.locator("#move-list")).to_contain_text("has no tiles left and wins!")
    expect(page.locator(f"#board [data-testid=fp-seat-{winner}]")).to_contain_text("0 tiles left")
    expect(page.locator("form.move-form button")).to_have_count(0)
    page.screenshot(path=str(shots_dir / "flaming-pyramids-phone-end.png"), full_page=True)
    assert table.seq == seq_of(page)

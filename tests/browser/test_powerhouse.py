"""Powerhouse in Chromium on a phone: a whole game against the fast bot, played by clicking
the board itself (the bag's tiles, a reactor's pyramid, the other player's network, the
pyramid to take back, the pyramids to discard in the meltdown), until the outcome shows.

Uniformly random Powerhouse games run to thousands of decisions, so the table gets a fixed
seed found offline: with both seats playing like the fast bot, seed 1030 ends in 31
decisions (17 of them ours), with reactors fired (takes and vapor), a battery, and a
meltdown that we set off ourselves and that leaves us with a clean powerhouse. The fast bot
is deterministic (it reads the bag's contents, not its order), so the game is the same on
every run. (The fast bot keeps its network small, so its games have no Major Dump; the
Major Dump's move labels are checked in tests/powerhouse/test_board.py.)

A second, shorter game shows an off-turn win: with seed 1215, we play the same way but draw
a die when the meltdown leaves the bot clean, and the bot wins during our turn (16
decisions).
"""

from __future__ import annotations

import json
import re
from unittest import mock

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PHONE, phone_player, seq_of

pytestmark = pytest.mark.browser

SEED = 1030
OFF_TURN_SEED = 1215


def sensible_move(table, seat: int, *, reckless: bool = False) -> dict:
    """The move the fast bot would make in our seat, from the table's current state.

    `reckless`: draw a die whenever the meltdown would leave another network clean.
    """
    from games.engine import Rng
    from games.powerhouse import bot
    from games.powerhouse.rules import RULES
    from games.tables.replay import current_state

    table.refresh_from_db()
    state = current_state(table)
    if reckless and state["phase"] == "draw" and state["bag_dice"]:
        k = state["centre"] + 1
        for other, net in enumerate(state["networks"]):
            rows = [net[z * 5:(z + 1) * 5] for z in range(3)]
            if other != seat and any(min(row) for row in rows) and sum(net) - 5 == k:
                return {"type": "draw", "kind": "die"}
    legal = RULES.legal_moves(state, seat)
    return bot.choose(RULES.view(state, seat), legal, level="fast", rng=Rng.from_seed(0))


def button_for(page: Page, move: dict, where: str):
    value = json.dumps(move, sort_keys=True)
    form = page.locator(f"{where} form.move-form").filter(
        has=page.locator(f"input[name=move][value='{value}']"))
    return form.locator("button")


def open_table(page: Page, user, seed: int):
    """A table for two against the fast bot, with a fixed seed; our page on it."""
    from games.tables import actions
    from games.tables.models import Table

    # Made here rather than through the form so that it gets the seed (drawn with the row).
    with mock.patch.object(Table._meta.get_field("seed"), "_get_default", lambda: seed):
        table = actions.check_create_table(creator=user, game="powerhouse", players=2,
                                           bots={1: "fast"})
    me = table.seats.get(user=user).position
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator('#ws-status[data-connected="1"]')).to_have_count(1)
    expect(page.locator("#board [data-testid=ph-board]")).to_be_visible()
    expect(page.locator("#board .ph-cell")).to_have_count(2 * 15)
    # The page fits the phone: nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    return table, me


def play_to_the_end(page: Page, table, me: int, *, reckless: bool = False, shots_dir=None):
    """Click our choices on the board until the outcome shows; the kinds of move made and
    the obligations the prompt spelled out on the way."""
    clicks, kinds, said = 0, set(), set()
    while page.locator(".outcome").count() == 0:
        assert clicks < 100, "the game did not end"
        expect(page.locator("#status")).to_contain_text(re.compile("Your decision|Finished"))
        if page.locator(".outcome").count():
            break
        prompt = page.locator("#board [data-testid=ph-prompt]").inner_text()
        if "You must fire your" in prompt:
            said.add("fire")
        if "Meltdown! Everyone discards" in prompt:
            said.add("meltdown")
        move = sensible_move(table, me, reckless=reckless)
        # Every choice is on the board itself; the list under it is only the fallback.
        button = button_for(page, move, "#board")
        expect(button.first).to_be_visible()
        before = seq_of(page)
        button.first.click()
        expect(page.locator("#ws-status")).not_to_have_attribute("data-seq", str(before))
        clicks += 1
        kinds.add(move["type"])
        if clicks == 6 and shots_dir is not None:
            page.screenshot(path=str(shots_dir / "powerhouse-phone-middle.png"), full_page=True)
    return kinds, said


def test_a_whole_powerhouse_game_against_the_fast_bot_on_a_phone(new_context, live_server_asgi,
                                                                   shots_dir):
    from games.tables.models import Table

    user, page = phone_player(new_context, "ana")

    # The lobby offers Powerhouse for 2 to 5, any other seat a bot of any level.
    page.goto("/tables/new/?game=powerhouse")
    form = page.locator("main form.stacked")
    expect(form.locator("select[name=players] option")).to_have_count(4)
    expect(form.locator("select[name=seat_1] option[value=fast]")).to_have_count(1)

    table, me = open_table(page, user, SEED)
    kinds, said = play_to_the_end(page, table, me, shots_dir=shots_dir)
    assert {"draw", "fire", "battery", "give", "take", "vapor", "discard"} <= kinds, kinds
    assert said == {"fire", "meltdown"}, said
    expect(page.locator(".outcome")).to_have_text("ana won!")
    expect(page.locator("#board [data-testid=ph-prompt]")).to_contain_text(
        "You have a clean powerhouse: you win!")
    expect(page.locator(f"#board [data-testid=ph-net-{me}]")).to_contain_text(
        "Winner: clean powerhouse")
    expect(page.locator("#move-list")).to_contain_text("Meltdown! Everyone discards")
    expect(page.locator("#move-list")).to_contain_text("has a clean powerhouse and wins!")
    expect(page.locator("form.move-form button")).to_have_count(0)
    page.screenshot(path=str(shots_dir / "powerhouse-phone-end.png"), full_page=True)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.outcome["winners"] == [me]
    assert table.seq == seq_of(page)


def test_an_off_turn_win_on_a_phone(new_context, live_server_asgi, shots_dir):

    user, page = phone_player(new_context, "bea")
    table, me = open_table(page, user, OFF_TURN_SEED)
    kinds, said = play_to_the_end(page, table, me, reckless=True)
    assert "discard" in kinds and "meltdown" in said
    expect(page.locator(".outcome")).to_have_text("Bot (fast) won!")
    expect(page.locator("#board [data-testid=ph-prompt]")).to_contain_text(
        "Bot (fast) has a clean powerhouse and wins. It happened during your turn.")
    expect(page.locator(f"#board [data-testid=ph-net-{1 - me}]")).to_contain_text(
        "Winner: clean powerhouse")
    expect(page.locator("#move-list")).to_contain_text(
        "Bot (fast) has a clean powerhouse and wins, during bea's turn!")
    expect(page.locator("form.move-form button")).to_have_count(0)
    page.screenshot(path=str(shots_dir / "powerhouse-phone-off-turn.png"), full_page=True)
    table.refresh_from_db()
    assert table.outcome["winners"] == [1 - me]

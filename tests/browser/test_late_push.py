"""A push that arrives late must not redraw a table page that already shows its state.

The socket pushes every event as it happens, also while the mover's htmx answer (their
move and, with bots answering in the same request, the bots' moves) is on its way; on a
slow link such a push reaches the page after that answer, when the player has already
picked a tile and a spot for the next move. Redrawing #board then would wipe the choice.

Here the page's socket goes through Playwright's WebSocket route, which holds the
messages both ways while the move is made: the table consumer (which has not yet heard
the page's hello after the answer) pushes the bot's move, the htmx answer shows it
first, the player picks a tile and a spot, and only then the held push and the page's
hello are let through. The choice survives; a redraw without a new event (data-rev, a
vacation mark) at the page's own seq still applies, and a newer push still redraws.
"""

from __future__ import annotations

import datetime
import json
import re
import time
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import phone_player, seq_of

pytestmark = pytest.mark.browser

# Counts the socket messages that reached the page, dropped or swapped (the count goes up
# before htmx decides; the swap, if any, happens in the same task).
COUNT_MESSAGES = """
document.addEventListener("htmx:wsBeforeMessage", function () {
  window.__wsMessages = (window.__wsMessages || 0) + 1;
});
"""


class HeldSocket:
    """The page's table socket, with a switch that holds its messages in both directions."""

    def __init__(self):
        self.holding = False
        self.to_page: list[str] = []
        self.to_server: list[str] = []
        self.route = None
        self.server = None

    def handle(self, ws) -> None:
        self.route, self.server = ws, ws.connect_to_server()
        ws.on_message(self._from_page)
        self.server.on_message(self._from_server)

    def _from_page(self, message) -> None:
        if self.holding:
            self.to_server.append(message)
        else:
            self.server.send(message)

    def _from_server(self, message) -> None:
        if self.holding:
            self.to_page.append(message)
        else:
            self.route.send(message)

    def release(self, page) -> None:
        """Deliver what the server sent, wait until the page has it, then the page's own."""
        start = page.evaluate("window.__wsMessages || 0")
        to_page, self.to_page = self.to_page, []
        for message in to_page:
            self.route.send(message)
        page.wait_for_function(f"(window.__wsMessages || 0) >= {start + len(to_page)}")
        self.holding = False
        to_server, self.to_server = self.to_server, []
        for message in to_server:
            self.server.send(message)


def off_the_loop(fn, *args, **kwargs):
    """Run `fn` in another thread: Playwright's event loop runs in this one, and the
    pushes (async_to_sync) may not run where a loop runs."""
    from django.db import connection

    def run():
        try:
            return fn(*args, **kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(run).result()


def place_moves(table, seat: int) -> list[dict]:
    """The seat's placements that make no tile fall (no landing cell to choose after)."""
    from games.flaming_pyramids.rules import RULES, preview_view
    from games.tables.replay import current_state

    table.refresh_from_db()
    state = current_state(table)
    view = RULES.view(state, seat)
    moves = [m for m in RULES.legal_moves(state, seat)
             if m["type"] == "place" and not preview_view(view, m)["choosers"]]
    assert moves, "no quiet placement"
    return moves


SEED = 1


def spot_key(move: dict) -> str:
    return f"{move['r']}-{'m' if move['x'] < 0 else ''}{abs(move['x'])}"


def pick(page, move: dict):
    """Click the move's hand tile and spot; the confirm form it shows."""
    board = page.locator("#board")
    board.locator(f"label[for='fp-pick-{move['tile']}']").click()
    board.locator(f"label[for='fp-spot-{spot_key(move)}']").click()
    value = json.dumps(move, sort_keys=True)
    confirm = board.locator(".fp-confirm").filter(
        has=page.locator(f"input[name=move][value='{value}']"))
    expect(confirm).to_be_visible()
    return confirm


def test_a_late_push_of_what_the_page_shows_keeps_the_players_choice(new_context,
                                                                     live_server_asgi):
    from django.utils import timezone

    from games.tables import actions, broadcast
    from games.tables.models import Table, Vacation

    ana, page = phone_player(new_context, "ana")
    socket = HeldSocket()
    page.route_web_socket(re.compile(r"/ws/tables/\d+/$"), socket.handle)
    page.add_init_script(COUNT_MESSAGES)
    # A fixed seed: the deal and the seats follow from it, and with it each of the
    # seat's decisions below has a placement that makes no tile fall (a random seed
    # sometimes had none: "no quiet placement").
    with mock.patch.object(Table._meta.get_field("seed"), "_get_default", lambda: SEED):
        table = off_the_loop(actions.check_create_table, creator=ana, game="flaming-pyramids",
                             players=2, bots={1: "fast"})
    table.refresh_from_db()
    me = table.seats.get(user=ana).position  # the seats are drawn at random
    assert table.status == Table.Status.RUNNING and table.to_move == [me]
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator('#ws-status[data-connected="1"]')).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("Your decision")

    # Our move, with the socket held: the bot answers in the request, the consumer pushes
    # the bot's move, the htmx answer shows it, and the page's hello waits in the route.
    socket.holding = True
    before = seq_of(page)
    move = place_moves(table, me)[0]
    confirm = pick(page, move)
    confirm.locator("button[type=submit]").click()
    expect(page.locator("#ws-status")).not_to_have_attribute("data-seq", str(before))
    table.refresh_from_db()
    assert table.seq > before + 1, "the bot did not answer in the request"
    expect(page.locator("#ws-status")).to_have_attribute("data-seq", str(table.seq))
    expect(page.locator("#status")).to_contain_text("Your decision")
    # (The route's handlers run while Playwright waits.)
    deadline = time.monotonic() + 10
    while not any('id="ws-status"' in m for m in socket.to_page):
        assert time.monotonic() < deadline, "the consumer pushed nothing"
        page.wait_for_timeout(50)
    pushed = [int(re.search(r'id="ws-status" data-seq="(\d+)"', m).group(1))
              for m in socket.to_page if 'id="ws-status"' in m]
    assert max(pushed) <= table.seq and "data-rev" not in "".join(socket.to_page)
    assert socket.to_server, "the page said no hello after the answer"

    # The next move picked on the board, then the late push arrives.
    nxt = place_moves(table, me)[-1]
    confirm = pick(page, nxt)
    tile_input = page.locator(f"#board #fp-pick-{nxt['tile']}")
    expect(tile_input).to_be_checked()
    socket.release(page)
    expect(confirm).to_be_visible()
    expect(tile_input).to_be_checked()
    assert seq_of(page) == table.seq

    # A redraw without a new event at the page's seq still applies: a vacation mark.
    now = timezone.now()
    Vacation.objects.create(user=ana, starts_at=now - datetime.timedelta(minutes=1),
                            ends_at=now + datetime.timedelta(days=1), days=1)
    off_the_loop(broadcast.table_changed, table.pk, table.seq, redraw=True)
    expect(page.locator("#seats li.you .vacation")).to_be_visible()
    assert seq_of(page) == table.seq
    expect(page.locator("#ws-status")).to_have_attribute("data-rev", re.compile(r"^[0-9a-f]+$"))

    # A newer event still redraws the page, a choice on it too: our move made elsewhere
    # (another tab, the API), and the bot's answer.
    shown = seq_of(page)
    pick(page, place_moves(table, me)[-1])
    move = place_moves(table, me)[0]
    off_the_loop(actions.check_submit_move, table_id=table.pk, seat=me, move=move,
                 based_on=table.seq, actor=ana)
    table.refresh_from_db()
    assert table.seq > shown
    expect(page.locator("#ws-status")).to_have_attribute("data-seq", str(table.seq))
    expect(page.locator("#board .fp-confirm:visible")).to_have_count(0)
    expect(page.locator("#ws-status")).not_to_have_attribute("data-rev", re.compile("."))


# Counts the move answers that have loaded, once htmx has handled them: a load listener
# added at send() runs after the onload handler htmx set before sending.
COUNT_MOVE_ANSWERS = """
(function () {
  var send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function () {
    var xhr = this;
    xhr.addEventListener("load", function () {
      if (/\\/move\\/?$/.test(xhr.responseURL)) {
        window.__moveAnswers = (window.__moveAnswers || 0) + 1;
      }
    });
    return send.apply(this, arguments);
  };
})();
"""


def test_a_late_move_answer_of_what_the_pushes_showed_keeps_the_players_choice(
        new_context, live_server_asgi):
    """The other order: the socket's push of the bot's answer reaches the page first,
    the player starts the next move on the board it drew, and only then the htmx answer
    of the move arrives (held here in Playwright's HTTP route). It shows nothing newer,
    so it is not swapped in and the choice survives."""
    from games.tables import actions
    from games.tables.models import Table

    ana, page = phone_player(new_context, "ana")
    page.add_init_script(COUNT_MOVE_ANSWERS)
    with mock.patch.object(Table._meta.get_field("seed"), "_get_default", lambda: SEED):
        table = off_the_loop(actions.check_create_table, creator=ana, game="flaming-pyramids",
                             players=2, bots={1: "fast"})
    table.refresh_from_db()
    me = table.seats.get(user=ana).position
    held = []

    def hold_the_answer(route):
        # The request goes to the site now (the move and the bot's answer are made, the
        # consumer pushes the bot's move); its answer waits here.
        held.append((route, route.fetch()))

    page.route(re.compile(rf"/tables/{table.pk}/move/?$"), hold_the_answer)
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator('#ws-status[data-connected="1"]')).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("Your decision")
    before = seq_of(page)
    confirm = pick(page, place_moves(table, me)[0])
    confirm.locator("button[type=submit]").click()
    deadline = time.monotonic() + 20
    while not held:
        assert time.monotonic() < deadline, "the move was not sent"
        page.wait_for_timeout(50)
    table.refresh_from_db()
    assert table.seq > before + 1, "the bot did not answer in the request"
    # The push of the bot's move has drawn the page at the table's seq.
    expect(page.locator("#ws-status")).to_have_attribute("data-seq", str(table.seq))
    expect(page.locator("#status")).to_contain_text("Your decision")

    nxt = place_moves(table, me)[-1]
    confirm = pick(page, nxt)
    tile_input = page.locator(f"#board #fp-pick-{nxt['tile']}")
    expect(tile_input).to_be_checked()
    assert page.evaluate("window.__moveAnswers || 0") == 0
    route, response = held.pop()
    route.fulfill(response=response)
    deadline = time.monotonic() + 20
    while page.evaluate("window.__moveAnswers || 0") < 1:  # (a polled wait_for_function: CSP)
        assert time.monotonic() < deadline, "the answer never reached the page"
        page.wait_for_timeout(50)
    expect(confirm).to_be_visible()
    expect(tile_input).to_be_checked()
    assert seq_of(page) == table.seq

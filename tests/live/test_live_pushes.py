"""Live pushes on the real channel layer (Redis in the test command): shared renders, deltas."""

from __future__ import annotations

import asyncio
import json
import re
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from config.asgi import application
from games.tables.consumers import CLOSE_TOO_MANY

from games.engine import get_rules
from games.tables import actions, live
from games.tables.models import Table
from games.tables.replay import current_state
from tests.tables.test_consumers import connect, current_seq, hello, make_move, page_state

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

BOARD = re.compile(r'<section id="board"[^>]*>(.*?)</section>', re.S)
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"')


def board_of(html: str) -> str:
    return BOARD.search(html).group(1)


def hand_html(table_id: int, seat: int) -> str:
    table = Table.objects.get(pk=table_id)
    hand = get_rules(table.game).view(current_state(table), seat)["hand"]
    return '<span class="hc-hand" data-testid="hand">' + "".join(
        f'<span class="hc-card">{c}</span>' for c in hand) + "</span>"


async def current_page(comm, table_id, user=None, page="test-page"):
    """Connect as a freshly loaded page would: say hello with what the page shows."""
    seq, newest, _html = await page_state(table_id, user)
    await hello(comm, seq, newest, page=page)
    return seq, newest


async def test_a_page_that_connects_with_a_current_seq_is_pushed_nothing(running_table):
    ana = await sync_to_async(lambda: running_table.seats.get(position=0).user)()
    player, ok = await connect(running_table.pk, user=ana)
    spectator, ok2 = await connect(running_table.pk)
    assert ok and ok2
    await current_page(player, running_table.pk, ana)
    await current_page(spectator, running_table.pk)
    assert await player.receive_nothing(timeout=1)
    assert await spectator.receive_nothing(timeout=0.2)
    await player.disconnect()
    await spectator.disconnect()


async def test_shared_renders_never_mix_seats(running_table, make_user):
    """Two seats (one with two tabs) and three spectators: three renders, each its own view."""
    table = running_table
    ana, bo = await sync_to_async(
        lambda: (table.seats.get(position=0).user, table.seats.get(position=1).user))()
    eve = await sync_to_async(make_user)("eve")  # signed in, no seat: a spectator
    conns = {
        "ana": (await connect(table.pk, user=ana))[0], "ana2": (await connect(table.pk, user=ana))[0],
        "bo": (await connect(table.pk, user=bo))[0], "eve": (await connect(table.pk, user=eve))[0],
        "anon1": (await connect(table.pk))[0], "anon2": (await connect(table.pk))[0],
    }
    users = {"ana": ana, "ana2": ana, "bo": bo, "eve": eve, "anon1": None, "anon2": None}
    for name, comm in conns.items():
        await current_page(comm, table.pk, users[name])
    cache = live.shared_renders()
    before = cache.renders

    await sync_to_async(make_move)(table.pk)
    pushed = {name: await comm.receive_from(timeout=10) for name, comm in conns.items()}
    assert cache.renders - before == 3  # seat 0, seat 1, the spectators

    seat_of = {"ana": 0, "ana2": 0, "bo": 1}
    hands = {s: await sync_to_async(hand_html)(table.pk, s) for s in (0, 1)}
    for name, html in pushed.items():
        seat = seat_of.get(name)
        for s, hand in hands.items():
            assert (hand in html) == (s == seat), (name, s)
        if seat is None:
            assert "hc-hand" not in html and "Your hand" not in html
        # Each push's board is exactly the board of that viewer's own page now.
        _seq, _newest, page = await page_state(table.pk, users[name])
        assert board_of(html) == board_of(page), name
    # Spectators share one render byte for byte.
    assert pushed["anon1"] == pushed["anon2"] == pushed["eve"]
    # The two tabs of one seat share the render, each with its own form tokens.
    assert CSRF.sub("", pushed["ana"]) == CSRF.sub("", pushed["ana2"])
    for comm in conns.values():
        await comm.disconnect()


async def test_a_late_page_gets_only_the_new_log_lines(running_table):
    table = running_table
    seq, newest, _html = await page_state(table.pk)
    for _ in range(2):
        await sync_to_async(make_move)(table.pk)
    comm, ok = await connect(table.pk)
    assert ok
    await hello(comm, seq, newest)
    html = await comm.receive_from(timeout=10)
    numbers = sorted(int(n) for n in re.findall(r'data-n="(\d+)"', html))
    _seq, latest, page = await page_state(table.pk)
    assert numbers == list(range(newest + 1, latest + 1))
    assert 'hx-swap-oob="afterbegin:#log-lines"' in html
    assert 'id="move-list"' not in html  # the log is not redrawn
    assert 'id="board"' in html and 'id="status"' in html
    assert await comm.receive_nothing(timeout=0.3)  # and only once
    await comm.disconnect()


def htmx_move(table_id: int, user, page_id: str) -> str:
    table = Table.objects.get(pk=table_id)
    seat = table.seats.get(user=user).position
    rules = get_rules(table.game)
    move = next(m for m in rules.legal_moves(current_state(table), seat) if m["type"] == "keep")
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    response = client.post(f"/tables/{table_id}/move",
                           {"move": json.dumps(move), "based_on": table.seq},
                           HTTP_HX_REQUEST="true", HTTP_X_PAGE_ID=page_id)
    assert response.status_code == 200
    return response.content.decode()


async def test_the_mover_is_not_sent_again_what_their_htmx_answer_shows(running_table):
    table = running_table
    mover_seat = table.to_move[0]
    mover, other = await sync_to_async(lambda: (
        table.seats.get(position=mover_seat).user,
        table.seats.exclude(position=mover_seat).get().user))()
    mine, ok1 = await connect(table.pk, user=mover)
    theirs, ok2 = await connect(table.pk, user=other)
    assert ok1 and ok2
    await current_page(mine, table.pk, mover, page="page-of-mover")
    await current_page(theirs, table.pk, other)
    assert await mine.receive_nothing(timeout=0.5)  # the hellos are handled: both current

    answer = await sync_to_async(htmx_move)(table.pk, mover, "page-of-mover")
    assert "kept their hand" in answer
    assert "kept their hand" in await theirs.receive_from(timeout=10)
    assert await mine.receive_nothing(timeout=1)
    await mine.disconnect()
    await theirs.disconnect()


WS_STATUS = re.compile(r'<span id="ws-status"[^>]*>')


async def test_a_redraw_without_a_new_event_is_marked_for_the_page_and_a_move_is_not(
        running_table):
    """The page drops a push whose seq is not newer than its own (static/js/site.js),
    unless the push is marked data-rev: a redraw at the same seq (a vacation mark)."""
    from games.tables import broadcast

    table = running_table
    ana = await sync_to_async(lambda: table.seats.get(position=0).user)()
    comm, ok = await connect(table.pk, user=ana)
    assert ok
    seq, _newest = await current_page(comm, table.pk, ana)
    assert await comm.receive_nothing(timeout=0.5)

    await sync_to_async(broadcast.table_changed)(table.pk, seq, redraw=True)
    status = WS_STATUS.search(await comm.receive_from(timeout=10)).group(0)
    assert f'data-seq="{seq}"' in status
    assert re.search(r'data-rev="[0-9a-f]{12}"', status), status

    await sync_to_async(make_move)(table.pk)
    status = WS_STATUS.search(await comm.receive_from(timeout=10)).group(0)
    assert f'data-seq="{await current_seq(table.pk)}"' in status
    assert int(re.search(r'data-seq="(\d+)"', status).group(1)) > seq
    assert "data-rev" not in status, status
    await comm.disconnect()


@pytest.mark.alone  # a bound on a delay: measured with the machine to itself
async def test_a_crowd_on_one_table_does_not_hold_up_another_tables_push(
        running_table, make_user, settings):
    """100 anonymous spectators on table A; table B's push still comes promptly."""
    settings.WS_ANON_PER_ADDRESS = settings.WS_ANON_PER_TABLE = 1000
    crowded = running_table
    cy, dee = await sync_to_async(lambda: (make_user("cy"), make_user("dee")))()

    def second_table():
        t = actions.check_create_table(creator=cy, game="high-card", players=2)
        actions.check_join_table(table_id=t.pk, user=dee)
        return Table.objects.get(pk=t.pk)

    quiet = await sync_to_async(second_table)()
    # They arrive together, as tabs reconnecting after a restart do.
    joined = await asyncio.gather(*(connect(crowded.pk) for _ in range(100)))
    assert all(ok for _comm, ok in joined)
    crowd = [comm for comm, _ok in joined]
    seq, newest, _html = await page_state(crowded.pk)
    for comm in crowd:
        await hello(comm, seq, newest)
    watcher, ok = await connect(quiet.pk)
    assert ok
    await current_page(watcher, quiet.pk)
    cache = live.shared_renders()
    before = cache.renders

    await sync_to_async(make_move)(crowded.pk)
    started = time.monotonic()
    await sync_to_async(make_move)(quiet.pk)
    html = await watcher.receive_from(timeout=10)
    delay = time.monotonic() - started
    assert "kept their hand" in html
    assert delay < 3.0, f"table B's push took {delay:.2f} s behind a crowd on table A"
    results = await asyncio.gather(*(comm.receive_from(timeout=20) for comm in crowd))
    assert all("kept their hand" in r for r in results)
    assert cache.renders - before == 2  # the crowd cost one render; table B one
    # All at once, as when a crowd leaves or a proxy drops its sockets: more than redis-py's
    # default pool of 100 connections at a time (config/settings.py). (One after another
    # was most of this test's time: each close waits about 0.9 s on its layer receive.)
    await asyncio.gather(*(comm.disconnect(timeout=10) for comm in crowd + [watcher]))


async def test_anonymous_sockets_are_limited_with_a_clear_close_code(running_table, settings):
    settings.WS_ANON_PER_ADDRESS = 2
    first, ok1 = await connect(running_table.pk)
    second, ok2 = await connect(running_table.pk)
    third = WebsocketCommunicator(application, f"/ws/tables/{running_table.pk}/",
                                  headers=[(b"host", b"localhost"), (b"origin", b"http://localhost")])
    ok3, code = await third.connect(timeout=10)
    assert ok1 and ok2 and not ok3
    assert code == CLOSE_TOO_MANY == 4429
    await third.disconnect()
    # A signed-in viewer is not counted as anonymous.
    ana = await sync_to_async(lambda: running_table.seats.get(position=0).user)()
    player, ok = await connect(running_table.pk, user=ana)
    assert ok
    # A closed anonymous socket frees its place.
    await first.disconnect()
    again, ok4 = await connect(running_table.pk)
    assert ok4
    for comm in (second, player, again):
        await comm.disconnect()


# The test communicator's scope has no client: the consumer counts such sockets as "?".
ANONYMOUS_ADDRESS = "?"


async def anonymous_socket(table_id):
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/",
                                 headers=[(b"host", b"localhost"), (b"origin", b"http://localhost")])
    return comm, *(await comm.connect(timeout=10))


async def test_a_socket_that_fails_to_connect_gives_its_anonymous_place_back(
        running_table, make_user, settings, monkeypatch):
    """The database or Redis fails while an anonymous page connects, or the table is not
    theirs to see: the socket is closed and its place is given back at once. (A failed
    check kept the place until the process restarted: a database blip with pages
    reconnecting every few seconds locked an address, then the table's spectators, out.)"""
    from django.db.utils import OperationalError

    from games.tables import consumers

    settings.WS_ANON_PER_ADDRESS = 2
    address = ANONYMOUS_ADDRESS

    def database_down(*args, **kwargs):
        raise OperationalError("the database is down")

    monkeypatch.setattr(consumers, "_may_see", database_down)
    for _ in range(3):
        comm, ok, code = await anonymous_socket(running_table.pk)
        assert not ok and code == consumers.CLOSE_TRY_AGAIN == 1013  # the page retries
    assert address not in live.anonymous_limits.by_address
    monkeypatch.undo()

    async def redis_down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    layer = consumers.TableConsumer.channel_layer_alias
    from channels.layers import get_channel_layer

    monkeypatch.setattr(get_channel_layer(layer), "group_add", redis_down)
    for _ in range(3):
        comm, ok, code = await anonymous_socket(running_table.pk)
        assert not ok and code == 1013
    assert address not in live.anonymous_limits.by_address
    monkeypatch.undo()

    ana = await sync_to_async(make_user)("ana2")
    private = await sync_to_async(actions.check_create_table)(
        creator=ana, game="high-card", players=2, is_private=True)
    for _ in range(3):  # not theirs to see
        comm, ok, code = await anonymous_socket(private.pk)
        assert not ok and code == consumers.CLOSE_FORBIDDEN
    assert address not in live.anonymous_limits.by_address
    comm, ok, _code = await anonymous_socket(running_table.pk)  # and all is well again
    assert ok
    await comm.disconnect()


def membership_tasks() -> list:
    return [t for t in asyncio.all_tasks() if not t.done()
            and getattr(t.get_coro(), "__qualname__", "") == "keep_membership"]


async def test_a_message_that_fails_leaves_the_socket_open(running_table, monkeypatch):
    """The database fails while the page says hello: the socket stays open and the next
    hello, with the database back, is answered."""
    from django.db.utils import OperationalError

    from games.tables import consumers

    comm, ok, _code = await anonymous_socket(running_table.pk)
    assert ok
    real = consumers._current_seq

    def database_down(*args, **kwargs):
        raise OperationalError("the database is down")

    monkeypatch.setattr(consumers, "_current_seq", database_down)
    await hello(comm, None)
    assert await comm.receive_nothing(timeout=1)
    monkeypatch.setattr(consumers, "_current_seq", real)
    await hello(comm, None)
    assert 'data-seq="' in await comm.receive_from(timeout=10)
    await comm.disconnect()


async def test_a_socket_that_crashes_leaves_nothing_behind(running_table, monkeypatch):
    """A bug that ends a consumer with an exception: Channels never calls its disconnect,
    yet its group-renewal task stops, its anonymous place is given back and it leaves the
    table's group."""
    from channels.layers import get_channel_layer

    from games.tables import consumers

    before = len(membership_tasks())
    comm, ok, _code = await anonymous_socket(running_table.pk)
    assert ok
    assert len(membership_tasks()) == before + 1
    assert live.anonymous_limits.by_address.get(ANONYMOUS_ADDRESS) == 1
    group = f"table-{running_table.pk}"
    assert len(await group_members(get_channel_layer(), group)) == 1

    async def bug(self, event):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr(consumers.TableConsumer, "table_changed", bug)
    await sync_to_async(make_move)(running_table.pk)
    with pytest.raises(RuntimeError, match="a bug in a handler"):
        await asyncio.wait_for(comm.future, timeout=10)  # the consumer ends (not a timeout)
    await asyncio.sleep(0)  # the cancelled renewal task finishes
    assert len(membership_tasks()) == before
    assert ANONYMOUS_ADDRESS not in live.anonymous_limits.by_address
    assert await group_members(get_channel_layer(), group) == []


async def group_members(layer, group: str) -> list:
    """The channels in `group`, on Redis or the in-memory layer (no services)."""
    if hasattr(layer, "groups"):  # InMemoryChannelLayer
        return list(layer.groups.get(group, {}))
    return await layer.connection(layer.consistent_hash(group)).zrange(
        layer._group_key(group), 0, -1)

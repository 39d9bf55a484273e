"""The player's own socket (issue 9): on every page, the live "your turn" count, the
dashboard lists and the notification, on the real channel layer."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.tables.models import Seat
from tests.tables.test_consumers import HOST, ORIGIN, session_cookie
from tests.tables.test_notify import play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def player_socket(user=None):
    headers = [HOST, ORIGIN]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(session_cookie)(user)))
    comm = WebsocketCommunicator(application, "/ws/me/", headers=headers)
    connected, _ = await comm.connect(timeout=10)
    return comm, connected


async def pushed_to(comm, timeout: float = 10) -> dict:
    """The next push to a player socket. With none in time, the failure says where the
    message stopped: still queued in Redis (the receiver is stuck), buffered in the layer
    (the consumer did not take it), or gone with the render pool busy (the push is slow)
    or idle (it failed: see the captured log). A push here timed out in two full runs of
    the suite: the other xdist worker's cache.clear() had emptied the Redis database,
    groups and all ("groups: {}" in this report; config/cache.py now clears only the
    cache's keys)."""
    if await comm.receive_nothing(timeout=timeout, interval=0.05):
        # Looked at while the socket is still open (receive_from would close it first).
        raise AssertionError(f"no push within {timeout} s: {await _layer_state()}")
    return json.loads(await comm.receive_from())


async def _layer_state() -> dict:
    import time

    from channels.layers import get_channel_layer

    from games.tables import live

    layer = get_channel_layer()
    state: dict = {"layer": type(layer).__name__,
                   "render_queue": live.executor()._work_queue.qsize()}
    if hasattr(layer, "client_prefix"):  # channels-redis
        conn = layer.connection(0)
        groups = {}
        async for key in conn.scan_iter(match=f"{layer.prefix}:group:player-*"):
            members = await conn.zrange(key, 0, -1, withscores=True)
            groups[key.decode()] = [(m.decode()[-8:], round(time.time() - score, 1))
                                    for m, score in members]
        own = f"{layer.prefix}specific.{layer.client_prefix}!"
        state.update(groups=groups, own_channel=own[-10:], queued=await conn.zcard(own),
                     backup=await conn.zcard(layer._backup_channel_name(own)),
                     receivers=layer.receive_count,
                     receive_lock=layer.receive_lock and layer.receive_lock.locked(),
                     buffered={k[-8:]: q.qsize() for k, q in layer.receive_buffer.items()})
    return state


async def test_anonymous_pages_get_no_player_socket():
    comm, connected = await player_socket()
    assert not connected


async def test_a_player_socket_that_cannot_join_its_group_is_told_to_try_again(
        running_table, monkeypatch):
    from channels.layers import get_channel_layer

    waiter = await sync_to_async(lambda: running_table.seats.get(position=1).user)()

    async def redis_down(*args, **kwargs):
        raise ConnectionError("Redis is down")

    monkeypatch.setattr(get_channel_layer(), "group_add", redis_down)
    comm = WebsocketCommunicator(application, "/ws/me/", headers=[
        HOST, ORIGIN, (b"cookie", await sync_to_async(session_cookie)(waiter))])
    connected, code = await comm.connect(timeout=10)
    assert not connected and code == 1013  # player-live.js reconnects on all but 4403
    monkeypatch.undo()
    comm, connected = await player_socket(waiter)
    assert connected
    assert (await pushed_to(comm))["count"] == 0
    await comm.disconnect()


async def test_a_table_that_becomes_my_turn_updates_every_page_and_notifies(running_table):
    table = running_table
    waiter = await sync_to_async(lambda: table.seats.get(position=1).user)()
    mover = await sync_to_async(lambda: table.seats.get(position=0).user)()
    comm, connected = await player_socket(waiter)
    assert connected
    first = await pushed_to(comm)
    assert first["count"] == 0 and first["notify"] is None
    assert 'data-count="0"' in first["parts"]["turn-count"]
    await sync_to_async(play)(table.pk, 0, prefer="draw")  # now the table waits on `waiter`
    pushed = await pushed_to(comm)
    assert pushed["count"] == 1 and 'data-count="1"' in pushed["parts"]["turn-count"]
    assert f"/tables/{table.pk}/" in pushed["parts"]["home-turns"]
    notice = pushed["notify"]
    assert notice["path"] == f"/tables/{table.pk}/" and str(table.pk) in notice["title"]
    assert f"{mover.name} drew a card." in notice["body"]  # from the waiter's own view
    assert "You drew" not in notice["body"]
    # The player socket is no sign of the player at any table: the mail still goes out.
    seat = await sync_to_async(Seat.objects.get)(table=table, user=waiter)
    assert seat.visited_at is None or seat.visited_at < seat.owes_since
    await comm.disconnect()


async def test_the_movers_own_pages_update_their_count_without_a_notice(running_table):
    table = running_table
    mover = await sync_to_async(lambda: table.seats.get(position=0).user)()
    comm, connected = await player_socket(mover)
    assert connected
    assert (await pushed_to(comm))["count"] == 1
    await sync_to_async(play)(table.pk, 0, prefer="draw")
    pushed = await pushed_to(comm)
    assert pushed["count"] == 0 and pushed["notify"] is None
    await comm.disconnect()


def page_socket_path(user) -> str:
    """The player socket's address as a page of `user` gives it (with what the page shows)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    html = client.get("/").content.decode()
    return re.search(r'data-player-socket="([^"]+)"', html).group(1)


async def test_a_page_that_connects_with_the_turns_it_shows_is_pushed_nothing(running_table):
    table = running_table
    mover = await sync_to_async(lambda: table.seats.get(position=0).user)()
    path = await sync_to_async(page_socket_path)(mover)
    assert path.startswith("/ws/me/?seen=")
    comm = WebsocketCommunicator(application, path, headers=[
        HOST, ORIGIN, (b"cookie", await sync_to_async(session_cookie)(mover))])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    assert await comm.receive_nothing(timeout=1.5)  # no redraw right after the page loads
    await sync_to_async(play)(table.pk, 0, prefer="draw")  # a real change is still pushed
    pushed = await pushed_to(comm)
    assert pushed["count"] == 0 and pushed["seen"] != path.split("=")[1]
    await comm.disconnect()


async def test_a_page_that_shows_older_turns_is_sent_the_current_ones_on_connect(running_table):
    table = running_table
    waiter = await sync_to_async(lambda: table.seats.get(position=1).user)()
    path = await sync_to_async(page_socket_path)(waiter)  # shows no table waiting on them
    await sync_to_async(play)(table.pk, 0, prefer="draw")  # now one does
    comm = WebsocketCommunicator(application, path, headers=[
        HOST, ORIGIN, (b"cookie", await sync_to_async(session_cookie)(waiter))])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    pushed = await pushed_to(comm)
    assert pushed["count"] == 1 and f"/tables/{table.pk}/" in pushed["parts"]["home-turns"]
    await comm.disconnect()


async def test_open_pages_stay_in_their_groups_past_the_layers_group_expiry(running_table,
                                                                              settings):
    """A dashboard or table page stays open for days; the layer drops group members older
    than its group_expiry (an hour in production, so that a crashed process's channels
    leave soon). Both sockets re-join in time, and a move after the expiry still reaches
    them. (The player socket did not re-join: an hour after loading, a page stopped
    counting turns and showing notifications.)"""
    from copy import deepcopy

    from tests.tables.test_consumers import connect, hello, page_state

    layers = deepcopy(settings.CHANNEL_LAYERS)  # Redis, or in memory with no services
    layers["default"].setdefault("CONFIG", {})["group_expiry"] = 4
    settings.CHANNEL_LAYERS = layers  # channels builds a new layer with this expiry
    table = running_table
    waiter = await sync_to_async(lambda: table.seats.get(position=1).user)()
    player, connected = await player_socket(waiter)
    assert connected
    assert (await pushed_to(player))["count"] == 0
    page, connected = await connect(table.pk, user=waiter)
    assert connected
    seq, newest, _html = await page_state(table.pk, waiter)
    await hello(page, seq, newest)
    assert await page.receive_nothing(timeout=1)
    await asyncio.sleep(5.5)  # past the expiry: a member that did not re-join is dropped
    await sync_to_async(play)(table.pk, 0, prefer="draw")
    assert (await pushed_to(player))["count"] == 1
    assert "data-seq" in await page.receive_from(timeout=10)
    await player.disconnect()
    await page.disconnect()


async def test_a_pushed_deadline_reads_as_on_the_page_in_the_players_time_zone(make_user):
    """The dashboard says "decide before <date and time>" at the player's time: the
    pushed list must say the same time as the page did, not the server's."""
    from django.test import Client

    from games.tables import actions

    def a_clock_waiting_on_ana():
        ana = make_user("ana", timezone="Asia/Tokyo")
        table = actions.check_create_table(creator=ana, game="high-card", players=2,
                                           bots={1: "random"},
                                           time_control={"kind": "move", "days": 2})
        table.refresh_from_db()
        assert table.seats.get(user=ana).position in table.to_move
        page = Client()
        page.force_login(ana)
        return ana, page.get("/").content.decode()

    ana, page = await sync_to_async(a_clock_waiting_on_ana)()
    on_page = re.search(r'<time datetime="[^"]+" class="deadline">[^<]+</time>', page).group(0)
    comm, connected = await player_socket(ana)
    assert connected
    pushed = (await pushed_to(comm))["parts"]["home-turns"]
    assert on_page in pushed, (on_page, pushed)
    await comm.disconnect()

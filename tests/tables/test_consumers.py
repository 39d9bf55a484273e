"""The table socket on the real channel layer (Redis in the test command)."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from games.engine import get_rules
from games.tables import actions
from games.tables.replay import current_state

ORIGIN = (b"origin", b"http://localhost")
HOST = (b"host", b"localhost")


def session_cookie(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(table_id, *, user=None, origin=ORIGIN, headers=()):
    headers = [HOST, *headers]
    if origin:
        headers.append(origin)
    if user is not None:
        headers.append((b"cookie", await sync_to_async(session_cookie)(user)))
    comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
    connected, _ = await comm.connect(timeout=10)
    return comm, connected


async def hello(comm, seq, log=0, page="test-page"):
    """What the page's script says on open: the seq and newest log entry it shows."""
    await comm.send_to(text_data=json.dumps({"type": "hello", "seq": seq, "log": log,
                                             "page": page}))


def _page_state(table_id, user=None):
    client = Client(HTTP_HOST="localhost")
    if user is not None:
        client.force_login(user)
    html = client.get(f"/tables/{table_id}/").content.decode()
    seq = int(re.search(r'data-seq="(\d+)"', html).group(1))
    return seq, max([int(n) for n in re.findall(r'data-n="(\d+)"', html)] or [0]), html


async def page_state(table_id, user=None):
    """What a freshly loaded page shows: (seq, newest log entry, html)."""
    return await sync_to_async(_page_state)(table_id, user)


async def current_seq(table_id):
    from games.tables.models import Table

    return await sync_to_async(lambda: Table.objects.get(pk=table_id).seq)()


def make_move(table_id):
    from games.tables.models import Table

    table = Table.objects.get(pk=table_id)
    state = current_state(table)
    rules = get_rules(table.game)
    seat = sorted(rules.to_move(state))[0]
    move = next(m for m in rules.legal_moves(state, seat) if m["type"] == "keep")
    actions.check_submit_move(table_id=table_id, seat=seat, move=move, based_on=table.seq,
                              actor=table.seats.get(position=seat).user)
    return seat


def test_the_test_command_uses_redis():
    import os
    if os.environ.get("REDIS_URL"):
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "channels_redis.core.RedisChannelLayer"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_player_and_spectator_each_get_their_own_update(running_table):
    table = running_table
    ana = await sync_to_async(lambda: table.seats.get(position=0).user)()
    player, ok1 = await connect(table.pk, user=ana)
    spectator, ok2 = await connect(table.pk)
    assert ok1 and ok2
    # A current page is pushed nothing until something changes.
    seq, newest, _html = await page_state(table.pk, ana)
    await hello(player, seq, newest)
    seq, newest, _html = await page_state(table.pk)
    await hello(spectator, seq, newest)
    assert await player.receive_nothing(timeout=0.5)
    assert await spectator.receive_nothing(timeout=0.1)

    await sync_to_async(make_move)(table.pk)

    pushed_player = await player.receive_from(timeout=10)
    pushed_spectator = await spectator.receive_from(timeout=10)
    for html in (pushed_player, pushed_spectator):
        assert 'hx-swap-oob="true"' in html and 'data-connected="1"' in html
        assert "kept their hand" in html
    assert "Your hand" in pushed_player and "Your hand" not in pushed_spectator
    hand = await sync_to_async(
        lambda: get_rules("high-card").view(current_state(type(table).objects.get(pk=table.pk)), 0)["hand"])()
    hand_html = "".join(f'<span class="hc-card">{c}</span>' for c in hand)
    assert hand_html in pushed_player
    assert "hc-hand" not in pushed_spectator
    await player.disconnect()
    await spectator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_private_table_refuses_anonymous_and_strangers(make_user):
    ana, eve = await sync_to_async(lambda: (make_user("ana"), make_user("eve")))()
    table = await sync_to_async(actions.check_create_table)(
        creator=ana, game="high-card", players=2, is_private=True)
    comm, connected = await connect(table.pk)
    assert not connected
    await comm.disconnect()
    comm, connected = await connect(table.pk, user=eve)
    assert not connected
    await comm.disconnect()
    comm, connected = await connect(table.pk, user=ana)
    assert connected
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_foreign_origin_is_refused(running_table):
    comm, connected = await connect(running_table.pk, origin=(b"origin", b"http://evil.example"))
    assert not connected
    await comm.disconnect()  # let the denying consumer finish instead of leaving it running
    comm, connected = await connect(running_table.pk, origin=None)
    assert not connected
    await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_reconnecting_socket_catches_up(running_table):
    table = running_table
    _seq, newest, _html = await page_state(table.pk)
    await sync_to_async(make_move)(table.pk)
    comm, connected = await connect(table.pk)
    assert connected
    await hello(comm, table.seq, newest)
    html = await comm.receive_from(timeout=10)
    new_seq = await current_seq(table.pk)
    assert f'data-seq="{new_seq}"' in html and "kept their hand" in html
    # Only the new log lines, added at the top of the page's log; no redraw of it.
    assert 'hx-swap-oob="afterbegin:#log-lines"' in html and 'id="move-list"' not in html
    numbers = [int(n) for n in re.findall(r'data-n="(\d+)"', html)]
    assert numbers and min(numbers) == newest + 1
    await comm.disconnect()
    await asyncio.sleep(0)


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_pushes_follow_the_viewers_language(running_table):
    comm = WebsocketCommunicator(application, f"/ws/tables/{running_table.pk}/",
                                 headers=[HOST, ORIGIN, (b"accept-language", b"es-ES,es;q=0.9")])
    connected, _ = await comm.connect(timeout=10)
    assert connected
    from games.tables.consumers import scope_language
    assert scope_language({"headers": [(b"accept-language", b"es-ES,es;q=0.9")]}) == "es"
    assert scope_language({"headers": [(b"accept-language", b"de")]}) == "en"
    await hello(comm, None)  # a page that does not say what it shows gets it all
    assert "Registro" in await comm.receive_from(timeout=10)
    await comm.disconnect()

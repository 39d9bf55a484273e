"""Chat pushed over the table socket on the real channel layer (Redis in the test command).

Two players and a spectator: each connection gets exactly the messages of the
channels its viewer may read, rendered for that viewer (language, time zone),
as its own `chat.message` push, never inside the table's redraw.
"""

from __future__ import annotations

from datetime import datetime, timezone as dt_timezone

import pytest
import time_machine
from asgiref.sync import sync_to_async

from tests.tables.test_consumers import connect, hello

from .helpers import post_chat, texts

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def joined(table, user=None):
    """A connected socket, with the table consumer's first push read."""
    comm, ok = await connect(table.pk, user=user)
    assert ok
    await hello(comm, None)  # a page that does not say its seq is sent everything
    first = await comm.receive_from(timeout=10)
    assert 'id="ws-status"' in first
    return comm, first


async def post(user, table, body):
    response = await sync_to_async(post_chat)(user, table, body)
    assert response.status_code == 303


async def test_two_players_and_a_spectator_each_get_what_they_may_read(trio):
    table, ana, bo, cy = trio
    (p_ana, _), (p_bo, _), (p_cy, _) = [await joined(table, u) for u in (ana, bo, cy)]

    # In the past: the Redis layer drops group members older than a day "in the future".
    with time_machine.travel(datetime(2026, 6, 1, 12, 0, tzinfo=dt_timezone.utc), tick=True):
        await post(ana, table, "hello bo <b>there</b>")
    to_ana = await p_ana.receive_from(timeout=10)
    to_bo = await p_bo.receive_from(timeout=10)
    assert texts(to_ana) == texts(to_bo) == ["hello bo &lt;b&gt;there&lt;/b&gt;"]
    for html in (to_ana, to_bo):
        assert 'hx-swap-oob="beforeend:#chat-log-players"' in html
        assert 'id="board"' not in html, "chat must be its own push, not a table redraw"
    # Rendered for each reader: ana in Mexico City (06:00), bo in Tokyo and Spanish (21:00).
    assert "06:00" in to_ana and "seat " in to_ana
    assert "21:00" in to_bo and "plaza " in to_bo
    assert await p_cy.receive_nothing(timeout=1), "a spectator read the players' chat"

    await post(cy, table, "go for the seven")
    for comm in (p_ana, p_bo, p_cy):
        html = await comm.receive_from(timeout=10)
        assert 'hx-swap-oob="beforeend:#chat-log-spectators"' in html
        assert texts(html) == ["go for the seven"]

    # bo hides the spectators' channel: their next message reaches ana and cy only.
    response = await sync_to_async(
        lambda: __import__("tests.pages", fromlist=["client_for"]).client_for(bo).post(
            f"/tables/{table.pk}/chat/spectators", {"show": "0"}))()
    assert response.status_code in (302, 303)
    await post(cy, table, "really, the seven")
    assert texts(await p_ana.receive_from(timeout=10)) == ["really, the seven"]
    assert texts(await p_cy.receive_from(timeout=10)) == ["really, the seven"]
    assert await p_bo.receive_nothing(timeout=1), "a hidden spectators' channel reached bo"

    # Muting: ana mutes bo everywhere; bo's messages stop reaching ana's socket.
    from games.chat.models import ChatMute

    await sync_to_async(ChatMute.objects.create)(user=ana, muted=bo)
    await post(bo, table, "can you hear me")
    assert texts(await p_bo.receive_from(timeout=10)) == ["can you hear me"]
    assert await p_ana.receive_nothing(timeout=1), "a muted user's message was pushed"
    for comm in (p_ana, p_bo, p_cy):
        await comm.disconnect()


async def test_a_page_whose_socket_opens_fetches_the_logs_it_may_read(trio):
    table, ana, bo, cy = trio
    await post(bo, table, "while you were away")
    await post(cy, table, "from the rail")
    from tests.pages import client_for

    def logs(user):
        response = client_for(user).get(f"/tables/{table.pk}/chat/logs")
        assert response.status_code == 200
        return response.content.decode()

    html = await sync_to_async(logs)(ana)
    assert '<ol id="chat-log-players"' in html and 'hx-swap-oob="true"' in html
    assert texts(html) == ["while you were away", "from the rail"]
    html = await sync_to_async(logs)(cy)
    assert texts(html) == ["from the rail"] and "chat-log-players" not in html

"""Invite links that rotate and expire, kept out of addresses; a strict socket origin
check; coalesced heartbeats."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games.tables import actions
from tests.pages import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_table(make_user):
    ana = make_user("ana")
    return actions.check_create_table(creator=ana, game="high-card", players=3, is_private=True)


def visit_with_link(client, table, token):
    return client.get(f"/tables/{table.pk}/?invite={token}")


def test_the_link_stores_its_token_and_redirects_to_an_address_without_it(private_table, make_user):
    table = private_table
    guest = client_for(make_user("guest"))
    response = visit_with_link(guest, table, table.invite_token)
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    page = guest.get(response["Location"])
    assert page.status_code == 200 and table.invite_token not in page.content.decode()
    assert client_for(make_user("other")).get(f"/tables/{table.pk}/").status_code == 404


def test_the_creator_can_rotate_the_link_and_the_old_one_stops_working(private_table, make_user):
    table = private_table
    old = table.invite_token
    creator = client_for(table.created_by)
    assert "Make a new link" in creator.get(f"/tables/{table.pk}/").content.decode()
    response = creator.post(f"/tables/{table.pk}/invite-link")
    assert "a new invitation link" in creator.get(response["Location"]).content.decode()
    table.refresh_from_db()
    assert table.invite_token != old
    late = client_for(make_user("late"))
    assert visit_with_link(late, table, old).status_code == 404
    assert visit_with_link(late, table, table.invite_token).status_code == 302
    assert late.get(f"/tables/{table.pk}/").status_code == 200
    # Only the creator rotates.
    actions.check_join_table(table_id=table.pk, user=make_user("bo"), token=table.invite_token)
    bo = client_for(table.seats.get(user__username="bo").user)
    bo.post(f"/tables/{table.pk}/invite-link")
    token = table.invite_token
    table.refresh_from_db()
    assert table.invite_token == token


def test_the_link_stops_working_once_the_table_has_started(private_table, make_user):
    table = private_table
    watcher = client_for(make_user("watcher"))
    visit_with_link(watcher, table, table.invite_token)
    assert watcher.get(f"/tables/{table.pk}/").status_code == 200
    for name in ("bo", "cy"):
        actions.check_join_table(table_id=table.pk, user=make_user(name), token=table.invite_token)
    table.refresh_from_db()
    assert table.status == "running"
    assert watcher.get(f"/tables/{table.pk}/").status_code == 404
    assert not actions.can_see(table, None, token=table.invite_token)
    # Players keep their seats' view.
    assert client_for(table.seats.get(user__username="bo").user).get(
        f"/tables/{table.pk}/").status_code == 200


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin, ok", [
    (b"http://localhost", True),
    (b"https://localhost", False),       # another scheme
    (b"http://localhost:8001", False),   # another port
    (b"http://localhost.evil.example", False),
    (b"http://evil.example", False),
    (b"null", False),
])
async def test_the_socket_origin_must_match_scheme_host_and_port(running_table, origin, ok):
    from tests.tables.test_consumers import connect

    comm, connected = await connect(running_table.pk, origin=(b"origin", origin))
    assert connected is ok, origin
    await comm.disconnect()


def test_the_public_origin_is_allowed_exactly(settings):
    from games.tables.origin import origin_allowed

    settings.CSRF_TRUSTED_ORIGINS = ["https://tables.example.org"]
    settings.ALLOWED_HOSTS = ["tables.example.org"]

    def scope(origin, scheme="ws", host=b"127.0.0.1:8000"):
        return {"type": "websocket", "scheme": scheme,
                "headers": [(b"host", host), (b"origin", origin)]}

    # Behind the proxy the app sees its own address; the page's origin is the public one.
    assert origin_allowed(scope(b"https://tables.example.org"))
    assert origin_allowed(scope(b"https://tables.example.org:443"))
    assert not origin_allowed(scope(b"http://tables.example.org"))
    assert not origin_allowed(scope(b"https://tables.example.org:8443"))
    assert not origin_allowed(scope(b"https://tables.example.org.evil.example"))


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_heartbeats_write_at_most_once_per_interval(running_table, settings, monkeypatch):
    from games.tables import presence
    from tests.tables.test_consumers import connect, hello

    writes = []
    real = presence.mark_present

    def counting(**kwargs):
        writes.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(presence, "mark_present", counting)
    user = await sync_to_async(lambda: running_table.seats.get(position=0).user)()
    comm, connected = await connect(running_table.pk, user=user)
    assert connected
    await hello(comm, None)
    await comm.receive_from(timeout=10)
    for _i in range(300):
        await comm.send_to(text_data='{"type": "heartbeat"}')
    assert await comm.receive_nothing(timeout=0.5)
    assert len(writes) == 1, "one write for 300 frames within the interval"
    await comm.disconnect()

    # With no interval every frame would write: the count above is the coalescing.
    settings.SOCKET_HEARTBEAT_WRITE_SECONDS = 0
    writes.clear()
    comm, connected = await connect(running_table.pk, user=user)
    await hello(comm, None)
    await comm.receive_from(timeout=10)
    for _i in range(5):
        await comm.send_to(text_data='{"type": "heartbeat"}')
    assert await comm.receive_nothing(timeout=0.5)
    assert len(writes) == 5
    await comm.disconnect()

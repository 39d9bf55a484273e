"""Private notes, tested like the hidden information of the games: only their writer reads them."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.core import mail

from games.chat.models import SeatNote
from games.tables import actions
from tests.pages import client_for, page
from tests.tables.test_consumers import connect, hello, make_move

from .helpers import post_chat

SECRET = "she keeps the purple battery for the end"


def everything_others_can_load(table, users, staff=None) -> dict[str, str]:
    """Every page another viewer can load about the table (and the admin, for staff)."""
    pages = {"anonymous": page(client_for(), table)}
    for user in users:
        client = client_for(user)
        pages[user.username] = page(client, table)
        pages[f"{user.username} settings"] = client.get("/chat/settings/").content.decode()
        pages[f"{user.username} logs"] = client.get(f"/tables/{table.pk}/chat/logs").content.decode()
    if staff is not None:
        client = client_for(staff)
        for url in (f"/admin/tables/table/{table.pk}/change/", "/admin/chat/chatmessage/",
                    "/admin/chat/chatreport/", "/admin/"):
            response = client.get(url)
            assert response.status_code == 200, url
            pages[url] = response.content.decode()
    return pages


@pytest.mark.django_db
def test_notes_are_saved_without_javascript_and_with_htmx(trio):
    table, ana, bo, cy = trio
    client = client_for(ana)
    response = client.post(f"/tables/{table.pk}/notes", {"text": SECRET})
    assert response.status_code == 303 and response["Location"].endswith("#notes")
    assert SeatNote.objects.get().text == SECRET
    html = page(client, table)
    assert f">{SECRET}</textarea>" in html and "Your notes are saved." in html
    response = client.post(f"/tables/{table.pk}/notes", {"text": SECRET + "!"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'id="notes-status"' in response.content.decode()
    assert "Saved" in response.content.decode()
    assert SeatNote.objects.get().text == SECRET + "!"
    # A spectator has no notes here and cannot write any.
    client_for(cy).post(f"/tables/{table.pk}/notes", {"text": "mine"})
    assert SeatNote.objects.count() == 1
    assert 'id="notes"' not in page(client_for(cy), table)
    # Too long: refused, the old note kept.
    client.post(f"/tables/{table.pk}/notes", {"text": "n" * 10_001})
    assert SeatNote.objects.get().text == SECRET + "!"


@pytest.mark.django_db
def test_a_note_never_reaches_another_page_or_the_admin_and_outlives_the_game(trio, make_user):
    table, ana, bo, cy = trio
    client_for(ana).post(f"/tables/{table.pk}/notes", {"text": SECRET})
    client_for(bo).post(f"/tables/{table.pk}/notes", {"text": "bo's own plan"})
    staff = make_user("staff", is_staff=True, is_superuser=True)
    for name, html in everything_others_can_load(table, [bo, cy], staff).items():
        assert SECRET not in html, f"ana's note leaked to {name}"
    assert "bo&#x27;s own plan" in page(client_for(bo), table)
    assert "bo&#x27;s own plan" not in page(client_for(ana), table)
    actions.check_resign(table_id=table.pk, user=bo)
    table.refresh_from_db()
    assert table.is_over
    assert SECRET in page(client_for(ana), table), "the note is kept after the game"
    for name, html in everything_others_can_load(table, [bo, cy], staff).items():
        assert SECRET not in html, f"ana's note leaked to {name} after the game"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_note_never_reaches_a_push_or_a_mail(trio):
    table, ana, bo, cy = trio
    await sync_to_async(lambda: client_for(ana).post(f"/tables/{table.pk}/notes",
                                                     {"text": SECRET}))()
    sockets = []
    for user in (ana, bo, cy, None):
        comm, ok = await connect(table.pk, user=user)
        assert ok
        await hello(comm, None)  # a page that does not say its seq is sent everything
        sockets.append(comm)
    received = {i: [] for i in range(len(sockets))}

    async def drain(expected: int):
        for i, comm in enumerate(sockets):
            for _ in range(expected):
                received[i].append(await comm.receive_from(timeout=10))

    await drain(1)  # the table push answering the hello
    await sync_to_async(make_move)(table.pk)  # a table redraw to every socket
    await drain(1)
    await sync_to_async(post_chat)(cy, table, "a spectator says hi")  # a chat push to all
    await drain(1)
    for i in range(1, len(sockets)):
        assert all(SECRET not in html for html in received[i]), f"note pushed to socket {i}"
    for comm in sockets:
        await comm.disconnect()
    # The players were at the table a moment ago (they joined it): the turn mail waits
    # for the sweep once they have gone.
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from games.tables import tasks

    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        await sync_to_async(tasks.send_pending_turn_mails)()
    # Turn mails and everything else sent meanwhile: never the note.
    assert mail.outbox, "the move should have mailed the next player"
    for message in mail.outbox:
        assert SECRET not in message.body and SECRET not in message.subject
    from games.tables.models import OutgoingMail

    assert not await sync_to_async(
        lambda: OutgoingMail.objects.filter(body__contains=SECRET).exists())()

"""Chat in the mails, through a real SMTP server on loopback: turn mails, digests, chat mails."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
import time_machine
from django.utils import timezone

from games.chat.mail import chat_mails, chat_since
from games.chat.models import ChatMute, ChatSettings
from games.tables import actions, tasks
from games.tables.models import OutgoingMail
from tests.pages import client_for
from tests.tables.test_notify import body, owing, play, smtp, smtp_port  # noqa: F401

from .helpers import post_chat

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_turn_mail_includes_the_chat_since_the_players_last_move(smtp, trio):  # noqa: F811
    table, ana, bo, cy = trio
    [first] = owing(table.pk)
    mover = table.seats.get(position=first).user
    other = bo if mover == ana else ana
    post_chat(other, table, "my own words are not mailed back to me")
    post_chat(mover, table, "your move, take your time")
    post_chat(cy, table, "spectator here")
    post_chat(cy, table, "muted spectator line")  # muted below, before the mail
    ChatMute.objects.create(user=other, muted=cy)
    client_for(mover).post(f"/tables/{table.pk}/notes", {"text": "secret note of the mover"})
    play(table.pk, first)
    # `other` was at the table a moment ago (their chat post): the turn mail waits
    # until they are no longer there, then the sweep sends it.
    with time_machine.travel(timezone.now() + timedelta(minutes=5)):
        tasks.send_pending_turn_mails()
    [mail] = smtp.to(other)
    text = body(mail)
    assert "your move, take your time" in text
    assert "my own words" not in text and "spectator here" not in text, "muted author mailed"
    assert "secret note" not in text
    # What the player saw on the page is not mailed again: the chat since their last visit.
    client_for(other).get(f"/tables/{table.pk}/")
    assert chat_since(table, other, None) == []
    post_chat(mover, table, "after your visit")
    assert [line.split(": ", 1)[1] for line in chat_since(table, other, None)] == [
        "after your visit"]


def test_chat_since_reads_like_the_page_in_the_readers_language_and_zone(trio):
    table, ana, bo, cy = trio
    # After the players' last visit (joining the table): only newer chat is "since".
    when = timezone.now().replace(microsecond=0) + timedelta(days=30)
    when = when.replace(hour=12, minute=0, second=0).astimezone(dt_timezone.utc)
    with time_machine.travel(when, tick=False):
        post_chat(ana, table, "line one\nline two")
        post_chat(cy, table, "from the rail")
    from django.utils import translation

    with translation.override("es"), timezone.override(timezone.get_fixed_timezone(9 * 60)):
        lines = chat_since(table, bo, None)
    assert lines[0].endswith("ana: line one\n    line two") and "21:00" in lines[0]
    assert lines[1].endswith("cy (espectador): from the rail")
    assert chat_since(table, bo, when + timedelta(minutes=1)) == []
    client_for(bo).post(f"/tables/{table.pk}/chat/spectators", {"show": "0"})
    assert [line.split(": ", 1)[1] for line in chat_since(table, bo, None)] == [
        "line one\n    line two"]
    assert chat_since(table, cy, None) == [], "own messages only: nothing new for cy"


def test_the_digest_includes_the_chat_of_each_waiting_table(smtp, make_user):  # noqa: F811
    ana = make_user("ana", turn_mail="digest", digest_hour=8, timezone="Europe/Madrid")
    cy = make_user("cy")
    with time_machine.travel(datetime(2027, 1, 15, 5, 0, tzinfo=dt_timezone.utc), tick=False):
        table = actions.check_create_table(creator=ana, game="high-card", players=2,
                                           bots={1: "random"})
    with time_machine.travel(datetime(2027, 1, 15, 5, 30, tzinfo=dt_timezone.utc), tick=False):
        post_chat(cy, table, "watching you two")  # after ana left the page
    with time_machine.travel(datetime(2027, 1, 15, 7, 2, tzinfo=dt_timezone.utc), tick=False):
        tasks.send_digests()
    [digest] = smtp.to(ana)
    text = body(digest)
    assert f"/tables/{table.pk}/" in text
    # The bot greeted as ana opened the table: she saw it there, so it is not mailed again.
    assert "Hello! Have a good game." not in text, "chat seen on the page is mailed again"
    assert "cy (spectator): watching you two" in text
    # At ana's time, as her page and her turn mails show it: 05:30 UTC is 06:30 in Madrid.
    [line] = [line for line in text.splitlines() if "watching you two" in line]
    assert "6:30" in line and "5:30" not in line, line


def chat_mails_to(smtp, user):  # noqa: F811
    return [m for m in smtp.to(user) if "/chat/unsubscribe/" in body(m)]


def test_chat_mails_are_opt_in_batched_and_at_most_hourly_per_table(smtp, trio):  # noqa: F811
    table, ana, bo, cy = trio
    [first] = owing(table.pk)
    waiting = table.seats.exclude(position=first).get().user  # not their turn
    writer = table.seats.get(position=first).user
    start = timezone.now()
    post_chat(writer, table, "first line")
    post_chat(cy, table, "rail comment")
    assert chat_mails(now=start + timedelta(minutes=5)) == [], "nobody asked for chat mails"
    ChatSettings.objects.create(user=waiting, mail_chat=True)
    ChatSettings.objects.create(user=writer, mail_chat=True)  # it is their turn: no chat mail
    assert chat_mails(now=start + timedelta(seconds=30)) == [], "too fresh: wait for the batch"
    sent = chat_mails(now=start + timedelta(minutes=5))
    assert len(sent) == 1
    [mail] = chat_mails_to(smtp, waiting)
    text = body(mail)
    assert ("New chat at table" in mail["Subject"] or "Chat nuevo en la mesa" in mail["Subject"])
    assert "first line" in text and "rail comment" in text and "/chat/unsubscribe/" in text
    assert chat_mails_to(smtp, writer) == []
    post_chat(writer, table, "second line")
    assert chat_mails(now=start + timedelta(minutes=20)) == [], "a second mail within the hour"
    assert chat_mails(now=start + timedelta(minutes=66))
    assert chat_mails(now=start + timedelta(minutes=67)) == []
    mails = chat_mails_to(smtp, waiting)
    assert len(mails) == 2
    assert "second line" in body(mails[1]) and "first line" not in body(mails[1])
    assert OutgoingMail.objects.filter(kind="chat").count() == 2
    # One click in the mail turns chat mails off.
    url = next(line for line in body(mails[1]).splitlines() if "/chat/unsubscribe/" in line)
    path = url.strip().split("localhost:8000", 1)[-1]
    assert client_for().post(path).status_code == 200
    assert not ChatSettings.objects.get(user=waiting).mail_chat

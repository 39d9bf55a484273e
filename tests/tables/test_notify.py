"""Turn e-mails through a real SMTP server on loopback (aiosmtpd).

Tasks run in-process here (eager); tests/tables/test_worker.py covers the
real worker. Each test names one rule of turn mails and fails if it breaks.
"""

from __future__ import annotations

import email
import email.policy
import re
import shutil
import socket
import subprocess
from datetime import datetime, timedelta, timezone as dt_timezone
from pathlib import Path

import pytest
import time_machine
from aiosmtpd.controller import Controller
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.test import Client

from games.engine import get_rules
from games.tables import actions, tasks
from games.tables.models import OutgoingMail, Table, TableEvent
from games.tables.replay import current_state

pytestmark = pytest.mark.django_db(transaction=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Inbox:
    """The aiosmtpd handler: keeps every message it is given."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(email.message_from_bytes(envelope.content, policy=email.policy.default))
        return "250 Message accepted"

    def to(self, user, *, subject: str | None = None) -> list:
        found = [m for m in self.messages if user.email in m["To"]]
        return [m for m in found if subject is None or subject in m["Subject"]]


def start_smtp(port: int) -> tuple[Controller, Inbox]:
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    return controller, inbox


@pytest.fixture
def smtp_port(settings):
    port = free_port()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    return port


@pytest.fixture
def smtp(smtp_port):
    controller, inbox = start_smtp(smtp_port)
    yield inbox
    controller.stop()


def play(table_id: int, seat: int, *, prefer: str = "keep") -> None:
    """The seat's first legal move (of type `prefer` if it has one), by its player."""
    table = Table.objects.get(pk=table_id)
    rules = get_rules(table.game)
    legal = rules.legal_moves(current_state(table), seat)
    move = next((m for m in legal if m["type"] == prefer), legal[0])
    actions.check_submit_move(table_id=table_id, seat=seat, move=move, based_on=table.seq,
                              actor=table.seats.get(position=seat).user)


def owing(table_id: int) -> list[int]:
    return sorted(Table.objects.get(pk=table_id).to_move)


def user_at(table, position):
    return table.seats.get(position=position).user


def body(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def later(minutes: float):
    """Travel forward in time, past the moment a player was last seen at a table."""
    return time_machine.travel(datetime.now(dt_timezone.utc) + timedelta(minutes=minutes))


def test_turn_mail_once_per_decision_until_seen(smtp, running_table):
    table = running_table
    first, second = user_at(table, 0), user_at(table, 1)
    assert owing(table.pk) == [0]
    # The creator left the table's page long ago and is mailed when it starts; a first
    # player who just took the last seat sees the start in front of them and is not.
    start_mails = len(smtp.to(first))
    assert start_mails == (first == table.created_by)
    with later(5):
        play(table.pk, 0, prefer="draw")
    [mail_second] = smtp.to(second)
    assert "Your turn" in mail_second["Subject"] and f"/tables/{table.pk}/" in body(mail_second)
    assert (str(mail_second["List-Unsubscribe"]).strip().startswith("<http")
            and mail_second["List-Unsubscribe-Post"])
    # Built from the second player's view: they learn a card was drawn, never which one.
    assert re.search(r"drew a card", body(mail_second))
    assert "You drew" not in body(mail_second)
    with later(6):
        tasks.send_pending_turn_mails()
    assert len(smtp.to(second)) == 1, "a second mail for the same decision"
    with later(10):
        play(table.pk, 1)  # both now play at once: the first player owes again
    assert 0 in owing(table.pk)
    assert len(smtp.to(first)) == start_mails + 1, "no mail for a new decision after a move"
    assert Client().get("/").status_code == 200
    with later(12):
        visitor = Client()
        visitor.force_login(first)
        assert visitor.get(f"/tables/{table.pk}/").status_code == 200
        tasks.send_pending_turn_mails()
    with later(20):
        play(table.pk, 1, prefer="play")
    with later(21):
        play(table.pk, 0, prefer="play")  # reveal; round 2 starts with seat 1 to draw
    assert owing(table.pk) == [1]
    with later(30):
        play(table.pk, 1)
    assert 0 in owing(table.pk)
    assert len(smtp.to(first)) == start_mails + 2, "no turn mail after the player visited"


@pytest.mark.asyncio
async def test_no_turn_mail_while_a_fresh_socket_watches_but_one_when_it_goes_idle(
        smtp, settings, running_table):
    from tests.tables.test_consumers import connect, hello

    settings.TURN_MAIL_SOCKET_FRESH_SECONDS = 120
    table = running_table
    watcher = await sync_to_async(user_at)(table, 1)
    comm, connected = await connect(table.pk, user=watcher)
    assert connected
    await hello(comm, None)  # a page that does not say its seq is sent everything
    await comm.receive_from(timeout=10)  # that push: the socket is live
    # A heartbeat marks the player present; then the tab goes quiet.
    await comm.send_to(text_data='{"type": "heartbeat"}')
    await asyncio_sleep(0.3)
    await sync_to_async(play)(table.pk, 0)
    assert 1 in await sync_to_async(owing)(table.pk)
    await comm.receive_from(timeout=10)
    assert smtp.to(watcher) == [], "mailed although the player watches the table live"
    assert await sync_to_async(tasks.send_pending_turn_mails)() >= 0
    assert smtp.to(watcher) == []
    with time_machine.travel(datetime.now(dt_timezone.utc) + timedelta(minutes=5)):
        await sync_to_async(tasks.send_pending_turn_mails)()
    assert len(smtp.to(watcher)) == 1, "an idle tab must not swallow the turn mail"
    await comm.disconnect()


async def asyncio_sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


@pytest.fixture
def spanish_catalogue(settings, tmp_path):
    """The project's Spanish catalogue compiled into a temporary locale path (if it exists)."""
    po = Path(django_settings.BASE_DIR) / "locale" / "es" / "LC_MESSAGES" / "django.po"
    if not po.exists() or not shutil.which("msgfmt"):
        return False
    target = tmp_path / "locale" / "es" / "LC_MESSAGES"
    target.mkdir(parents=True)
    subprocess.run(["msgfmt", "--check-format", "-o", str(target / "django.mo"), str(po)],
                   check=True, capture_output=True)
    settings.LOCALE_PATHS = [tmp_path / "locale"]  # setting_changed resets the catalogues
    from django.utils import translation

    with translation.override("es"):
        # Only meaningful once the catalogue translates the mail's strings.
        return translation.gettext("Your turn: %(game)s, table %(id)s").startswith("Te toca")


def test_turn_mail_in_the_players_language(smtp, spanish_catalogue, two_players):
    ana, bo = two_players
    ana.language, bo.language = "es", "en"
    ana.timezone = "America/Mexico_City"
    ana.save()
    bo.save()
    with later(-10):
        table = actions.check_create_table(creator=ana, game="high-card", players=2)
    actions.check_join_table(table_id=table.pk, user=bo)
    table.refresh_from_db()
    if user_at(table, 0) == bo:
        with later(5):
            play(table.pk, 0)
    [mail] = smtp.to(ana)
    assert mail["Content-Language"] == "es"
    if spanish_catalogue:
        assert mail["Subject"].startswith("[Pyramid Tables] Te toca:"), mail["Subject"]
        assert "Juega ahora:" in body(mail)
    # The deadline is written in the player's time zone.
    assert "CST" in body(mail) or "CDT" in body(mail)
    if smtp.to(bo):
        assert smtp.to(bo)[0]["Content-Language"] == "en"
        assert "Your turn" in smtp.to(bo)[0]["Subject"]


def test_digest_lists_every_waiting_table_once_at_the_chosen_hour(smtp, make_user):
    ana = make_user("ana", turn_mail="digest", digest_hour=8, timezone="Europe/Madrid")
    with time_machine.travel(datetime(2027, 1, 15, 5, 0, tzinfo=dt_timezone.utc), tick=False):
        tables = [actions.check_create_table(creator=ana, game="high-card", players=2,
                                             bots={1: "random"}) for _ in range(2)]
        for table in tables:
            table.refresh_from_db()
            assert table.seats.get(user=ana).position in table.to_move
        assert smtp.to(ana) == [], "a digest user got a turn mail at once"
    with time_machine.travel(datetime(2027, 1, 15, 6, 30, tzinfo=dt_timezone.utc), tick=False):
        tasks.send_digests()  # 07:30 in Madrid: not yet
    assert smtp.to(ana) == []
    with time_machine.travel(datetime(2027, 1, 15, 7, 2, tzinfo=dt_timezone.utc), tick=False):
        tasks.send_digests()
        tasks.send_digests()  # the beat may run twice: still one digest
    [digest] = smtp.to(ana)
    assert "2 tables are waiting on you" in digest["Subject"]
    for table in tables:
        assert f"/tables/{table.pk}/" in body(digest)
    with time_machine.travel(datetime(2027, 1, 15, 9, 2, tzinfo=dt_timezone.utc), tick=False):
        tasks.send_digests()
    assert len(smtp.to(ana)) == 1


def test_unsubscribe_link_works_without_login(smtp, running_table):
    table = running_table
    first, second = user_at(table, 0), user_at(table, 1)
    with later(5):
        play(table.pk, 0)
    [mail] = smtp.to(second)
    url = str(mail["List-Unsubscribe"]).strip().strip("<>")
    assert url in body(mail)
    path = url.replace(django_settings.SITE_URL, "")
    anonymous = Client(enforce_csrf_checks=True)
    page = anonymous.get(path)
    assert page.status_code == 200 and b"<form" in page.content
    second.refresh_from_db()
    assert second.turn_mail == "now", "a GET (link checkers) must not unsubscribe"
    done = anonymous.post(path)  # the button, or a mail client's one-click POST
    assert done.status_code == 200 and b'id="unsubscribed"' in done.content
    second.refresh_from_db()
    assert second.turn_mail == "never"
    assert anonymous.post(path[:-3] + "xx/").status_code == 400
    mails_of_first = len(smtp.to(first))
    with later(10):
        play(table.pk, 1)  # both play a card at once now
    assert len(smtp.to(first)) == mails_of_first + 1
    with later(15):
        play(table.pk, 1, prefer="play")
    with later(16):
        play(table.pk, 0, prefer="play")  # reveal; round 2: seat 1 draws first
    assert owing(table.pk) == [1]
    with later(25):
        tasks.send_pending_turn_mails()
    assert len(smtp.to(second)) == 1, "mailed a player who unsubscribed"


def test_smtp_down_stores_the_move_at_once_and_mails_after_the_server_returns(
        smtp_port, settings, running_table):
    settings.MAIL_RETRY_BASE_SECONDS = 30
    table = running_table
    second = user_at(table, 1)
    with later(5):
        play(table.pk, 0)  # the mail server is down: the move goes through all the same
    table.refresh_from_db()
    assert table.seq == TableEvent.objects.filter(table=table).count()
    assert TableEvent.objects.filter(table=table, kind="move").count() == 1
    mail = OutgoingMail.objects.get(user=second, kind="turn")
    assert mail.sent_at is None and mail.attempts == 1 and mail.last_error
    controller, inbox = start_smtp(smtp_port)
    try:
        with later(7):
            tasks.send_pending_mail()
        [delivered] = inbox.to(second)
        assert "Your turn" in delivered["Subject"]
        mail.refresh_from_db()
        assert mail.sent_at is not None
        tasks.send_pending_mail()
        assert len(inbox.to(second)) == 1
    finally:
        controller.stop()


def test_invitation_and_game_over_mails(smtp, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    table = actions.check_create_table(creator=ana, game="high-card", players=2, invitees=["bo"])
    [invitation] = smtp.to(bo, subject="invites you")
    assert f"/tables/{table.pk}/" in body(invitation) and "3 days per move" in body(invitation)
    actions.check_join_table(table_id=table.pk, user=bo)
    while Table.objects.get(pk=table.pk).status == Table.Status.RUNNING:
        play(table.pk, owing(table.pk)[0], prefer="play")
    for user in (ana, bo):
        [over] = smtp.to(user, subject="Game over")
        assert "is over" in body(over)
        assert over["List-Unsubscribe"]


def test_muted_table_sends_no_turn_mail(smtp, running_table):
    table = running_table
    second = user_at(table, 1)
    actions.check_set_muted(table_id=table.pk, user=second, muted=True)
    play(table.pk, 0)
    assert 1 in owing(table.pk)
    assert smtp.to(second) == []


def test_bot_account_gets_no_turn_mail_nor_digest(smtp, running_table, make_user):
    """A bot account's program learns of its turns from the API: no turn mail when the
    table comes to wait on it, none from the sweep once its stream is long gone, and no
    digest; the human at the same table is mailed as usual."""
    table = running_table
    first, second = user_at(table, 0), user_at(table, 1)
    second.is_bot_account = True
    second.save(update_fields=["is_bot_account"])
    with later(5):
        play(table.pk, 0, prefer="draw")
    assert 1 in owing(table.pk)
    with later(60 * 24):
        tasks.send_pending_turn_mails()
    assert smtp.to(second) == []
    with later(60 * 24 + 5):
        play(table.pk, 1)
    assert 0 in owing(table.pk)
    assert smtp.to(first, subject="Your turn"), "the human was not mailed"

    robo = make_user("robo", turn_mail="digest", digest_hour=0, is_bot_account=True)
    waiting = actions.check_create_table(creator=robo, game="high-card", players=2,
                                         bots={1: "random"})
    waiting.refresh_from_db()
    assert waiting.seats.get(user=robo).position in waiting.to_move
    tasks.send_digests()
    assert smtp.to(robo) == []


def test_game_over_mail_lost_with_the_broker_is_sent_by_the_sweep(smtp, make_user, monkeypatch):
    from games.tables import notify

    ana, bo = make_user("ana"), make_user("bo")
    table = actions.check_create_table(creator=ana, game="high-card", players=2)
    actions.check_join_table(table_id=table.pk, user=bo)
    # The broker is down for the whole game: nothing can be queued.
    monkeypatch.setattr(notify, "_queue", lambda task, *args: None)
    while Table.objects.get(pk=table.pk).status == Table.Status.RUNNING:
        play(table.pk, owing(table.pk)[0], prefer="play")
    assert smtp.to(ana, subject="Game over") == []
    monkeypatch.undo()  # the broker is back; the beat's sweep runs
    tasks.send_pending_turn_mails.apply()
    for user in (ana, bo):
        assert len(smtp.to(user, subject="Game over")) == 1
    tasks.send_pending_turn_mails.apply()  # a repeat sends nothing twice
    assert len(smtp.to(ana, subject="Game over")) == 1

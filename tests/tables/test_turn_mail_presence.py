"""Turn mails follow the player, not the page (issue 9).

One mail each time a table comes to wait on a player who has not seen it yet;
every sign of the player at the table counts as seen (page load, htmx request,
move, socket heartbeat); a player seen a moment ago is watching and gets no mail
until the sweep finds them gone. Real database, real SMTP server (aiosmtpd).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
import time_machine
from asgiref.sync import sync_to_async
from django.test import Client

from games.engine import get_rules
from games.tables import actions, tasks
from games.tables.models import Table
from games.tables.replay import current_state
from tests.tables.test_notify import owing, smtp, smtp_port, user_at  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db(transaction=True)


def later(minutes: float):
    """Travel forward in time (the freshness window of presence is two minutes)."""
    return time_machine.travel(datetime.now(dt_timezone.utc) + timedelta(minutes=minutes))


def htmx_move(client: Client, table_id: int, seat: int, prefer: str = "keep"):
    """A move posted the way the page's htmx form posts it: no page load."""
    import json

    table = Table.objects.get(pk=table_id)
    legal = get_rules(table.game).legal_moves(current_state(table), seat)
    move = next((m for m in legal if m["type"] == prefer), legal[0])
    response = client.post(f"/tables/{table_id}/move", {
        "move": json.dumps(move), "based_on": table.seq}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content[:300]


def bot_play(table_id: int, seat: int, prefer: str = "keep") -> None:
    table = Table.objects.get(pk=table_id)
    legal = get_rules(table.game).legal_moves(current_state(table), seat)
    move = next((m for m in legal if m["type"] == prefer), legal[0])
    actions.check_submit_move(table_id=table_id, seat=seat, move=move, based_on=table.seq,
                              actor=table.seats.get(position=seat).user)


def test_an_htmx_move_from_an_open_tab_rearms_the_turn_mail(smtp, running_table):
    """Before: only a full page load re-armed the mail, so active players lost theirs."""
    table = running_table
    first, second = user_at(table, 0), user_at(table, 1)
    tab = Client()
    tab.force_login(second)
    with later(5):
        bot_play(table.pk, 0, prefer="draw")  # the table waits on `second`
    assert len(smtp.to(second)) == 1
    with later(10):
        htmx_move(tab, table.pk, 1)  # answered from an open tab, no reload
    # Both play a card at once now; `second` answers from the tab again.
    with later(20):
        htmx_move(tab, table.pk, 1, prefer="play")
    with later(30):
        bot_play(table.pk, 0, prefer="play")  # reveal; round 2: seat 1 draws first
    assert owing(table.pk) == [1]
    assert len(smtp.to(second)) == 2, "no turn mail after the player moved through htmx"


def test_a_heartbeat_after_the_turn_came_counts_as_seen(smtp, running_table):
    """Before: a heartbeat only held the mail back; when the tab idled later the mail went
    out although the player had watched the decision arrive."""
    from asgiref.sync import async_to_sync
    from tests.tables.test_consumers import connect

    table = running_table
    watcher = user_at(table, 1)

    async def scenario():
        comm, connected = await connect(table.pk, user=watcher)
        assert connected
        await comm.receive_from(timeout=10)
        await comm.send_to(text_data='{"type": "heartbeat"}')
        await comm.receive_nothing(timeout=0.3)
        await sync_to_async(bot_play)(table.pk, 0)
        await comm.receive_from(timeout=10)  # the push of the move
        await comm.send_to(text_data='{"type": "heartbeat"}')  # the visible tab answers it
        await comm.receive_nothing(timeout=0.3)
        await comm.disconnect()

    async_to_sync(scenario)()
    assert 1 in owing(table.pk)
    with later(10):
        tasks.send_pending_turn_mails()
    assert smtp.to(watcher) == [], "mailed a decision the player saw arrive live"


def test_closing_one_of_two_tabs_does_not_reset_the_other(smtp, running_table):
    """Before: closing any socket cleared the player's live mark at the table."""
    from asgiref.sync import async_to_sync
    from tests.tables.test_consumers import connect

    table = running_table
    watcher = user_at(table, 1)

    async def scenario():
        one, ok1 = await connect(table.pk, user=watcher)
        two, ok2 = await connect(table.pk, user=watcher)
        assert ok1 and ok2
        await one.receive_from(timeout=10)
        await two.receive_from(timeout=10)
        await one.send_to(text_data='{"type": "heartbeat"}')
        await two.send_to(text_data='{"type": "heartbeat"}')
        await two.receive_nothing(timeout=0.3)
        await two.disconnect()  # one tab closes; the other stays open and watched
        await sync_to_async(bot_play)(table.pk, 0)
        await one.receive_from(timeout=10)
        await one.disconnect()

    async_to_sync(scenario)()
    assert 1 in owing(table.pk)
    assert smtp.to(watcher) == [], "mailed although another tab of the player was watching"


def test_no_mail_for_a_decision_of_the_players_own_action(smtp, make_user):
    """Before: the player whose action started a table was mailed while the page opened."""
    ana = make_user("ana")
    owed = 0
    for _ in range(4):  # the seating is drawn: cover tables where the bot moves first
        table = actions.check_create_table(creator=ana, game="high-card", players=2,
                                           bots={1: "random"})
        table.refresh_from_db()
        owed += table.seats.get(user=ana).position in table.to_move
    assert owed == 4
    assert smtp.to(ana) == [], "mailed the creator of a table against a bot"
    bo, cy = make_user("bo"), make_user("cy")
    for _ in range(4):
        with later(-10):  # bo opened the table a while ago and left
            table = actions.check_create_table(creator=bo, game="high-card", players=2)
        actions.check_join_table(table_id=table.pk, user=cy)  # cy takes the last seat
    assert smtp.to(cy) == [], "mailed the player who took the last seat"
    # bo created the table and left its page long ago: bo is mailed when it starts.
    assert len(smtp.to(bo)) == sum(
        1 for t in Table.objects.filter(created_by=bo) if t.seats.get(user=bo).position == 0)


def test_an_idle_creator_is_mailed_by_the_sweep(smtp, make_user):
    """Presence holds a mail back for a moment only: a player who went away is mailed."""
    ana = make_user("ana")
    tables = [actions.check_create_table(creator=ana, game="high-card", players=2,
                                         bots={1: "random"}) for _ in range(6)]
    # Where ana sits first the decision is on the page she is sent to: seen, never mailed.
    # Where the bot moved first, her decision came a moment later: mailed if she left.
    bot_first = [t for t in tables if t.seats.get(user=ana).position != 0]
    assert smtp.to(ana) == []
    with later(1):
        tasks.send_pending_turn_mails()
    assert smtp.to(ana) == []  # still fresh: they are likely on the page
    with later(5):
        tasks.send_pending_turn_mails()
        tasks.send_pending_turn_mails()
    assert len(smtp.to(ana)) == len(bot_first)

"""A failing channel layer, broker or worker never loses or blocks a move."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.tables import tasks
from games.tables.models import Table, TableEvent

pytestmark = pytest.mark.django_db(transaction=True)

DEAD_REDIS = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def owing_client(table):
    table.refresh_from_db()
    user = table.seats.get(position=table.to_move[0]).user
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    return client


def test_a_move_is_stored_when_the_channel_layer_is_down(running_table, settings, caplog):
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": [{"address": DEAD_REDIS, "socket_connect_timeout": 1}]}}}
    table = running_table
    before = table.seq
    response = owing_client(table).post(f"/tables/{table.pk}/move", {
        "move": json.dumps({"type": "keep"}), "based_on": before})
    assert response.status_code == 303
    table.refresh_from_db()
    assert table.seq == before + 1
    assert TableEvent.objects.filter(table=table, seq=before + 1, kind="move").exists()
    assert any("push for table" in r.getMessage() for r in caplog.records)
    # The page still shows the truth on reload.
    page = owing_client(table) if table.to_move else Client(HTTP_HOST="localhost")
    assert f'data-seq="{table.seq}"' in page.get(f"/tables/{table.pk}/").content.decode()


def test_a_move_is_stored_when_the_broker_is_down_and_the_sweep_plays_the_bot_later(
        make_user, settings, monkeypatch):
    from games.tables import actions
    from kombu.exceptions import OperationalError

    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="high-card", players=2,
                                       bots={1: "greedy"})
    table.refresh_from_db()
    # The broker goes away: queuing a bot turn fails.
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.play_bot_turn, "delay", broker_down)
    while table.status == Table.Status.RUNNING and table.to_move and \
            table.seats.get(position=table.to_move[0]).user == ana:
        before = table.seq
        response = owing_client(table).post(f"/tables/{table.pk}/move", {
            "move": json.dumps({"type": "keep"} if table.snapshot["phase"] == "draw"
                               else {"type": "play", "card": min(table.snapshot["hands"][table.to_move[0]])}),
            "based_on": before})
        assert response.status_code == 303
        table.refresh_from_db()
        assert table.seq == before + 1  # stored at once, whatever the broker does
    bot_seat = table.seats.get(bot_level="greedy").position
    assert bot_seat in table.to_move  # the bot's turn is stuck, not lost
    stuck_at = table.seq
    # The broker is back: the periodic sweep re-queues the lost bot turn.
    monkeypatch.undo()
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert tasks.resend_stuck_turns.apply(kwargs={"older_than_seconds": 0}).get() >= 1
    table.refresh_from_db()
    assert table.seq > stuck_at
    assert TableEvent.objects.filter(table=table, seq=stuck_at + 1, seat=bot_seat).exists()

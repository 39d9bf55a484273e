"""With no services (`make run`), a bot turn runs after the response, in the bot thread.

The suite keeps bot turns synchronous (tests/settings.py); this test turns the
background thread on, as config/settings.py does when tasks are eager.
"""

from __future__ import annotations

import json
import threading
import time

import pytest
from django.db import connection
from django.test import override_settings

from games.tables import actions, bot_worker
from games.tables.models import Table
from tests.pages import client_for


def _moves_by(table, seat) -> int:
    return table.events.filter(kind="move", seat=seat).count()


@pytest.mark.django_db(transaction=True)
@override_settings(BOT_TURNS_IN_BACKGROUND=True, CELERY_TASK_ALWAYS_EAGER=True)
def test_a_human_move_answers_before_the_bot_moves_then_the_bot_moves(make_user):
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="high-card", players=2, bots={1: "greedy"})
    # Seats are drawn at the start: the bot may open the game, in the background.
    assert bot_worker.wait_idle(20)
    table.refresh_from_db()
    human = table.seats.get(user=ana).position
    bot = 1 - human
    assert table.status == Table.Status.RUNNING and table.to_move == [human]
    bot_before = _moves_by(table, bot)

    # Hold the one bot thread busy, so a turn played inside the request would show.
    release = threading.Event()
    started = threading.Event()

    def hold():
        started.set()
        release.wait(20)

    assert bot_worker.submit(hold)
    assert started.wait(10)
    try:
        response = client_for(ana).post(f"/tables/{table.pk}/move", {
            "move": json.dumps({"type": "keep"}), "based_on": table.seq})
        assert response.status_code == 303
        table.refresh_from_db()
        assert _moves_by(table, human) == 1, "the human's move is recorded"
        # The bot owes (in High Card's play phase both seats owe at once).
        assert bot in table.to_move, "and the bot owes"
        assert _moves_by(table, bot) == bot_before, "the bot must not move inside the human's request"
    finally:
        release.set()

    assert bot_worker.wait_idle(20)
    table.refresh_from_db()
    assert _moves_by(table, bot) > bot_before, "the bot thread played the turn after the response"
    assert bot not in table.to_move
    # The thread lets go of its database connection (the test database can be dropped).
    bot_worker.submit(connection.close)
    assert bot_worker.wait_idle(10)

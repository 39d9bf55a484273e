"""A bot whose move is refused (or that fails) never stalls a table, and says so loudly.

The seat plays a random legal move for that decision; an error log line names the
table, seq, seat and incident (never the move); staff find the incident in the admin. Three paths play bot
turns: synchronously after commit (the suite's default), the background bot
thread of a site without services, and a real Celery worker (tests/tables/test_worker.py).
"""

from __future__ import annotations

import html as htmllib
import json
import logging

import pytest
from django.test import override_settings

from games.tables import actions, bot_worker
from games.tables.models import BotIncident, Table, TableEvent
from tests.high_card import bot as high_card_bot
from tests.pages import client_for
from tests.tables.test_worker import needs_redis, person_moves, play_to_the_end, worker_factory  # noqa: F401

ILLEGAL = {"type": "play", "card": 99}  # no High Card hand holds a 99: refused in every phase


@pytest.fixture
def illegal_bot(monkeypatch):
    """High Card's bots, at every level, answer with a move the rules refuse."""
    monkeypatch.setattr(high_card_bot, "choose", lambda view, legal, *, level, rng: dict(ILLEGAL))


@pytest.fixture
def crashing_bot(monkeypatch):
    def choose(view, legal, *, level, rng):
        raise ZeroDivisionError("the bot divided by zero")

    monkeypatch.setattr(high_card_bot, "choose", choose)


class Lines(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def log_lines():
    """The bot task's log records (on its own logger: a Celery worker rewires the root's)."""
    handler = Lines()
    logger = logging.getLogger("games.tables.tasks")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


def bot_moves(table) -> list[TableEvent]:
    return list(TableEvent.objects.filter(table=table, kind="move", actor__isnull=True))


def assert_incidents_match_the_bot_decisions(table, log_lines, *, move):
    """Every bot move of the game is the random move of an incident, each with its error line.

    Two bots owing at once (High Card's simultaneous play) may find the table moved on
    by the other before their random move: that incident is not taken (stale), and the
    bot decides again at the new seq.
    """
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED, "the table stalled on the bot"
    incidents = list(BotIncident.objects.filter(table=table).order_by("seq", "seat"))
    played = bot_moves(table)
    assert played
    taken = sorted((i.seq, i.seat) for i in incidents if i.fell_back)
    assert taken == sorted((e.seq - 1, e.seat) for e in played), "a bot move without incident"
    errors = [r for r in log_lines.records if r.levelno == logging.ERROR]
    assert len(errors) == len(incidents)
    for incident in incidents:
        assert incident.move == move
        line = next(r.getMessage() for r in errors
                    if f"table {table.pk} seq {incident.seq} seat {incident.seat}:" in r.getMessage())
        # The move (and the error's message, which may quote it) stay out of the log: it
        # can name what only the bot's seat may see. The incident keeps them.
        if move is not None:
            assert json.dumps(move, sort_keys=True) not in line and '"card"' not in line
        assert incident.error.split(":")[0] in line and f"bot incident {incident.pk}" in line
    return incidents


@pytest.mark.django_db(transaction=True)
def test_an_illegal_bot_move_falls_back_to_a_random_move_and_the_game_ends(make_user, illegal_bot,
                                                                          log_lines):
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="high-card", players=3,
                                       bots={1: "greedy", 2: "random"})
    play_to_the_end(table.pk, ana)
    incidents = assert_incidents_match_the_bot_decisions(table, log_lines, move=ILLEGAL)
    assert {i.level for i in incidents} == {"greedy", "random"}
    assert all(i.error.startswith("IllegalMove:") for i in incidents)
    assert "check_submit_move" in incidents[0].traceback


@pytest.mark.django_db(transaction=True)
def test_a_bot_that_raises_falls_back_to_a_random_move(make_user, crashing_bot, log_lines):
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="high-card", players=2, bots={1: "greedy"})
    play_to_the_end(table.pk, ana)
    incidents = assert_incidents_match_the_bot_decisions(table, log_lines, move=None)
    assert incidents[0].error == "ZeroDivisionError: the bot divided by zero"
    assert "the bot divided by zero" in incidents[0].traceback and "choose" in incidents[0].traceback


@pytest.mark.django_db(transaction=True)
@override_settings(BOT_TURNS_IN_BACKGROUND=True, CELERY_TASK_ALWAYS_EAGER=True)
def test_the_background_bot_thread_falls_back_too(make_user, illegal_bot, log_lines):
    """No services (`make run`): bot turns run in the web process's one bot thread."""
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="high-card", players=2, bots={1: "random"})
    seat = None
    for _ in range(40):
        assert bot_worker.wait_idle(20), "the bot thread is stuck"
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING:
            break
        seat = table.seats.get(user=ana).position
        assert seat in table.to_move, "the table waits on the bot"
        person_moves(table.pk, ana)
    assert bot_worker.wait_idle(20)
    assert_incidents_match_the_bot_decisions(table, log_lines, move=ILLEGAL)


@needs_redis
def test_a_real_worker_falls_back_and_the_game_ends(worker_factory, make_user, illegal_bot, log_lines):  # noqa: F811
    ana = make_user("ana")
    with worker_factory():
        table = actions.check_create_table(creator=ana, game="high-card", players=3,
                                           bots={1: "random", 2: "greedy"})
        play_to_the_end(table.pk, ana)
    assert_incidents_match_the_bot_decisions(table, log_lines, move=ILLEGAL)


@pytest.mark.django_db(transaction=True)
def test_staff_see_the_incident_in_the_admin_without_the_move_while_the_table_is_in_play(
        make_user, illegal_bot):
    ana = make_user("ana")
    root = make_user("root", is_staff=True, is_superuser=True)
    table = actions.check_create_table(creator=ana, game="high-card", players=2, bots={1: "random"})
    person_moves(table.pk, ana)  # the bot answers (or already opened the game)
    incident = BotIncident.objects.filter(table=table).first()
    assert incident is not None
    client = client_for(root)
    listing = htmllib.unescape(client.get("/admin/tables/botincident/").content.decode())
    assert f"high-card #{table.pk}" in listing and "IllegalMove" in listing
    filtered = client.get("/admin/tables/botincident/?level=random&table__game=high-card")
    assert filtered.status_code == 200 and "IllegalMove" in filtered.content.decode()
    page = htmllib.unescape(client.get(f"/admin/tables/botincident/{incident.pk}/change/").content.decode())
    assert "IllegalMove" in page and "Traceback" in page
    assert "hidden while the table is in play" in page and '"card": 99' not in page
    # Nothing is edited or deleted here: incidents are written by the bot task alone.
    assert client.get("/admin/tables/botincident/add/").status_code == 403
    assert client.post(f"/admin/tables/botincident/{incident.pk}/delete/", {"post": "yes"}).status_code == 403
    play_to_the_end(table.pk, ana)
    page = htmllib.unescape(client.get(f"/admin/tables/botincident/{incident.pk}/change/").content.decode())
    assert "'card': 99" in page or '"card": 99' in page
    # A player never reaches it.
    assert client_for(ana).get("/admin/tables/botincident/").status_code == 302


@pytest.mark.django_db(transaction=True)
def test_broken_rules_give_one_incident_retried_hourly_not_every_minute(make_user, log_lines,
                                                                        monkeypatch):
    """The rules refuse even the random move (their apply refuses what their legal list
    offers the bot's seat): the table waits, the stuck-turn sweep leaves the decision alone for an hour
    instead of writing an incident and an error line every minute, then tries again on
    the same incident; once the rules are fixed the random move is played."""
    from datetime import datetime, timedelta, timezone as dt_timezone

    import time_machine

    from games.tables import tasks
    from games.engine import IllegalMove
    from tests.high_card.rules import HighCardRules

    real_apply = HighCardRules.apply
    broken = set()  # the seats whose every move the rules refuse

    def broken_apply(self, state, seat, move):
        if seat in broken:
            raise IllegalMove("the rules refuse every move of this seat")
        return real_apply(self, state, seat, move)

    monkeypatch.setattr(HighCardRules, "apply", broken_apply)
    ana = make_user("ana")
    start = datetime.now(dt_timezone.utc)
    with time_machine.travel(start, tick=False):
        table = actions.check_create_table(creator=ana, game="high-card", players=2,
                                           bots={1: "random"})
        bot_seat = table.seats.exclude(bot_level="").get().position
        broken.add(bot_seat)
        for _ in range(10):
            table.refresh_from_db()
            if bot_seat in table.to_move:
                break
            person_moves(table.pk, ana)
        assert bot_seat in table.to_move, "the bot's decision was not left waiting"
    [incident] = BotIncident.objects.filter(table=table)
    assert (incident.attempts, incident.fell_back) == (1, False)
    for minutes in (1, 2, 30, 59):
        with time_machine.travel(start + timedelta(minutes=minutes), tick=False):
            assert tasks.resend_stuck_turns(older_than_seconds=0) == 0
    incident.refresh_from_db()
    assert incident.attempts == 1
    with time_machine.travel(start + timedelta(minutes=61), tick=False):
        assert tasks.resend_stuck_turns(older_than_seconds=0) == 1
    [incident] = BotIncident.objects.filter(table=table)
    assert (incident.attempts, incident.fell_back) == (2, False)
    errors = [r for r in log_lines.records if r.levelno == logging.ERROR]
    warnings = [r.getMessage() for r in log_lines.records if r.levelno == logging.WARNING]
    # One error line for its move and one for the random move, at the first try only.
    assert len(errors) == 2, [r.getMessage() for r in errors]
    assert any(f"try 2 of bot incident {incident.pk}" in w for w in warnings), warnings
    # The rules are fixed (a deploy): the next retry plays the bot's own move.
    broken.clear()
    seq = table.seq
    with time_machine.travel(start + timedelta(minutes=125), tick=False):
        assert tasks.resend_stuck_turns(older_than_seconds=0) == 1
    table.refresh_from_db()
    assert table.seq > seq and TableEvent.objects.filter(
        table=table, kind="move", seat=bot_seat, seq=seq + 1).exists(), "the bot did not move"
    assert BotIncident.objects.filter(table=table).count() == 1

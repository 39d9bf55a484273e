"""Bots and mail on a real Celery worker, against Redis (started by the test itself)."""

from __future__ import annotations

import time
from contextlib import contextmanager

import pytest
from django.conf import settings as django_settings
from django.core import mail

from config.celery import app
from games.engine import get_rules
from games.tables import actions, tasks
from games.tables.errors import StaleMove
from games.tables.models import Table, TableEvent
from games.tables.replay import current_state

needs_redis = pytest.mark.skipif(
    not django_settings.REDIS_URL,
    reason="a real Celery worker needs a broker: set REDIS_URL (scripts/test.sh does)")


def forget_backend() -> None:
    """Drop the app's cached result backend (Celery caches it per thread or app-wide)."""
    app._backend_cache = None
    vars(app._local).pop("backend", None)


@pytest.fixture
def worker_factory(settings, django_db_blocker, transactional_db):
    """Start (and stop) real solo workers in this process, with eager mode off."""
    import celery.contrib.testing.tasks  # noqa: F401 - registers the ping task
    from celery.contrib.testing.worker import start_worker

    settings.CELERY_TASK_ALWAYS_EAGER = False
    saved = app.conf.task_always_eager, app.conf.result_backend
    app.conf.task_always_eager = False
    app.conf.result_backend = django_settings.REDIS_URL  # the worker's ping check reads a result
    forget_backend()  # built lazily from the conf above (earlier tests may have built one)
    app.control.purge()

    @contextmanager
    def worker():
        with django_db_blocker.unblock():
            with start_worker(app, pool="solo", perform_ping_check=True, shutdown_timeout=20):
                yield

    yield worker
    app.conf.task_always_eager, app.conf.result_backend = saved
    forget_backend()
    app.control.purge()


def wait_for(predicate, timeout: float = 20.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def person_owes_or_over(table_id: int, seat: int):
    def check():
        table = Table.objects.get(pk=table_id)
        return table.status != Table.Status.RUNNING or seat in table.to_move
    return check


def person_moves(table_id: int, user) -> int:
    """Ana's first legal move; in simultaneous phases a bot may move first: then look again."""
    for _ in range(20):
        table = Table.objects.get(pk=table_id)
        seat = table.seats.get(user=user).position
        legal = get_rules(table.game).legal_moves(current_state(table), seat)
        try:
            actions.check_submit_move(table_id=table_id, seat=seat, move=legal[0],
                                      based_on=table.seq, actor=user)
        except StaleMove:
            continue
        return seat
    raise AssertionError("always stale")


def play_to_the_end(table_id: int, user, *, moves: int = 200) -> None:
    seat = Table.objects.get(pk=table_id).seats.get(user=user).position
    for _ in range(moves):
        assert wait_for(person_owes_or_over(table_id, seat)), "the bots stalled"
        if Table.objects.get(pk=table_id).status != Table.Status.RUNNING:
            return
        person_moves(table_id, user)
    raise AssertionError("the game did not end")


@needs_redis
def test_a_person_plays_a_whole_game_against_two_bots_on_a_real_worker(worker_factory, make_user):
    ana = make_user("ana")
    mail.outbox.clear()
    with worker_factory():
        table = actions.check_create_table(creator=ana, game="high-card", players=3,
                                           bots={1: "random", 2: "greedy"})
        play_to_the_end(table.pk, ana)
        table.refresh_from_db()
        assert table.status == Table.Status.FINISHED and table.outcome["winners"]
        bot_moves = TableEvent.objects.filter(table=table, kind="move", actor__isnull=True)
        assert bot_moves.count() >= 6  # two bots, three rounds, at least a card each
        assert wait_for(lambda: any("Game over" in m.subject for m in mail.outbox), 10)
    subjects = [m.subject for m in mail.outbox if m.to == [ana.email]]
    # She created the table and answers every bot move at once: she is at the table the
    # whole game, so no turn mail (turn mails follow the player); then the result.
    assert sum("Your turn" in s for s in subjects) == 0, subjects


@pytest.mark.django_db(transaction=True)
def test_a_bot_task_for_an_old_sequence_number_does_nothing(make_user):
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="high-card", players=2, bots={1: "random"})
    table.refresh_from_db()
    bot_seat = table.seats.exclude(bot_level="").get().position
    events = TableEvent.objects.filter(table=table).count()
    for old in range(table.seq):
        assert tasks.play_bot_turn.apply(args=(table.pk, old, bot_seat)).get() == "stale"
    assert TableEvent.objects.filter(table=table).count() == events


@needs_redis
def test_killing_the_worker_mid_game_then_the_sweep_lets_the_game_finish(worker_factory,
                                                                         make_user):
    ana = make_user("ana")
    with worker_factory():
        table = actions.check_create_table(creator=ana, game="high-card", players=3,
                                           bots={1: "random", 2: "random"})
        seat = table.seats.get(user=ana).position
        assert wait_for(person_owes_or_over(table.pk, seat))
    # The worker is gone. Ana moves until a bot owes; its queued turn is lost with the broker.
    for _ in range(10):
        person_moves(table.pk, ana)
        table.refresh_from_db()
        if any(p != seat for p in table.to_move):
            break
    assert table.status == Table.Status.RUNNING and any(p != seat for p in table.to_move)
    app.control.purge()
    stuck_at = table.seq
    with worker_factory():
        time.sleep(1.0)
        assert Table.objects.get(pk=table.pk).seq == stuck_at, "a lost bot turn came back by itself"
        tasks.resend_stuck_turns.delay(0)
        assert wait_for(lambda: Table.objects.get(pk=table.pk).seq > stuck_at)
        play_to_the_end(table.pk, ana)
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED

"""Bounded database use: psycopg's pool caps connections; an exhausted pool answers 503."""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager

import pytest
from django.db import connection

from games.tables.errors import StaleMove
from games.tables.models import TableEvent
from tests.conftest import uses_postgres
from tests.pages import client_for

pytestmark = pytest.mark.skipif(not uses_postgres(), reason="the pool is PostgreSQL's")


@contextmanager
def small_pool(**options):
    """Swap the process's pool for a tiny one (the machine's server allows ~100 in all)."""
    pool_settings = connection.settings_dict["OPTIONS"]["pool"]
    saved = dict(pool_settings)
    connection.close()
    connection.close_pool()
    pool_settings.update(options)
    try:
        connection.ensure_connection()  # Django opens the pool at the first connection
        connection.close()
        yield connection.pool
    finally:
        connection.close()
        connection.close_pool()
        pool_settings.clear()
        pool_settings.update(saved)


def test_settings_put_postgresql_behind_a_capped_pool():
    pool = connection.settings_dict["OPTIONS"]["pool"]
    assert pool["max_size"] >= pool["min_size"] >= 0 and pool["timeout"] > 0


@pytest.mark.django_db(transaction=True)
def test_a_burst_beyond_the_pool_answers_503_never_500_and_one_move_wins(running_table):
    """Two waves of the same move against a pool of two.

    First wave: both connections are busy elsewhere, so every racer waits out the pool's
    timeout and is told 503 with Retry-After, and nothing is recorded. Second wave: one
    connection is free; however fast the machine serves the queue, exactly one racer's move
    is recorded, the others are told 503 or, when served after the winner, that someone
    moved first (on a busy machine often none is served: the race itself is tested in
    tests/api/test_races.py and tests/hardening/test_idempotent_moves.py). No 500 in either.
    """
    table = running_table
    seat = table.to_move[0]
    user = table.seats.get(position=seat).user
    before = TableEvent.objects.filter(table=table).count()
    racers = 12
    move = {"move": json.dumps({"type": "keep"}), "based_on": table.seq}

    def burst(clients) -> tuple[list[int], list[str], list[str]]:
        statuses: list[int] = []
        retry_after: list[str] = []
        served: list[str] = []  # the bodies of the 200s
        barrier = threading.Barrier(racers)

        def submit(client):
            try:
                barrier.wait()
                response = client.post(f"/tables/{table.pk}/move", move,
                                       HTTP_HX_REQUEST="true")
                statuses.append(response.status_code)
                if response.status_code == 503:
                    retry_after.append(response.get("Retry-After", ""))
                elif response.status_code == 200:
                    served.append(response.content.decode())
            finally:
                connection.close()  # back to the pool

        threads = [threading.Thread(target=submit, args=(c,)) for c in clients]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        return statuses, retry_after, served

    with small_pool(min_size=1, max_size=2, timeout=0.3) as pool:
        # Signed in beforehand: signing in needs the database too.
        first = [client_for(user, raise_request_exception=False) for _ in range(racers)]
        second = [client_for(user, raise_request_exception=False) for _ in range(racers)]
        connection.close()
        held = [pool.getconn(), pool.getconn()]  # both busy elsewhere: nobody gets one
        try:
            exhausted, exhausted_retry, _served = burst(first)
        finally:
            pool.putconn(held.pop())
        moves_while_exhausted = TableEvent.objects.filter(table=table).count() - before
        connection.close()
        try:
            # One of the two is still busy: the burst shares one.
            shared, shared_retry, served = burst(second)
        finally:
            pool.putconn(held.pop())
        stats = pool.get_stats()
        assert stats["pool_max"] == 2
        # After the bursts the site answers again.
        assert client_for(user).get(f"/tables/{table.pk}/").status_code == 200

    assert len(exhausted) == racers and len(shared) == racers
    assert exhausted == [503] * racers, exhausted
    assert all(value.isdigit() for value in exhausted_retry + shared_retry)
    assert moves_while_exhausted == 0
    assert 500 not in shared, shared
    assert set(shared) <= {200, 503}, shared
    assert 200 in shared, shared
    # Every racer served after the winner is told that someone moved first.
    told = sum(str(StaleMove.default) in body for body in served)
    assert told == len(served) - 1, (told, shared)
    moves = TableEvent.objects.filter(table=table).count() - before
    assert moves == 1, (moves, shared)

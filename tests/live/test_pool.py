"""Bounded database use: psycopg's pool caps connections; an exhausted pool answers 503."""

from __future__ import annotations

import json
import threading
from contextlib import contextmanager

import pytest
from django.db import connection

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
    table = running_table
    seat = table.to_move[0]
    user = table.seats.get(position=seat).user
    before = TableEvent.objects.filter(table=table).count()
    racers = 24
    statuses: list[int] = []
    retry_after: list[str] = []
    barrier = threading.Barrier(racers)
    clients = [client_for(user, raise_request_exception=False) for _ in range(racers)]

    def submit(client):
        try:
            barrier.wait()
            response = client.post(f"/tables/{table.pk}/move",
                                   {"move": json.dumps({"type": "keep"}), "based_on": table.seq},
                                   HTTP_HX_REQUEST="true")
            statuses.append(response.status_code)
            if response.status_code == 503:
                retry_after.append(response.get("Retry-After", ""))
        finally:
            connection.close()  # back to the pool

    with small_pool(min_size=1, max_size=2, timeout=0.3) as pool:
        held = pool.getconn()  # one of the two is busy elsewhere: the burst shares one
        try:
            threads = [threading.Thread(target=submit, args=(c,)) for c in clients]
            for t in threads:
                t.start()
            for t in threads:
                t.join(60)
        finally:
            pool.putconn(held)
        stats = pool.get_stats()
        assert stats["pool_max"] == 2
        # After the burst the site answers again.
        assert client_for(user).get(f"/tables/{table.pk}/").status_code == 200

    assert len(statuses) == racers
    assert 500 not in statuses, statuses
    assert set(statuses) <= {200, 503}, statuses
    assert statuses.count(503) >= 1, statuses
    assert all(value.isdigit() for value in retry_after)
    moves = TableEvent.objects.filter(table=table).count() - before
    assert moves == 1, (moves, statuses)

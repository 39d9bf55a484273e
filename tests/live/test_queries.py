"""Query budgets: the dashboard is constant in the number of tables; a move stays small."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.tables.models import Invitation, Seat, Table
from tests.pages import client_for


def many_tables(user, others, count=100):
    """`count` tables of every kind with `user` seated, plus open tables they are invited to."""
    now = timezone.now()
    kinds = [Table.Status.RUNNING, Table.Status.OPEN, Table.Status.FINISHED]
    tables = Table.objects.bulk_create([
        Table(game="high-card", players=2, status=kinds[i % 3], created_by=user,
              to_move=[0] if i % 2 else [1], started_at=now, is_private=bool(i % 5 == 0))
        for i in range(count)])
    seats = []
    for i, table in enumerate(tables):
        seats.append(Seat(table=table, position=0, user=user, joined_at=now,
                          owes_since=now if (i % 2 and table.status == "running") else None))
        seats.append(Seat(table=table, position=1, user=others[i % len(others)], joined_at=now))
    Seat.objects.bulk_create(seats)
    # Open tables of the others, some of them inviting `user`.
    theirs = Table.objects.bulk_create([
        Table(game="high-card", players=2, status=Table.Status.OPEN, created_by=others[0],
              is_private=bool(i % 2)) for i in range(60)])
    Seat.objects.bulk_create([Seat(table=t, position=0, user=others[0], joined_at=now)
                              for t in theirs])
    Invitation.objects.bulk_create([Invitation(table=t, user=user, invited_by=others[0])
                                    for t in theirs[::3]])
    return tables, theirs[::3]


@pytest.mark.django_db
def test_the_dashboard_of_a_player_with_100_tables_costs_at_most_10_queries(
        make_user, django_assert_max_num_queries):
    ana = make_user("ana")
    others = [make_user(f"p{i}") for i in range(5)]
    tables, invited = many_tables(ana, others)
    client = client_for(ana)
    client.get("/")  # the first visit may store the browser's language
    with django_assert_max_num_queries(10):
        html = client.get("/").content.decode()
    waiting = [t for t in tables if t.status == "running" and t.to_move == [0]]
    assert f'badge badge-hot">{len(waiting)}<' in html
    for table in invited:  # the invitations are listed
        assert f"/tables/{table.pk}/" in html
    # Same budget with a tenth of the tables: it does not grow with them.
    with CaptureQueriesContext(connection) as many:
        client.get("/")
    Table.objects.filter(pk__in=[t.pk for t in tables[10:]]).delete()
    with CaptureQueriesContext(connection) as few:
        client.get("/")
    assert len(many) <= len(few), (len(many), len(few))


def move_queries(table) -> tuple[int, list[str]]:
    table.refresh_from_db()
    seat = table.to_move[0]
    user = table.seats.get(position=seat).user
    client = client_for(user)
    client.get(f"/tables/{table.pk}/")
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/tables/{table.pk}/move",
                               {"move": json.dumps({"type": "keep"}), "based_on": table.seq},
                               HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and b'role="alert"' not in response.content
    return len(queries), [q["sql"][:90] for q in queries.captured_queries]


@pytest.mark.django_db
def test_an_htmx_move_costs_few_queries(running_table):
    count, sql = move_queries(running_table)
    print(f"htmx move: {count} queries")
    # 25 before the pool/prefetch work (issue 10), 18 after (2 of them test savepoints);
    # 20 with the presence mark after the move and the pause bookkeeping (issue 9).
    assert count <= 20, "\n".join(sql)

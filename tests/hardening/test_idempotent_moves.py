"""A retried move submission is told it was recorded and never writes a second event."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connection
from django.test import Client

from games.tables import actions, views
from games.tables.errors import ActionError
from games.tables.models import TableEvent
from tests.pages import client_for, page

KEYED_FORM = re.compile(r'name="move" value="([^"]*)"><input type="hidden" name="based_on" '
                        r'value="(\d+)"><input type="hidden" name="key" value="([A-Za-z0-9_-]+)">')


def owing_user(table):
    table.refresh_from_db()
    return table.seats.get(position=table.to_move[0]).user


def first_form(client, table) -> dict:
    import html

    forms = KEYED_FORM.findall(page(client, table))
    assert forms, "no keyed move form on the page"
    move, based_on, key = forms[0]
    return {"move": html.unescape(move), "based_on": based_on, "key": key}


@pytest.mark.django_db
def test_every_move_form_carries_its_own_key(running_table):
    client = client_for(owing_user(running_table))
    keys = [k for _m, _b, k in KEYED_FORM.findall(page(client, running_table))]
    assert len(keys) >= 2 and len(set(keys)) == len(keys)


@pytest.mark.django_db
@pytest.mark.parametrize("htmx", [False, True])
def test_a_resubmitted_form_is_told_its_move_was_recorded(running_table, htmx):
    client = client_for(owing_user(running_table))
    data = first_form(client, running_table)
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    first = client.post(f"/tables/{running_table.pk}/move", data, **headers)
    again = client.post(f"/tables/{running_table.pk}/move", data, **headers)
    if htmx:
        html = again.content.decode()
    else:
        assert first.status_code == again.status_code == 303
        html = client.get(again["Location"]).content.decode()
    assert "Your move was recorded." in html
    assert "Someone moved first" not in html
    assert running_table.events.filter(kind="move").count() == 1
    assert running_table.events.get(kind="move").submission_key == data["key"]


@pytest.mark.django_db
def test_the_same_key_for_another_move_or_by_another_player_is_refused(running_table):
    table = running_table
    user = owing_user(table)
    seat = table.to_move[0]
    actions.check_submit_move(table_id=table.pk, seat=seat, move={"type": "keep"},
                              based_on=table.seq, actor=user, key="k" * 20)
    table.refresh_from_db()
    before = TableEvent.objects.count()
    with pytest.raises(ActionError, match="already used for another move"):
        actions.check_submit_move(table_id=table.pk, seat=seat, move={"type": "draw"},
                                  based_on=table.seq - 1, actor=user, key="k" * 20)
    assert TableEvent.objects.count() == before


@pytest.mark.django_db(transaction=True)
def test_a_double_click_racing_itself_writes_one_event_and_both_hear_success(running_table):
    table = running_table
    user = owing_user(table)
    seat, based_on = table.to_move[0], table.seq
    barrier = threading.Barrier(2)
    results = []

    def submit():
        try:
            barrier.wait()
            done = actions.check_submit_move(table_id=table.pk, seat=seat, move={"type": "keep"},
                                             based_on=based_on, actor=user, key="double-click-1")
            results.append("earlier" if done.recorded_earlier else "ok")
        except Exception as exc:  # noqa: BLE001 - shown by the assertion
            results.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["earlier", "ok"]
    assert TableEvent.objects.filter(table=table, kind="move").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_move_whose_response_was_lost_after_the_commit_is_recorded_once(running_table,
                                                                          monkeypatch):
    """The database connection drops right after the commit: the first answer is a 500;
    the browser's retry of the same form hears that the move was recorded."""
    import psycopg

    table = running_table
    user = owing_user(table)
    client = client_for(user)
    data = first_form(client, table)
    real = actions.check_submit_move

    def commit_then_lose_the_connection(**kwargs):
        result = real(**kwargs)
        pid = connection.connection.info.backend_pid
        params = connection.get_connection_params()
        with psycopg.connect(**{k: v for k, v in params.items() if k != "cursor_factory"},
                             autocommit=True) as killer:
            killer.execute("SELECT pg_terminate_backend(%s)", [pid])
        return result

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL to drop a connection")
    monkeypatch.setattr(views.actions, "check_submit_move", commit_then_lose_the_connection)
    lost = Client(HTTP_HOST="localhost", raise_request_exception=False)
    lost.force_login(user)
    assert lost.post(f"/tables/{table.pk}/move", data).status_code == 500
    monkeypatch.setattr(views.actions, "check_submit_move", real)
    connection.close()
    assert TableEvent.objects.filter(table=table, kind="move").count() == 1
    retry = lost.post(f"/tables/{table.pk}/move", data)
    assert retry.status_code == 303
    html = lost.get(retry["Location"]).content.decode()
    assert "Your move was recorded." in html and "Someone moved first" not in html
    assert TableEvent.objects.filter(table=table, kind="move").count() == 1
    # Without the key the same retry would have been refused as stale:
    stale = lost.post(f"/tables/{table.pk}/move", {**data, "key": ""}, HTTP_HX_REQUEST="true")
    assert "Someone moved first" in stale.content.decode()

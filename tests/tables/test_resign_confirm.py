"""Resigning cannot be undone, so it takes a confirmation: the page's <details> step (works
with or without JavaScript), and a bare POST or GET only shows the confirmation page."""

from __future__ import annotations

import re

from django.utils import translation

from games.tables.models import Table
from tests.pages import client_for, page


def test_the_table_page_offers_resign_behind_a_confirmation_apart_from_the_moves(running_table):
    table = running_table
    ana = table.seats.get(position=0).user
    html = page(client_for(ana), table)
    resign = html[html.index('data-testid="resign"'):]
    resign = resign[:resign.index("</details>")]
    assert '<summary' in resign and 'name="confirm" value="1"' in resign
    # Not among the move buttons: the play area holds no resign form.
    play = html[html.index('id="play-area"'):html.index('id="seats"')]
    assert "resign" not in play


def test_a_post_without_the_confirmation_resigns_nothing(running_table):
    table = running_table
    ana = table.seats.get(position=0).user
    client = client_for(ana)
    response = client.post(f"/tables/{table.pk}/resign")
    assert response.status_code == 200
    html = response.content.decode()
    assert "cannot be undone" in html
    assert re.search(r'<input type="hidden" name="confirm" value="1">', html)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING and not table.seats.get(position=0).resigned
    # The GET (a link, no JavaScript) shows the same step, in Spanish too.
    with translation.override("es"):
        response = client.get(f"/tables/{table.pk}/resign", HTTP_ACCEPT_LANGUAGE="es")
    assert response.status_code == 200
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING


def test_the_confirmed_post_resigns(running_table):
    table = running_table
    ana = table.seats.get(position=0).user
    response = client_for(ana).post(f"/tables/{table.pk}/resign", {"confirm": "1"})
    assert response.status_code == 303
    table.refresh_from_db()
    assert table.seats.get(position=0).resigned
    assert table.status == Table.Status.FINISHED


def test_no_confirmation_page_for_a_seat_that_is_not_yours(running_table, make_user):
    table = running_table
    stranger = make_user("cy")
    response = client_for(stranger).get(f"/tables/{table.pk}/resign")
    assert response.status_code == 303
    response = client_for(stranger).post(f"/tables/{table.pk}/resign", {"confirm": "1"})
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING

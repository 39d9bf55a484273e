"""The four inputs that answered 500 answer 400 with a message, and change nothing."""

from __future__ import annotations

import datetime as dt

import pytest

from games.tables.models import Invitation, Table, TableEvent, Vacation
from tests.pages import client_for

pytestmark = pytest.mark.django_db


def owing_user(table):
    table.refresh_from_db()
    return table.seats.get(position=table.to_move[0]).user


def test_a_move_nested_a_thousand_deep_is_a_400_and_writes_nothing(running_table):
    user = owing_user(running_table)
    before = TableEvent.objects.count()
    deep = "[" * 1000 + "]" * 1000
    response = client_for(user).post(f"/tables/{running_table.pk}/move",
                                     {"move": deep, "based_on": running_table.seq})
    assert response.status_code == 400
    assert "That move could not be read." in response.content.decode()
    htmx = client_for(user).post(f"/tables/{running_table.pk}/move",
                                 {"move": '{"a":' * 900 + "1" + "}" * 900,
                                  "based_on": running_table.seq}, HTTP_HX_REQUEST="true")
    assert htmx.status_code < 500 and "could not be read" in htmx.content.decode()
    assert TableEvent.objects.count() == before


def test_json_depth_counts_brackets_outside_strings_only():
    from games.tables.forms import MoveForm, json_depth

    assert json_depth('{"type": "keep"}') == 1
    assert json_depth('{"a": [[1], {"b": "[[[["}]}') == 3
    assert json_depth('"\\"[[[["') == 0
    assert not MoveForm({"move": "[" * 17 + "]" * 17, "based_on": 1}).is_valid()
    assert MoveForm({"move": "[" * 16 + "]" * 16, "based_on": 1}).is_valid()


def test_an_invite_username_with_a_nul_is_a_400(make_user):
    ana = make_user("ana")
    from games.tables import actions

    table = actions.check_create_table(creator=ana, game="high-card", players=3)
    response = client_for(ana).post(f"/tables/{table.pk}/invite", {"username": "bo\x00b"})
    assert response.status_code == 400
    assert "NUL character" in response.content.decode()
    assert Invitation.objects.count() == 0
    # The form refuses it on its own too (also where the middleware is not in front).
    from games.tables.forms import InviteForm

    form = InviteForm({"username": "bo\x00b"})
    assert not form.is_valid() and "Null characters are not allowed." in str(form.errors)


def test_any_parameter_with_a_nul_is_a_400_with_a_message(make_user):
    client = client_for(make_user("ana"))
    for response in (client.get("/tables/?q=a\x00b"), client.post("/profile/", {"display_name": "\x00"}),
                     client.get("/accounts/login/?next=/\x00")):
        assert response.status_code == 400
        assert "NUL character" in response.content.decode()


def test_a_vacation_ending_in_the_year_9999_is_a_400_and_books_nothing(make_user):
    client = client_for(make_user("ana"))
    today = dt.date.today()
    response = client.post("/vacation/", {"first_day": today.isoformat(), "last_day": "9999-12-31"})
    assert response.status_code == 400
    assert "Choose a date between the years 2000 and 2100." in response.content.decode()
    far = (today + dt.timedelta(days=400)).isoformat()
    response = client.post("/vacation/", {"first_day": far, "last_day": far})
    assert response.status_code == 400
    assert "at most a year ahead" in response.content.decode()
    assert Vacation.objects.count() == 0


def test_next_table_after_a_superscript_two_is_a_400(running_table):
    user = owing_user(running_table)
    response = client_for(user).get("/tables/next/?after=²")
    assert response.status_code == 400
    assert "That is not a table number." in response.content.decode()
    assert client_for(user).get(f"/tables/next/?after={running_table.pk}").status_code == 302
    assert Table.objects.count() == 1

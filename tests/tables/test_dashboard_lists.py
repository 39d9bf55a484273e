"""The dashboard's lists read in one query are the lists the separate selectors give,
and the links made once per list are the links reverse() makes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from games.history.people import annotate
from games.tables import selectors
from games.tables.models import Seat, Table, Vacation
from tests.pages import client_for


def tables_of_every_kind(user, other):
    """More tables of each status than a list shows, with clocks, ties and a vacation."""
    now = timezone.now()
    kinds = ([Table.Status.RUNNING] * 70 + [Table.Status.OPEN] * 55
             + [Table.Status.FINISHED] * 25 + [Table.Status.ABORTED] * 3)
    tables = Table.objects.bulk_create([
        Table(game="high-card", players=2, status=kind, created_by=user, started_at=now,
              # Every fifth table shares its last activity with the one before (ties).
              last_event_at=now - timedelta(minutes=i - (i % 5 == 1)),
              time_control={"kind": "days", "days": 1 + i % 3, "weekends": i % 7 == 0})
        for i, kind in enumerate(kinds)])
    seats = []
    for i, table in enumerate(tables):
        waiting = table.status == Table.Status.RUNNING and i % 3 != 0
        seats.append(Seat(table=table, position=0, user=user, joined_at=now,
                          owes_since=now - timedelta(hours=i % 4) if waiting else None,
                          deadline=now + timedelta(days=i % 5) if waiting and i % 2 else None,
                          paused_at=now if waiting and i % 11 == 0 else None,
                          muted=i % 13 == 0))
        seats.append(Seat(table=table, position=1, user=other, joined_at=now,
                          owes_since=None if waiting else now))
    Seat.objects.bulk_create(seats)
    Vacation.objects.create(user=user, starts_at=now + timedelta(days=1),
                            ends_at=now + timedelta(days=3), days=2)
    return tables


@pytest.mark.django_db
def test_the_one_query_lists_are_the_separate_selectors_lists(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    tables_of_every_kind(ana, bo)
    with CaptureQueriesContext(connection) as queries:
        got = selectors.dashboard_tables(ana)
    assert len(queries) == 2  # the seats with their tables, and the vacations (clocks run)

    turns = selectors.turns_waiting_on(ana)
    waiting_ids = {t["table"].pk for t in turns}
    assert [(t["table"].pk, t["deadline"], t["seat"].muted) for t in got["turns"]] == [
        (t["table"].pk, t["deadline"], t["seat"].muted) for t in turns]
    assert len(turns) > 40 and any(t["deadline"] for t in turns)
    running = [t.pk for t in selectors.tables_of(ana, status=Table.Status.RUNNING)
               if t.pk not in waiting_ids]
    assert [t.pk for t in got["running"]] == running and running
    assert [t.pk for t in got["open_mine"]] == [
        t.pk for t in selectors.tables_of(ana, status=Table.Status.OPEN)]
    assert len(got["open_mine"]) == 50
    assert [t.pk for t in got["finished"]] == [
        t.pk for t in selectors.tables_of(ana, status=Table.Status.FINISHED)[:20]]
    assert len(got["finished"]) == 20
    # Lists never decode a game state.
    assert all("snapshot" in t.get_deferred_fields()
               for key in ("running", "open_mine", "finished") for t in got[key])


@pytest.mark.django_db
def test_without_a_clock_the_turns_read_no_vacation(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    tables_of_every_kind(ana, bo)
    Seat.objects.filter(user=ana).update(deadline=None)
    with CaptureQueriesContext(connection) as queries:
        got = selectors.dashboard_tables(ana)
    assert len(queries) == 1 and got["turns"]
    assert all(t["deadline"] is None for t in got["turns"])


@pytest.mark.django_db
def test_the_dashboard_draws_each_list_with_its_words_and_links(make_user):
    ana, bo = make_user("ana"), make_user("bo", display_name="Bo B.")
    tables = tables_of_every_kind(ana, bo)
    html = client_for(ana).get("/").content.decode()
    turns = selectors.turns_waiting_on(ana)
    for turn in turns:
        assert f'<a href="/tables/{turn["table"].pk}/">High Card #{turn["table"].pk}</a>' in html
    shown = selectors.dashboard_tables(ana)
    for table in shown["running"] + shown["open_mine"] + shown["finished"]:
        assert f'<a href="/tables/{table.pk}/">High Card #{table.pk}</a>' in html
    hidden = {t.pk for t in tables} - {t["table"].pk for t in turns} - {
        t.pk for key in ("running", "open_mine", "finished") for t in shown[key]}
    assert hidden and not any(f'href="/tables/{pk}/"' in html for pk in hidden)
    assert 'with <a href="/players/bo/">Bo B.</a>' in html
    assert "2 seats" in html and "Running" in html and "Waiting for players" in html
    assert "2 days per move" in html
    ana.language = "es"
    ana.save(update_fields=["language"])
    spanish = client_for(ana).get("/").content.decode()
    assert "2 plazas" in spanish and "2 seats" not in spanish


@pytest.mark.parametrize("username", ["ana", "José", "a.b+c@d-e_f", "x y", "100%", "ü~:'()"])
def test_profile_links_made_once_per_list_are_reverses_links(username):
    assert selectors.UrlOf("history:profile", str)(username) == reverse(
        "history:profile", args=[username])


def test_table_links_made_once_per_list_are_reverses_links():
    url_of = selectors.UrlOf("tables:table")
    for pk in (1, 7, 918273645, 10**12):
        assert url_of(pk) == reverse("tables:table", args=[pk])


@pytest.mark.django_db
def test_annotate_gives_each_person_their_profile_link_and_no_link_to_a_bot(make_user):
    ana, bo = make_user("ana"), make_user("bo.b+1")
    table = Table.objects.create(game="high-card", players=3, status=Table.Status.RUNNING,
                                 created_by=ana)
    Seat.objects.bulk_create([Seat(table=table, position=0, user=ana),
                              Seat(table=table, position=1, user=bo),
                              Seat(table=table, position=2, bot_level="greedy")])
    with translation.override("en"):
        annotate([table], ana)
    assert [p["url"] for p in table.people] == ["/players/ana/", "/players/bo.b+1/", ""]
    assert table.list_url == "/tables/%d/" % table.pk and table.seats_text == "3 seats"

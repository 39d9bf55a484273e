"""The admin shows tables, seats and events of a running game without its hidden state."""

from __future__ import annotations

import html as htmllib
import json

import pytest

from games.engine import get_rules
from games.tables.models import OutgoingMail, Table, TableEvent
from games.tables.replay import current_state
from tests.hardening.pages_of_every_kind import running_tables
from tests.pages import client_for

pytestmark = pytest.mark.django_db


def hidden_values(table) -> list[str]:
    """Strings that would give away what no spectator may see."""
    rules = get_rules(table.game)
    state = current_state(table)
    dumped = rules.dump(state)
    spectator = json.dumps(rules.view(state, None))
    secrets = [str(table.seed), table.invite_token, json.dumps(dumped)]
    if "rng" in dumped:
        secrets.append(str(dumped["rng"]))

    def sequences(value):
        if isinstance(value, list) and len(value) >= 3 and all(
                isinstance(v, (str, int)) and not isinstance(v, bool) for v in value):
            yield value
        if isinstance(value, dict):
            for v in value.values():
                yield from sequences(v)
        elif isinstance(value, list):
            for v in value:
                yield from sequences(v)

    for seq in sequences(dumped):
        # A hidden order (hand, deck, bag, pile): three in a row, as any serialisation.
        for i in range(len(seq) - 2):
            run = seq[i:i + 3]
            if json.dumps(run)[1:-1] in spectator:
                continue  # shown to spectators anyway (a public row, a display)
            secrets += [json.dumps(run)[1:-1], repr(run)[1:-1]]
    return secrets


def admin_pages(client, table) -> dict[str, str]:
    paths = ["/admin/tables/table/", f"/admin/tables/table/{table.pk}/change/",
             f"/admin/tables/seat/?table__game={table.game}",
             f"/admin/tables/tableevent/?table__id__exact={table.pk}", "/admin/tables/outgoingmail/"]
    paths += [f"/admin/tables/tableevent/{pk}/change/"
              for pk in TableEvent.objects.filter(table=table).values_list("pk", flat=True)]
    paths += [f"/admin/tables/outgoingmail/{pk}/change/"
              for pk in OutgoingMail.objects.filter(table=table).values_list("pk", flat=True)]
    pages = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        pages[path] = htmllib.unescape(response.content.decode())
    return pages


def test_the_admin_pages_of_a_running_table_of_each_game_hide_its_state(make_user, monkeypatch):
    # Fixed seeds: with a random one, a position may by chance hide no three-in-a-row
    # that the spectator's view lacks, and the count below would be luck.
    seeds = iter(range(4_242_001, 4_242_100))
    monkeypatch.setattr(Table._meta.get_field("seed"), "_get_default", lambda: next(seeds))
    root = make_user("root", is_staff=True, is_superuser=True)
    client = client_for(root)
    tables = running_tables(root)
    assert set(tables) >= {"gizmos", "powerhouse", "flaming-pyramids"}
    for slug, table in tables.items():
        table.refresh_from_db()
        assert table.status == Table.Status.RUNNING, slug
        secrets = hidden_values(table)
        assert len(secrets) > 4, slug
        for path, html in admin_pages(client, table).items():
            for secret in secrets:
                assert secret not in html, (slug, path, secret[:80])
            if "/tableevent/" in path and path.endswith("/change/"):
                assert "hidden while the table is in play" in html


def test_game_fields_are_read_only_and_nothing_can_be_added_or_deleted(make_user, running_table):
    client = client_for(make_user("root", is_staff=True, is_superuser=True))
    table = running_table
    before = (table.game, table.players, table.options, table.status, table.seq)
    change = client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    for field in ("game", "players", "options", "status"):
        assert f'name="{field}"' not in change
    client.post(f"/admin/tables/table/{table.pk}/change/",
                {"game": "gizmos", "players": "4", "status": "finished", "options": "{}"})
    table.refresh_from_db()
    assert (table.game, table.players, table.options, table.status, table.seq) == before
    assert client.get("/admin/tables/table/add/").status_code == 403
    assert client.get(f"/admin/tables/table/{table.pk}/delete/").status_code == 403
    assert client.get(f"/admin/tables/tableevent/{table.events.first().pk}/delete/").status_code == 403


def test_the_repair_action_rebuilds_a_snapshot_through_the_write_path(make_user, running_table):
    client = client_for(make_user("root", is_staff=True, is_superuser=True))
    table = running_table
    good = table.snapshot
    Table.objects.filter(pk=table.pk).update(snapshot={"broken": True})
    response = client.post("/admin/tables/table/", {"action": "rebuild_snapshots",
                                                    "_selected_action": [table.pk]}, follow=True)
    assert "1 rebuilt" in response.content.decode()
    table.refresh_from_db()
    assert table.snapshot == good


def test_a_finished_tables_events_are_shown(make_user, running_table):
    from games.tables import actions

    client = client_for(make_user("root", is_staff=True, is_superuser=True))
    table = running_table
    actions.check_resign(table_id=table.pk, user=table.seats.get(position=0).user)
    event = table.events.get(kind="start")
    html = client.get(f"/admin/tables/tableevent/{event.pk}/change/").content.decode()
    assert "hidden while the table is in play" not in html and "seats" in html

"""Game records: export then import gives the same game; golden records replay in CI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.engine import get_rules
from games.history import records
from games.history.models import Result
from games.tables.models import Table
from games.tables.replay import current_state, state_from_events
from tests.pages import client_for

from .helpers import GAMES, end_by, new_table, play

GOLDEN = sorted((Path(__file__).resolve().parent.parent / "golden").glob("*.json"))


def test_there_are_golden_records_of_every_game_at_several_player_counts():
    counts = {}
    for path in GOLDEN:
        record = json.loads(path.read_text())
        counts.setdefault(record["game"], set()).add(record["players"])
    assert set(counts) == set(GAMES)
    assert all(len(c) >= 2 for c in counts.values()), counts


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_record_replays_to_its_final_state_and_result(path):
    record = json.loads(path.read_text())
    try:
        rules = get_rules(record["game"]).for_version(record["rules_version"])
    except KeyError as exc:
        raise AssertionError(
            f"{path.name} was recorded with rules version {record['rules_version']}: keep the "
            f"old behaviour for old versions or migrate the records (docs/adding-a-game.md): {exc}"
        ) from None
    state = records.replay_record(record)
    assert records.state_hash(rules, state) == record["final_state_sha256"]
    assert rules.result(state) == record["result"]
    assert rules.outcome(state) == record["outcome"]
    assert not rules.to_move(state)


@pytest.mark.django_db
@pytest.mark.parametrize("path", GOLDEN[:3], ids=[p.stem for p in GOLDEN[:3]])
def test_import_record_command_recreates_a_golden_game(path, make_user, capsys):
    make_user("owner")
    # Bot-only records need a person to own the table: name one in the record.
    record = json.loads(path.read_text())
    record["seats"][0].update(username="owner", bot=None)
    file = path.parent / f"_tmp_{path.name}"
    try:
        file.write_text(json.dumps(record))
        call_command("import_record", str(file))
    finally:
        file.unlink()
    table = Table.objects.get()
    assert table.status == Table.Status.FINISHED and not table.rated
    rules = get_rules(table.game)
    assert records.state_hash(rules, state_from_events(table)) == record["final_state_sha256"]
    assert Result.objects.filter(table=table).count() == record["players"]
    assert "replays to the record's final state" in capsys.readouterr().out


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_export_then_import_gives_the_same_game(game, make_user):
    ana, bo = make_user("ana"), make_user("bo", display_name="Bo B.")
    table = end_by(new_table([ana, bo], game, bots={2: "random"}, players=3), "finish")
    response = client_for(ana).get(f"/tables/{table.pk}/record.json")
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    record = json.loads(response.content)
    assert record["seed"] == table.seed and record["rules_version"] == 1
    assert {s["bot"] for s in record["seats"]} == {None, "random"}
    assert {s["username"] for s in record["seats"]} == {"ana", "bo", None}
    assert all("user" not in e["data"] or e["data"]["user"] in ("ana", "bo")
               for e in record["events"]), "user ids never leave the site"
    copy = records.import_record(record)
    rules = get_rules(game)
    assert rules.dump(state_from_events(copy)) == rules.dump(current_state(table))
    assert copy.outcome == table.outcome
    assert {(s.position, s.user_id, s.bot_level) for s in copy.seats.all()} == {
        (s.position, s.user_id, s.bot_level) for s in table.seats.all()}
    assert (sorted(Result.objects.filter(table=copy).values_list("position", "place", "outcome"))
            == sorted(Result.objects.filter(table=table).values_list("position", "place", "outcome")))


@pytest.mark.django_db
def test_no_record_while_running_and_bad_records_are_refused(make_user, tmp_path):
    ana, bo = make_user("ana"), make_user("bo")
    table = new_table([ana, bo], "high-card")
    assert client_for(ana).get(f"/tables/{table.pk}/record.json").status_code == 404
    play(table)
    record = records.export(Table.objects.get(pk=table.pk))
    for broken, message in [
        ({**record, "rules_version": 99}, "rules version 99"),
        ({**record, "format": "chess"}, "not a game record"),
        ({**record, "final_state_sha256": "0" * 64}, "final state"),
        ({**record, "events": record["events"][:-1]}, "final state"),
    ]:
        path = tmp_path / "r.json"
        path.write_text(json.dumps(broken))
        with pytest.raises(CommandError, match=message):
            call_command("import_record", str(path))
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_record", str(tmp_path / "bad.json"))
    assert Table.objects.count() == 1

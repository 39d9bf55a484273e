"""The snapshot is a cache: the events alone rebuild the same state."""

import random

import pytest
from django.core.management import call_command

from games.engine import get_rules
from games.tables import actions
from games.tables.models import Table
from games.tables.replay import current_state, state_from_events


def play_some(table, n):
    rules = get_rules(table.game)
    rnd = random.Random(5)
    for _ in range(n):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING:
            break
        state = current_state(table)
        seat = sorted(rules.to_move(state))[0]
        move = rnd.choice(rules.legal_moves(state, seat))
        actions.check_submit_move(table_id=table.pk, seat=seat, move=move, based_on=table.seq,
                                  actor=table.seats.get(position=seat).user)
    table.refresh_from_db()


@pytest.mark.django_db
def test_deleting_the_snapshot_and_rebuilding_gives_the_same_state(running_table):
    table = running_table
    play_some(table, 7)
    rules = get_rules(table.game)
    cached = rules.dump(current_state(table))
    Table.objects.filter(pk=table.pk).update(snapshot=None, snapshot_seq=0)
    table.refresh_from_db()
    assert rules.dump(state_from_events(table)) == cached
    assert rules.dump(current_state(table)) == cached
    assert actions.check_rebuild_snapshot(table_id=table.pk, repair=True) is False
    table.refresh_from_db()
    assert table.snapshot == cached and table.snapshot_seq == table.seq
    assert actions.check_rebuild_snapshot(table_id=table.pk) is True


@pytest.mark.django_db
def test_command_reports_a_snapshot_that_disagrees(running_table, capsys):
    table = running_table
    play_some(table, 3)
    call_command("rebuild_snapshots")
    assert "0 with a problem" in capsys.readouterr().out
    bad = dict(table.snapshot)
    bad["scores"] = [99, 99]
    Table.objects.filter(pk=table.pk).update(snapshot=bad)
    with pytest.raises(SystemExit):
        call_command("rebuild_snapshots")
    out = capsys.readouterr().out
    assert f"table {table.pk}: snapshot disagrees" in out
    call_command("rebuild_snapshots", "--repair")
    table.refresh_from_db()
    assert table.snapshot["scores"] != [99, 99]

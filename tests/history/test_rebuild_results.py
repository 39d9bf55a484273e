"""Results are a projection of the log: rebuilding them gives the same rows."""

import pytest
from django.core.management import call_command

from games.history.models import Result

from .helpers import end_by, new_table

pytestmark = pytest.mark.django_db


def test_rebuild_results_from_the_log(make_user, capsys):
    ana, bo = make_user("ana"), make_user("bo")
    finished = end_by(new_table([ana, bo], "gizmos"), "finish")
    t = new_table([ana, bo], "high-card")
    end_by(t, "resign", seat=t.seats.get(user=bo).position)
    rows = sorted(Result.objects.values_list("table", "position", "place", "outcome", "left"))
    call_command("rebuild_results")
    assert "2 finished tables, 0 with new or changed results" in capsys.readouterr().out
    # A table that finished before results existed gets them.
    Result.objects.filter(table=finished).delete()
    call_command("rebuild_results", "--missing")
    assert "1 finished tables, 1 with new or changed results" in capsys.readouterr().out
    assert sorted(Result.objects.values_list("table", "position", "place", "outcome", "left")) == rows

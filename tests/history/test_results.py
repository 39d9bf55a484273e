"""Results of every way a game can end, in every game, on the dashboard and the history page."""

from __future__ import annotations

import pytest

from games.history.models import Result
from games.tables.models import Table
from tests.pages import client_for

from .helpers import GAMES, end_by, new_table, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def three(make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    return make_user("ana"), make_user("bo"), make_user("cy", display_name="Cyrus")


def rows_of(table):
    return {r.position: r for r in Result.objects.filter(table=table)}


def seat_of(table, user):
    return table.seats.get(user=user).position


@pytest.mark.parametrize("game", GAMES)
def test_played_to_the_end(game, three):
    ana, bo, _cy = three
    table = end_by(new_table([ana, bo], game, bots={2: "random"}, players=3), "finish")
    assert table.status == Table.Status.FINISHED
    rows = rows_of(table)
    assert len(rows) == 3
    from games.engine import get_rules
    from games.tables.replay import current_state

    expected = get_rules(game).result(current_state(table))
    assert [rows[p].place for p in range(3)] == expected["places"]
    for p in expected["winners"]:
        assert rows[p].outcome in (Result.Outcome.WON, Result.Outcome.SHARED)
    assert all(r.ended == Result.Ended.FINISHED and r.left == "" for r in rows.values())
    bots = [r for r in rows.values() if r.user is None]
    assert len(bots) == 1 and bots[0].bot_level == "random"
    winner = expected["winners"][0]
    html = client_for(ana).get("/").content.decode()
    mine = rows[seat_of(table, ana)]
    assert f'data-testid="result-{table.pk}"' in html
    assert "Bot (random)" in html and "bo" in html  # opponents, the bot with its level
    if mine.outcome == Result.Outcome.WON:
        assert "Won" in html
    elif mine.outcome == Result.Outcome.SHARED:  # a tie on points (High Card)
        assert "Shared win" in html
    else:
        assert "winner:" in html
    assert "Played to the end." in html
    # The history page shows it too, with every seat's place.
    page = client_for(bo).get("/players/ana/history/").content.decode()
    assert f"#{table.pk}" in page and "Bot (random)" in page
    if game == "flaming-pyramids":  # the game's own words for its score
        assert "no tiles left" in page and "points" not in page
    assert table.seats.get(position=winner) is not None


@pytest.mark.parametrize("game", GAMES)
def test_resignation(game, three):
    ana, bo, _cy = three
    table = new_table([ana, bo], game)
    play(table, decisions=6)
    table = end_by(table, "resign", seat=seat_of(table, bo))
    assert table.status == Table.Status.FINISHED
    rows = rows_of(table)
    b, a = rows[seat_of(table, bo)], rows[seat_of(table, ana)]
    assert b.left == "resign" and b.outcome == Result.Outcome.LOST and b.place == 2
    assert a.outcome == Result.Outcome.WON and a.place == 1
    html = client_for(bo).get("/").content.decode()
    assert "You resigned." in html and "winner: ana" in html
    html = client_for(ana).get("/").content.decode()
    assert "bo resigned." in html and "Won" in html


@pytest.mark.parametrize("game", GAMES)
def test_timeout_with_the_drop_policy(game, three):
    ana, bo, _cy = three
    table = new_table([ana, bo], game, timeout_policy="drop")
    table = end_by(table, "timeout", seat=seat_of(table, ana))
    if table.status == Table.Status.RUNNING:  # High Card: the others play on
        table = play(table)
    rows = rows_of(table)
    a, b = rows[seat_of(table, ana)], rows[seat_of(table, bo)]
    assert a.left == "timeout" and a.outcome == Result.Outcome.LOST
    assert b.outcome == Result.Outcome.WON
    html = client_for(ana).get("/").content.decode()
    assert "You ran out of time." in html
    assert "ana ran out of time." in client_for(bo).get("/").content.decode()


@pytest.mark.parametrize("game", GAMES)
def test_a_running_table_is_never_abandoned_and_one_that_never_started_has_no_result(game, three):
    """Issue 9: only tables that never started are abandoned (so nobody's result says so)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.tables import actions

    ana, bo, _cy = three
    table = new_table([ana, bo], game)
    play(table, decisions=3)
    later = timezone.now() + timedelta(days=31)
    assert not actions.check_end_abandoned(table_id=table.pk, now=later)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING and not rows_of(table)
    lonely = actions.check_create_table(creator=ana, game=game, players=2)
    Table.objects.filter(pk=lonely.pk).update(abandon_warned_at=timezone.now())
    assert actions.check_end_abandoned(table_id=lonely.pk, now=later)
    lonely.refresh_from_db()
    assert lonely.status == Table.Status.ABORTED and not rows_of(lonely)
    assert client_for(ana).get("/").status_code == 200


def test_high_card_resigned_player_ranks_last_while_the_others_play_on(three):
    ana, bo, cy = three
    table = new_table([ana, bo, cy], "high-card")
    end_by(table, "resign", seat=seat_of(table, cy))
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    table = play(table)
    rows = rows_of(table)
    c = rows[seat_of(table, cy)]
    assert c.left == "resign" and c.place == 3 and c.outcome == Result.Outcome.LOST
    assert rows[seat_of(table, ana)].ended == Result.Ended.FINISHED


def test_dashboard_lists_opponents_of_running_tables(three):
    ana, bo, cy = three
    new_table([ana, bo, cy], "high-card")
    html = client_for(ana).get("/").content.decode()
    assert "Cyrus" in html and 'href="/players/bo/"' in html


def test_dashboard_annotation_takes_a_fixed_number_of_queries(three, django_assert_max_num_queries):
    from games.history.people import annotate

    ana, bo, cy = three
    tables = [end_by(new_table([ana, bo], "high-card", bots={2: "greedy"}, players=3), "finish")
              for _ in range(4)]
    for t in tables:
        t.refresh_from_db()
    with django_assert_max_num_queries(2):
        annotate(tables, ana)
    assert all(t.result_line for t in tables)


def test_history_filters_and_pages(three):
    ana, bo, cy = three
    for _ in range(3):
        end_by(new_table([ana, bo], "high-card"), "finish")
    t = new_table([ana, cy], "high-card")
    end_by(t, "resign", seat=seat_of(t, ana))
    client = client_for(ana)
    page = client.get("/players/ana/history/").content.decode()
    assert "4 games" in page
    assert "1 game" in client.get("/players/ana/history/?opponent=Cyrus").content.decode()
    assert "1 game" in client.get("/players/ana/history/?result=resign").content.decode()
    won = Result.objects.filter(user=ana, outcome="won").count()
    assert f"{won} game" in client.get("/players/ana/history/?result=won").content.decode()
    assert "0 games" in client.get("/players/ana/history/?game=gizmos").content.decode()
    # Bad filter values are ignored, never an error.
    assert client.get("/players/ana/history/?result=zzz&page=x").status_code == 200
    from games.history import views
    views.PER_PAGE, old = 2, views.PER_PAGE
    try:
        second = client.get("/players/ana/history/?page=2").content.decode()
        assert "Page 2 of 2" in second
    finally:
        views.PER_PAGE = old


def test_private_tables_stay_off_other_peoples_history(three):
    ana, bo, cy = three
    t = new_table([ana, bo], "high-card", is_private=True)
    end_by(t, "finish")
    assert f"#{t.pk}" in client_for(ana).get("/players/ana/history/").content.decode()
    assert f"#{t.pk}" in client_for(bo).get("/players/ana/history/").content.decode()
    assert f"#{t.pk}" not in client_for(cy).get("/players/ana/history/").content.decode()
    assert f"#{t.pk}" not in client_for().get("/players/ana/history/").content.decode()

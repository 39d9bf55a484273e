"""Ratings: OpenSkill's own numbers, once per rated table, rebuilt exactly from the log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from openskill.models import PlackettLuce

from games.history.models import Rating, RatingChange
from games.tables import actions
from games.tables.errors import ActionError
from games.tables.models import Table
from tests.pages import client_for

from .helpers import end_by, new_table, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    return [make_user(n) for n in ("ana", "bo", "cy")]


def rating(user, game="high-card"):
    return Rating.objects.get(game=game, user=user)


def place_of(table, user):
    return table.results.get(user=user).place


def test_a_known_sequence_gives_the_librarys_numbers(people):
    ana, bo, cy = people
    model = PlackettLuce()
    expected = {u.pk: model.rating() for u in people}
    for players in ([ana, bo, cy], [bo, cy], [cy, ana, bo]):
        table = end_by(new_table(players, "high-card", rated=True), "finish")
        ordered = sorted(table.results.all(), key=lambda r: r.position)
        teams = [[expected[r.user_id]] for r in ordered]
        new = model.rate(teams, ranks=[r.place for r in ordered])
        for r, team in zip(ordered, new):
            expected[r.user_id] = team[0]
    for user in people:
        stored = rating(user)
        assert (stored.mu, stored.sigma) == (expected[user.pk].mu, expected[user.pk].sigma)
    assert rating(ana).games == 2 and rating(bo).games == 3
    assert RatingChange.objects.count() == 8


def test_rebuild_gives_exactly_the_stored_ratings(people, capsys):
    ana, bo, cy = people
    for players, bots in (([ana, bo], {2: "greedy"}), ([bo, cy], {}), ([cy, ana], {2: "random"})):
        end_by(new_table(players, "high-card", rated=True, bots=bots,
                         players=len(players) + len(bots)), "finish")
    t = new_table([ana, bo, cy], "high-card", rated=True)
    end_by(t, "resign", seat=t.seats.get(user=cy).position)
    play(t)
    before = list(Rating.objects.order_by("pk").values("game", "user", "bot_level", "mu", "sigma",
                                                       "games", "wins"))
    call_command("rebuild_ratings")
    assert "the stored ratings agree" in capsys.readouterr().out
    # Wipe them and write them again from the log alone: the same numbers.
    Rating.objects.all().update(mu=1.0)
    call_command("rebuild_ratings", "--write")
    assert "DIFFER" in capsys.readouterr().out
    after = list(Rating.objects.order_by("game", "user", "bot_level").values(
        "game", "user", "bot_level", "mu", "sigma", "games", "wins"))
    key = lambda r: (r["game"], r["user"] or 0, r["bot_level"])  # noqa: E731
    assert sorted(before, key=key) == sorted(after, key=key)
    assert Rating.objects.filter(user=None, bot_level="greedy").exists()  # bots are rated too
    call_command("rebuild_ratings")
    assert "the stored ratings agree" in capsys.readouterr().out


def test_unrated_aborted_and_abandoned_tables_change_nothing(people):
    ana, bo, cy = people
    end_by(new_table([ana, bo], "high-card"), "finish")
    open_table = actions.check_create_table(creator=ana, game="high-card", players=2, rated=True)
    actions.check_abort_table(table_id=open_table.pk, user=ana)
    # A rated table that never started is abandoned (running tables never are: issue 9).
    lonely = actions.check_create_table(creator=ana, game="high-card", players=2, rated=True)
    Table.objects.filter(pk=lonely.pk).update(abandon_warned_at=timezone.now())
    assert actions.check_end_abandoned(table_id=lonely.pk,
                                       now=timezone.now() + timedelta(days=31))
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_rated_needs_two_people(people):
    ana = people[0]
    with pytest.raises(ActionError):
        actions.check_create_table(creator=ana, game="high-card", players=2, bots={1: "random"},
                                   rated=True)
    response = client_for(ana).post("/tables/new/", {
        "game": "high-card", "players": 2, "seat_1": "random", "rated": "on", "clock": "3"})
    assert "A rated table needs at least two people." in response.content.decode()
    response = client_for(ana).post("/tables/new/", {
        "game": "high-card", "players": 2, "rated": "on", "clock": "3"})
    assert response.status_code == 302
    from games.tables.models import Table
    assert Table.objects.get().rated and Table.objects.get().rules_version == 1


@pytest.mark.parametrize("how", ["resign", "timeout"])
@pytest.mark.parametrize("game", ["powerhouse", "gizmos"])
def test_resignation_and_timeout_count_as_the_games_result(game, how, people):
    ana, bo, _cy = people
    table = new_table([ana, bo], game, rated=True, timeout_policy="drop")
    play(table, decisions=4)
    table = end_by(table, how, seat=table.seats.get(user=bo).position)
    assert place_of(table, ana) == 1 and place_of(table, bo) == 2
    model = PlackettLuce()
    a, b = model.rating(), model.rating()
    [[a2], [b2]] = model.rate([[a], [b]], ranks=[1, 2])
    assert rating(ana, game).mu == a2.mu and rating(bo, game).mu == b2.mu
    assert rating(ana, game).wins == 1 and rating(bo, game).wins == 0


def test_ratings_change_once_and_the_leaderboard_lists_them(people):
    ana, bo, _cy = people
    table = end_by(new_table([ana, bo], "high-card", rated=True), "finish")
    assert RatingChange.objects.filter(table=table).count() == 2
    # Nothing can end the table twice: a late resignation is refused, ratings stay.
    with pytest.raises(Exception):
        actions.check_resign(table_id=table.pk, user=ana)
    assert RatingChange.objects.filter(table=table).count() == 2
    page = client_for().get("/games/high-card/leaderboard/").content.decode()
    assert "ana" in page and "bo" in page
    assert client_for().get("/games/nope/leaderboard/").status_code == 404
    assert 'href="/games/gizmos/leaderboard/"' in client_for(ana).get("/").content.decode()

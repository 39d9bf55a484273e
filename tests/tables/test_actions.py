"""The one write path, against the real database (PostgreSQL in the test command)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.engine import IllegalMove, get_rules
from games.tables import actions
from games.tables.errors import NotYourDecision, NotYourSeat, StaleMove
from games.tables.models import Table, TableEvent
from games.tables.replay import current_state
from tests.conftest import uses_postgres


def owing_seat_and_move(table):
    state = current_state(table)
    rules = get_rules(table.game)
    seat = sorted(rules.to_move(state))[0]
    return seat, rules.legal_moves(state, seat)[0]


def snapshot(table_id):
    table = Table.objects.get(pk=table_id)
    return (table.seq, table.snapshot, table.to_move, TableEvent.objects.filter(table=table).count())


def test_the_test_command_uses_postgresql():
    # The concurrency tests below only mean something on a real server database.
    if "DATABASE_URL" in __import__("os").environ:
        assert uses_postgres()


def race(table, racers: int) -> list[str]:
    """`racers` threads submit the same move from the same version at once.

    Each returns "ok", "stale" (StaleMove), "not yours now" (NotYourDecision) or
    the repr of any other exception.
    """
    seat, move = owing_seat_and_move(table)
    user = table.seats.get(position=seat).user
    based_on = table.seq
    barrier = threading.Barrier(racers)
    results: list[str] = []

    def submit():
        try:
            barrier.wait()
            actions.check_submit_move(table_id=table.pk, seat=seat, move=move,
                                      based_on=based_on, actor=user)
            results.append("ok")
        except StaleMove:
            results.append("stale")
        except NotYourDecision:
            results.append("not yours now")
        except Exception as exc:  # noqa: BLE001 - reported by the caller's assertion
            results.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=submit) for _ in range(racers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_submissions_exactly_one_wins(running_table):
    table = running_table
    based_on = table.seq
    assert sorted(race(table, 2)) == ["ok", "stale"]
    moves = TableEvent.objects.filter(table=table, kind="move")
    assert moves.count() == 1
    assert moves.get().seq == based_on + 1
    assert Table.objects.get(pk=table.pk).seq == based_on + 1


@pytest.mark.django_db(transaction=True)
def test_many_racers_one_winner_per_version(running_table):
    """Four threads race for the same version twice in a row; one event per version."""
    table = running_table
    for _ in range(2):
        table.refresh_from_db()
        outcomes = race(table, 4)
        assert outcomes.count("ok") == 1
        assert all(o in ("stale", "not yours now") for o in outcomes if o != "ok"), outcomes
    seqs = list(TableEvent.objects.filter(table=table).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


@pytest.mark.django_db
def test_move_by_a_user_without_the_seat_is_refused(running_table, make_user):
    table = running_table
    seat, move = owing_seat_and_move(table)
    intruder = make_user("eve")
    other = table.seats.exclude(position=seat).get().user
    before = snapshot(table.pk)
    with pytest.raises(NotYourSeat):
        actions.check_submit_move(table_id=table.pk, seat=seat, move=move, based_on=table.seq,
                                  actor=intruder)
    with pytest.raises(NotYourSeat):
        actions.check_submit_move(table_id=table.pk, seat=seat, move=move, based_on=table.seq,
                                  actor=other)
    with pytest.raises(NotYourSeat):  # a person cannot pose as a bot
        actions.check_submit_move(table_id=table.pk, seat=seat, move=move, based_on=table.seq,
                                  bot=True)
    assert snapshot(table.pk) == before


@pytest.mark.django_db
def test_move_by_a_seat_that_owes_nothing_is_refused(running_table):
    table = running_table
    seat, move = owing_seat_and_move(table)
    idle = 1 - seat
    user = table.seats.get(position=idle).user
    before = snapshot(table.pk)
    with pytest.raises(NotYourDecision):
        actions.check_submit_move(table_id=table.pk, seat=idle, move=move, based_on=table.seq,
                                  actor=user)
    assert snapshot(table.pk) == before


@pytest.mark.django_db
def test_stale_version_is_refused(running_table):
    table = running_table
    seat, move = owing_seat_and_move(table)
    user = table.seats.get(position=seat).user
    before = snapshot(table.pk)
    with pytest.raises(StaleMove):
        actions.check_submit_move(table_id=table.pk, seat=seat, move=move,
                                  based_on=table.seq - 1, actor=user)
    assert snapshot(table.pk) == before


@pytest.mark.django_db
@pytest.mark.parametrize("junk", [
    None, 7, "draw", [], {}, {"type": "fly"}, {"type": "play", "card": 99},
    {"type": "play", "card": "7"}, {"type": "draw", "extra": 1}, {"type": ["draw"]},
])
def test_junk_payloads_are_refused_and_change_nothing(running_table, junk):
    table = running_table
    seat, _ = owing_seat_and_move(table)
    user = table.seats.get(position=seat).user
    before = snapshot(table.pk)
    with pytest.raises(IllegalMove):
        actions.check_submit_move(table_id=table.pk, seat=seat, move=junk, based_on=table.seq,
                                  actor=user)
    assert snapshot(table.pk) == before


@pytest.mark.django_db
def test_a_legal_move_is_recorded_with_the_next_seq(running_table):
    table = running_table
    seat, move = owing_seat_and_move(table)
    user = table.seats.get(position=seat).user
    seq = table.seq
    actions.check_submit_move(table_id=table.pk, seat=seat, move=move, based_on=seq, actor=user)
    table.refresh_from_db()
    event = TableEvent.objects.get(table=table, seq=seq + 1)
    assert (event.kind, event.seat, event.data["move"], event.actor) == ("move", seat, move, user)
    assert table.seq == table.snapshot_seq == seq + 1


@pytest.mark.django_db
def test_seat_order_is_drawn_from_the_seed_and_the_table_starts_when_full(two_players):
    ana, bo = two_players
    table = actions.check_create_table(creator=ana, game="high-card", players=2)
    assert table.status == Table.Status.OPEN and table.to_move == []
    actions.check_join_table(table_id=table.pk, user=bo)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    assert [e.kind for e in table.events.all()] == ["join", "join", "start"]
    assert sorted(table.seats.values_list("position", flat=True)) == [0, 1]
    assert table.to_move == [0]


@pytest.mark.django_db
def test_private_tables_need_an_invitation_or_the_link(make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    table = actions.check_create_table(creator=ana, game="high-card", players=3,
                                       is_private=True, invitees=["bo"])
    from games.tables.errors import ActionError
    with pytest.raises(ActionError):
        actions.check_join_table(table_id=table.pk, user=cy)
    actions.check_join_table(table_id=table.pk, user=bo)
    actions.check_join_table(table_id=table.pk, user=cy, token=table.invite_token)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING


@pytest.mark.django_db
def test_resign_ends_a_two_player_game_with_the_other_as_winner(running_table):
    table = running_table
    loser = table.seats.get(position=0)
    actions.check_resign(table_id=table.pk, user=loser.user)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    assert table.outcome["winners"] == [1]
    assert table.events.last().kind == "resign"


@pytest.mark.django_db
def test_only_the_creator_aborts_and_only_before_the_start(two_players):
    from games.tables.errors import ActionError

    ana, bo = two_players
    table = actions.check_create_table(creator=ana, game="high-card", players=3)
    actions.check_join_table(table_id=table.pk, user=bo)
    with pytest.raises(ActionError):
        actions.check_abort_table(table_id=table.pk, user=bo)
    actions.check_abort_table(table_id=table.pk, user=ana)
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED


@pytest.mark.django_db(transaction=True)
def test_bot_seats_play_their_turns_in_process(make_user):
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="high-card", players=3,
                                       bots={1: "random", 2: "greedy"})
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    # With eager tasks, bots answer at once: only the human can owe a decision now.
    human = table.seats.get(user=ana).position
    assert table.to_move == [human]

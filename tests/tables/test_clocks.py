"""Clocks in days under a controlled clock (time-machine): reminders, vacation, timeouts."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone as dt_timezone

import pytest
import time_machine
from django.test import Client

from games.engine import get_rules
from games.tables import actions, clocks, selectors, tasks
from games.tables.models import Table, TableEvent, Vacation
from games.tables.replay import current_state

T0 = datetime(2027, 3, 1, 10, 0, tzinfo=dt_timezone.utc)
DAY = timedelta(days=1)


def at(delta: timedelta):
    return time_machine.travel(T0 + delta, tick=False)


def seat_of(table, user):
    return table.seats.get(user=user)


def play(table_id: int, seat: int) -> None:
    table = Table.objects.get(pk=table_id)
    legal = get_rules(table.game).legal_moves(current_state(table), seat)
    actions.check_submit_move(table_id=table_id, seat=seat, move=legal[-1], based_on=table.seq,
                              actor=table.seats.get(position=seat).user)


# -- pure clock arithmetic ----------------------------------------------------------

def test_time_controls_are_checked_and_described():
    assert clocks.clean_time_control({"kind": "move", "days": "7"}) == {"kind": "move", "days": 7}
    for bad in ({"kind": "move", "days": 4}, {"kind": "bank", "initial": 5, "increment": 1,
                                               "cap": 3}, {"kind": "hourglass"}):
        with pytest.raises(clocks.BadTimeControl):
            clocks.clean_time_control(bad)
    assert clocks.describe({"kind": "move", "days": 1}) == "1 day per move"


def test_deadlines_move_with_vacations_and_banks_refill():
    since = T0
    vacations = [(T0 + DAY, T0 + 2 * DAY), (T0 + 30 * DAY, T0 + 31 * DAY)]
    assert clocks.effective_deadline(T0 + 3 * DAY, since=since, periods=vacations) == T0 + 4 * DAY
    # A vacation already running when the clock starts freezes it from the start.
    assert clocks.effective_deadline(T0 + 3 * DAY, since=T0 + 1.5 * DAY,
                                     periods=vacations) == T0 + 3.5 * DAY
    bank = {"kind": "bank", "initial": 5, "increment": 1, "cap": 6}
    deadline, start_bank = clocks.start_clock(bank, now=T0, bank=None)
    assert deadline == T0 + 5 * DAY and start_bank == 5 * DAY
    left = clocks.stop_clock(bank, started=T0, now=T0 + 2 * DAY, bank=start_bank, frozen=DAY)
    assert left == 5 * DAY  # one day used, one frozen, one added
    assert clocks.stop_clock(bank, started=T0, now=T0 + timedelta(hours=1), bank=6 * DAY,
                             frozen=timedelta(0)) == 6 * DAY  # the cap
    assert clocks.reminder_lead(2 * DAY) == timedelta(hours=12)
    assert clocks.reminder_lead(7 * DAY) == timedelta(hours=24)


# -- the beat task under a controlled clock ------------------------------------------

@pytest.mark.django_db(transaction=True)
def test_reminder_then_vacation_day_then_bot_takes_over_and_player_reclaims(
        make_user, mailoutbox, settings):
    settings.VACATION_DAYS_PER_YEAR = 1
    ana, bo = make_user("ana"), make_user("bo")
    with at(timedelta(0)):
        table = actions.check_create_table(creator=ana, game="high-card", players=2,
                                           time_control={"kind": "move", "days": 2})
        actions.check_join_table(table_id=table.pk, user=bo)
        table.refresh_from_db()
    late = table.seats.get(position=table.to_move[0]).user
    other = bo if late == ana else ana
    assert seat_of(table, late).deadline == T0 + 2 * DAY
    mailoutbox.clear()

    with at(DAY):  # 24 hours left: more than a quarter of two days
        assert tasks.check_clocks()["reminded"] == 0
    with at(DAY + timedelta(hours=12, minutes=5)):  # less than 12 hours left
        assert tasks.check_clocks()["reminded"] == 1
        assert tasks.check_clocks()["reminded"] == 0
    [reminder] = [m for m in mailoutbox if m.to == [late.email]]
    assert "Your last vacation day is at stake" in reminder.subject  # VACATION_DAYS_PER_YEAR = 1

    with at(2 * DAY + timedelta(minutes=1)):
        assert tasks.check_clocks()["timeouts"] == ["vacation"]
    assert Vacation.objects.get(user=late, auto=True).days == 1
    assert any("vacation day was spent" in m.subject for m in mailoutbox if m.to == [late.email])
    table.refresh_from_db()
    assert not seat_of(table, late).is_bot
    with at(2 * DAY + timedelta(hours=23)):  # the day off froze the clock
        assert tasks.check_clocks()["timeouts"] == []

    with at(3 * DAY + timedelta(minutes=5)):  # no vacation left: the table's policy, a bot
        assert tasks.check_clocks()["timeouts"] == ["takeover"]
    table.refresh_from_db()
    seat = seat_of(table, late)
    assert seat.taken_over and seat.is_bot
    assert TableEvent.objects.filter(table=table, kind="takeover", seat=seat.position).exists()
    assert seat.position not in table.to_move, "the bot did not play the seat"
    # The log says so publicly: also the opponent sees it.
    viewer = Client()
    viewer.force_login(other)
    assert "ran out of time" in viewer.get(f"/tables/{table.pk}/").content.decode()

    owner = Client()
    owner.force_login(late)
    assert owner.post(f"/tables/{table.pk}/reclaim").status_code == 303
    seat.refresh_from_db()
    assert not seat.is_bot and not seat.taken_over
    assert TableEvent.objects.filter(table=table, kind="reclaim").exists()


@pytest.mark.django_db(transaction=True)
def test_booked_vacation_freezes_every_clock_of_that_user(make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 15
    ana = make_user("ana")
    with at(timedelta(0)):
        tables = [actions.check_create_table(creator=ana, game="high-card", players=2,
                                             bots={1: "random"},
                                             time_control={"kind": "move", "days": days})
                  for days in (1, 3)]
        for table in tables:
            table.refresh_from_db()
            assert seat_of(table, ana).position in table.to_move
        before = [clocks.seat_deadline(seat_of(t, ana)) for t in tables]
        # Three days off from tomorrow, in ana's time zone (UTC here).
        actions.check_book_vacation(user=ana, first_day=date(2027, 3, 2), last_day=date(2027, 3, 4))
        after = [clocks.seat_deadline(seat_of(t, ana)) for t in tables]
    # Both clocks were running when the vacation starts at midnight: three days are added.
    assert after == [before[0] + 3 * DAY, before[1] + 3 * DAY] == [T0 + 4 * DAY, T0 + 6 * DAY]
    with at(2 * DAY):
        assert tasks.check_clocks()["timeouts"] == []
        rows = selectors.seat_rows(tables[0], selectors.Viewer())
        assert [r["on_vacation"] for r in rows if r["user"] == ana] == [True]
        # The dashboard orders by the real deadlines.
        assert [t["table"].pk for t in selectors.turns_waiting_on(ana)] == [t.pk for t in tables]
    with at(3 * DAY + timedelta(hours=12)):  # past both original deadlines: still frozen
        assert tasks.check_clocks()["timeouts"] == []
    with at(4 * DAY + timedelta(minutes=5)):  # vacation over, the 1-day clock is spent
        assert tasks.check_clocks()["timeouts"] == ["vacation"]
    assert Vacation.objects.filter(user=ana).count() == 2


@pytest.mark.django_db(transaction=True)
def test_drop_policy_lets_the_game_go_on_without_the_player(make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    with at(timedelta(0)):
        table = actions.check_create_table(creator=ana, game="high-card", players=3,
                                           time_control={"kind": "move", "days": 1},
                                           timeout_policy="drop")
        for user in (bo, cy):
            actions.check_join_table(table_id=table.pk, user=user)
        table.refresh_from_db()
    late = table.to_move[0]
    with at(DAY + timedelta(minutes=1)):
        assert tasks.check_clocks()["timeouts"] == ["dropped"]
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING and table.seats.get(position=late).resigned
    assert late in current_state(table)["out"]
    assert late not in table.to_move and table.to_move


@pytest.mark.django_db(transaction=True)
def test_a_running_table_is_not_abandoned_after_30_days(running_table):
    # Only tables that never started are abandoned (tests/tables/test_timeouts.py);
    # a running one ends by its clocks.
    with time_machine.travel(datetime.now(dt_timezone.utc) + 31 * DAY, tick=False):
        assert not actions.check_end_abandoned(table_id=running_table.pk)
    running_table.refresh_from_db()
    assert running_table.status == Table.Status.RUNNING


@pytest.mark.django_db(transaction=True)
def test_dashboard_sorts_turns_by_deadline_and_next_follows_it(make_user):
    ana = make_user("ana")
    slow = actions.check_create_table(creator=ana, game="high-card", players=2, bots={1: "random"},
                                      time_control={"kind": "move", "days": 7})
    fast = actions.check_create_table(creator=ana, game="high-card", players=2, bots={1: "random"},
                                      time_control={"kind": "move", "days": 1})
    client = Client()
    client.force_login(ana)
    html = client.get("/").content.decode()
    assert html.index(f"/tables/{fast.pk}/") < html.index(f"/tables/{slow.pk}/")
    assert 'class="deadline"' in html
    assert client.get("/tables/next/")["Location"] == f"/tables/{fast.pk}/"
    assert client.get(f"/tables/next/?after={fast.pk}")["Location"] == f"/tables/{slow.pk}/"
    lobby = client.get("/tables/new/?game=high-card").content.decode()
    assert 'name="clock"' in lobby and "14 days per move" in lobby


# -- the yearly allowance at New Year ------------------------------------------------

def utc(*args) -> datetime:
    return datetime(*args, tzinfo=dt_timezone.utc)


@pytest.mark.django_db(transaction=True)
def test_new_years_vacation_days_are_the_new_years_in_the_players_own_calendar(make_user, settings):
    """1 January in Tokyo starts on 31 December in UTC. A player there books the first
    days of next year against next year's allowance and the last of this year against
    this year's, and a page (their time zone active) and a worker (none active) count
    them alike."""
    from django.utils import timezone

    from games.tables.errors import ActionError

    settings.VACATION_DAYS_PER_YEAR = 3
    ana = make_user("ana", timezone="Asia/Tokyo")
    page = Client()
    with time_machine.travel(utc(2026, 12, 20, 3), tick=False):
        booked = actions.check_book_vacation(user=ana, first_day=date(2027, 1, 1),
                                             last_day=date(2027, 1, 3))
        assert booked.starts_at == utc(2026, 12, 31, 15)   # midnight in Tokyo
        with pytest.raises(ActionError, match="You have 0 vacation days left this year"):
            actions.check_book_vacation(user=ana, first_day=date(2027, 1, 10), last_day=date(2027, 1, 10))
        # This year's days are untouched by next year's.
        actions.check_book_vacation(user=ana, first_day=date(2026, 12, 30), last_day=date(2026, 12, 30))
        page.force_login(ana)
        assert "You have 2 vacation days left this year." in page.get("/vacation/").content.decode()
    for active in ("Asia/Tokyo", "UTC", "America/Los_Angeles"):
        with timezone.override(active):
            assert clocks.vacation_days_left(ana.pk, at=utc(2026, 12, 31, 14)) == 2, active
            assert clocks.vacation_days_left(ana.pk, at=utc(2026, 12, 31, 15)) == 0, active
    with time_machine.travel(utc(2027, 1, 5, 3), tick=False):
        page.force_login(ana)   # a new session: the first one has expired by now
        assert "You have 0 vacation days left this year." in page.get("/vacation/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_clock_running_out_on_new_years_night_spends_a_day_of_the_new_year(make_user, settings):
    """The sweep (a worker: UTC) charges a clock that runs out at 03:30 on 1 January in
    Tokyo, 18:30 on 31 December in UTC, to the player's new year: a day off, not a bot."""
    settings.VACATION_DAYS_PER_YEAR = 1
    ana = make_user("ana", timezone="Asia/Tokyo")
    with time_machine.travel(utc(2026, 12, 20, 3), tick=False):
        actions.check_book_vacation(user=ana, first_day=date(2026, 12, 22), last_day=date(2026, 12, 22))
    with time_machine.travel(utc(2026, 12, 30, 18, 30), tick=False):
        table = actions.check_create_table(creator=ana, game="high-card", players=2,
                                           bots={1: "random"},
                                           time_control={"kind": "move", "days": 1})
        table.refresh_from_db()
        assert seat_of(table, ana).position in table.to_move
    with time_machine.travel(utc(2026, 12, 31, 18, 35), tick=False):
        assert tasks.check_clocks()["timeouts"] == ["vacation"]
    spent = Vacation.objects.get(user=ana, auto=True)
    assert spent.starts_at == utc(2026, 12, 31, 18, 30)
    table.refresh_from_db()
    assert not seat_of(table, ana).is_bot

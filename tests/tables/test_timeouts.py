"""Vacations and timeouts over simulated days (time-machine), the real database and a
real SMTP server on loopback. Each test names one rule a player relies on for weeks."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone as dt_timezone

import pytest
import time_machine
from django.test import Client

from games.engine import get_rules
from games.tables import actions, clocks, notify, tasks
from games.tables.models import Table, TableEvent, Vacation
from games.tables.replay import current_state
from tests.tables.mailserver import mailserver, text_of  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2027, 3, 1, 10, 0, tzinfo=dt_timezone.utc)
DAY = timedelta(days=1)
HOUR = timedelta(hours=1)


def at(delta: timedelta):
    return time_machine.travel(T0 + delta, tick=False)


def against_bot(user, *, days: int = 1, weekends: bool = False, **extra) -> Table:
    """A High Card table of `user` against a bot, waiting on `user`."""
    table = actions.check_create_table(
        creator=user, game="high-card", players=2, bots={1: "random"},
        time_control={"kind": "move", "days": days, "weekends": weekends}, **extra)
    table.refresh_from_db()
    assert table.seats.get(user=user).position in table.to_move
    return table


def two_humans(ana, bo, *, days: int = 1, **extra) -> Table:
    table = actions.check_create_table(creator=ana, game="high-card", players=2,
                                       time_control={"kind": "move", "days": days}, **extra)
    actions.check_join_table(table_id=table.pk, user=bo)
    table.refresh_from_db()
    return table


def play(table_id: int, seat: int) -> None:
    table = Table.objects.get(pk=table_id)
    legal = get_rules(table.game).legal_moves(current_state(table), seat)
    actions.check_submit_move(table_id=table_id, seat=seat, move=legal[-1], based_on=table.seq,
                              actor=table.seats.get(position=seat).user)


def spent_days(user) -> list[Vacation]:
    return list(Vacation.objects.filter(user=user, auto=True).order_by("starts_at"))


# -- 1. a vacation day is charged per player ---------------------------------------

@pytest.mark.parametrize("later_first", [True, False])
def test_one_vacation_day_covers_every_clock_that_runs_out_whatever_the_sweep_order(
        mailserver, make_user, settings, later_first):
    settings.VACATION_DAYS_PER_YEAR = 15
    ana = make_user("ana")
    # Two clocks that run out an hour apart; the sweep meets the table with the lower
    # id first, so `later_first` makes it meet the later deadline first.
    with at(HOUR if later_first else timedelta(0)):
        first_made = against_bot(ana)
    with at(timedelta(0) if later_first else HOUR):
        second_made = against_bot(ana)
    with at(DAY + 2 * HOUR):  # one beat window after both ran out
        assert tasks.check_clocks()["timeouts"] == ["vacation"]
    [day] = spent_days(ana)
    assert day.starts_at == T0 + DAY, "the day starts when the first clock ran out"
    for table in (first_made, second_made):
        seat = table.seats.get(user=ana)
        assert clocks.seat_deadline(seat) > T0 + DAY + 2 * HOUR, "one day froze both clocks"
    # One mail for the day, listing both tables it saved.
    [mail] = mailserver.to(ana, subject="vacation day")
    text = text_of(mail)
    assert f"/tables/{first_made.pk}/" in text and f"/tables/{second_made.pk}/" in text
    assert "2 tables" in mail["Subject"]


def test_eight_days_away_cost_eight_vacation_days_not_fifteen(mailserver, make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 15
    ana = make_user("ana")
    # Two clocks 20 minutes apart, the later one met first by the sweep.
    with at(timedelta(minutes=20)):
        late = against_bot(ana)
    with at(timedelta(0)):
        against_bot(ana)
    for hour in range(1, 8 * 24 + 1):  # the beat, hourly, for eight days
        with at(hour * HOUR + timedelta(minutes=30)):
            tasks.check_clocks()
    days = spent_days(ana)
    assert len(days) <= 8, f"{len(days)} vacation days for 8 days away"
    for a, b in zip(days, days[1:]):
        assert a.ends_at <= b.starts_at, "two vacation days charged for one day"
    assert len(mailserver.to(ana, subject="vacation day")) == len(days)
    assert late.seats.get(user=ana).bot_level == ""


def test_vacation_and_reminder_mails_honour_the_mail_choice(mailserver, make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 5
    ana = make_user("ana")
    with at(timedelta(0)):
        against_bot(ana, days=2)
    # ana follows the unsubscribe link of her turn mails (a real POST, no login).
    link = notify.unsubscribe_url(ana.pk, "turn")
    assert Client().post(link.replace(settings.SITE_URL, "")).status_code == 200
    ana.refresh_from_db()
    assert ana.turn_mail == "never"
    before = list(mailserver.messages)
    with at(DAY + 13 * HOUR):
        assert tasks.check_clocks()["reminded"] == 1
    with at(2 * DAY + HOUR):
        assert tasks.check_clocks()["timeouts"] == ["vacation"]
    assert mailserver.messages == before, "an unsubscribed player was mailed"


def test_a_warning_before_the_last_vacation_day_and_before_a_bot_takes_the_seat(
        mailserver, make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 1
    ana, bo = make_user("ana"), make_user("bo")
    with at(timedelta(0)):
        table = two_humans(ana, bo, days=2)
    late = table.seats.get(position=table.to_move[0]).user
    with at(DAY + 13 * HOUR):
        tasks.check_clocks()
    [warning] = mailserver.to(late, subject="last vacation day")
    assert "last vacation day is spent" in text_of(warning)
    with at(2 * DAY + HOUR):
        assert tasks.check_clocks()["timeouts"] == ["vacation"]
    [spent] = mailserver.to(late, subject="vacation day was spent")
    assert "a bot takes over your seat" in text_of(spent)
    with at(2 * DAY + 20 * HOUR):  # a reminder again, before the new deadline
        assert tasks.check_clocks()["reminded"] == 1
    [seat_warning] = mailserver.to(late, subject="Your seat is at stake")
    assert "a bot takes over your seat" in text_of(seat_warning)


def test_a_booked_vacation_can_be_shortened_or_cancelled_before_it_starts(make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 10
    ana = make_user("ana", timezone="Europe/Madrid")
    client = Client()
    with at(timedelta(0)):
        client.force_login(ana)
        assert client.post("/vacation/", {"first_day": "2027-03-10", "last_day": "2027-03-14"}
                           ).status_code == 302
        vacation = Vacation.objects.get(user=ana)
        page = client.get("/vacation/").content.decode()
        assert f'action="/vacation/{vacation.pk}/change"' in page and "Shorten" in page
        assert clocks.vacation_days_left(ana.pk) == 5
        # Overlapping days cannot be booked twice.
        client.post("/vacation/", {"first_day": "2027-03-12", "last_day": "2027-03-16"})
        assert Vacation.objects.filter(user=ana).count() == 1
        # Shorten to two days (a plain form post, no JavaScript).
        assert client.post(f"/vacation/{vacation.pk}/change",
                           {"action": "shorten", "last_day": "2027-03-11"}).status_code == 302
        vacation.refresh_from_db()
        assert vacation.days == 2 and clocks.vacation_days_left(ana.pk) == 8
        assert vacation.ends_at == datetime(2027, 3, 11, 23, 0, tzinfo=dt_timezone.utc)
        # Lengthening is not shortening.
        client.post(f"/vacation/{vacation.pk}/change", {"action": "shorten", "last_day": "2027-03-20"})
        vacation.refresh_from_db()
        assert vacation.days == 2
        actions.check_book_vacation(user=ana, first_day=date(2027, 4, 1), last_day=date(2027, 4, 2))
        assert client.post(f"/vacation/{vacation.pk}/change", {"action": "cancel"}
                           ).status_code == 302
        assert not Vacation.objects.filter(pk=vacation.pk).exists()
    with at(31 * DAY + 12 * HOUR):  # the April vacation has started: no change any more
        client.force_login(ana)
        april = Vacation.objects.get(user=ana)
        client.post(f"/vacation/{april.pk}/change", {"action": "cancel"})
        assert Vacation.objects.filter(pk=april.pk).exists()
        assert "Shorten" not in client.get("/vacation/").content.decode()
    other = make_user("bo")
    intruder = Client()
    with at(timedelta(0)):
        intruder.force_login(other)
        intruder.post(f"/vacation/{april.pk}/change", {"action": "cancel"})
    assert Vacation.objects.filter(pk=april.pk).exists()


# -- 2. timeouts that keep the game worth coming back to -----------------------------

def test_a_takeover_mails_a_one_click_way_back_that_a_mail_scanner_cannot_trigger(
        mailserver, make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    ana, bo = make_user("ana"), make_user("bo")
    with at(timedelta(0)):
        table = two_humans(ana, bo)
    late = table.seats.get(position=table.to_move[0]).user
    with at(DAY + HOUR):
        assert tasks.check_clocks()["timeouts"] == ["takeover"]
    [mail] = mailserver.to(late, subject="A bot plays your seat")
    link = re.search(r"https?://\S+/tables/back/\S+/", text_of(mail)).group(0)
    path = link[link.index("/tables/back/"):]
    scanner = Client()  # not signed in, as on a phone or a mail scanner
    page = scanner.get(path)
    assert page.status_code == 200 and b'method="post"' in page.content
    seat = table.seats.get(user=late)
    assert seat.taken_over, "a GET took the seat back"
    with at(DAY + 2 * HOUR):
        assert scanner.post(path).status_code == 200
    seat.refresh_from_db()
    assert not seat.taken_over and not seat.is_bot
    assert TableEvent.objects.filter(table=table, kind="reclaim").exists()
    assert scanner.get(path.replace("/back/", "/back/x")).status_code == 400


def test_a_table_without_another_human_waits_instead_of_bots_finishing_it(
        mailserver, make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    ana = make_user("ana")
    with at(timedelta(0)):
        table = against_bot(ana)
    seq = table.seq
    with at(DAY + HOUR):
        assert tasks.check_clocks()["timeouts"] == ["paused"]
    table.refresh_from_db()
    seat = table.seats.get(user=ana)
    assert table.status == Table.Status.RUNNING and not seat.is_bot and seat.paused_at
    assert table.seq == seq + 1, "something played the seat"
    [mail] = mailserver.to(ana, subject="The table waits for you")
    assert f"/tables/{table.pk}/" in text_of(mail)
    client = Client()
    with at(DAY + 2 * HOUR):
        client.force_login(ana)
        assert tasks.check_clocks()["timeouts"] == []  # a pause is not timed out again
        assert "paused: the table waits for" in client.get(f"/tables/{table.pk}/").content.decode()
        assert "paused: the table waits for you" in client.get("/").content.decode()
    with at(3 * DAY):  # ana is back: she plays, the bot answers, the pause is over
        play(table.pk, seat.position)
    seat.refresh_from_db()
    assert seat.paused_at is None
    if seat.owes_since is not None:  # a decision owed again gets a fresh clock
        assert clocks.seat_deadline(seat) == T0 + 4 * DAY


def test_a_paused_table_ends_by_its_rule_after_the_pause(make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    ana = make_user("ana")
    with at(timedelta(0)):
        table = against_bot(ana)
    with at(DAY + HOUR):
        assert tasks.check_clocks()["timeouts"] == ["paused"]
    with at(DAY + HOUR + clocks.PAUSE_AT_MOST - HOUR):
        assert tasks.check_clocks()["timeouts"] == []
    with at(DAY + 2 * HOUR + clocks.PAUSE_AT_MOST):
        assert tasks.check_clocks()["timeouts"] in (["dropped"], ["ended"])
    table.refresh_from_db()
    assert table.seats.get(user=ana).resigned
    assert table.status == Table.Status.FINISHED


def test_a_taken_over_seat_stops_when_the_last_human_runs_out_too(make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    with at(timedelta(0)):
        table = actions.check_create_table(creator=ana, game="high-card", players=3,
                                           time_control={"kind": "move", "days": 1})
        for user in (bo, cy):
            actions.check_join_table(table_id=table.pk, user=user)
        table.refresh_from_db()
    # Whoever owes runs out, one after another, until no human plays.
    results = []
    for day in range(1, 6):
        with at(day * DAY + HOUR):
            results += tasks.check_clocks()["timeouts"]
    table.refresh_from_db()
    assert "paused" in results and table.status == Table.Status.RUNNING
    [paused] = table.seats.filter(paused_at__isnull=False)
    assert paused.position in table.to_move
    seq = table.seq
    # The bots that took the other seats do not play on for nobody.
    with at(6 * DAY):
        tasks.resend_stuck_turns(older_than_seconds=0)
    table.refresh_from_db()
    assert table.seq == seq


def test_a_running_table_is_never_ended_while_a_clock_has_time(mailserver, make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    ana, bo = make_user("ana"), make_user("bo")
    with at(timedelta(0)):
        table = two_humans(ana, bo, days=1)
        Table.objects.filter(pk=table.pk).update(
            time_control={"kind": "bank", "initial": 60, "increment": 0, "cap": 60})
        late = table.seats.get(position=table.to_move[0])
        late.deadline = T0 + 60 * DAY
        late.save()
    with at(31 * DAY):
        result = tasks.check_clocks()
        assert result["abandoned"] == 0 and result["timeouts"] == []
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING, "ended while the clock had 29 days left"
    with at(60 * DAY + HOUR):
        assert tasks.check_clocks()["timeouts"] == ["takeover"]


def test_only_tables_that_never_started_are_abandoned_after_warning_their_creator(
        mailserver, make_user, settings):
    ana = make_user("ana")
    with at(timedelta(0)):
        table = actions.check_create_table(creator=ana, game="high-card", players=2)
    with at(22 * DAY):
        assert tasks.check_clocks()["warned"] == 0
    with at(23 * DAY + HOUR):
        assert tasks.check_clocks()["warned"] == 1
        assert tasks.check_clocks()["warned"] == 0
    [warning] = mailserver.to(ana, subject="abandoned soon")
    assert f"/tables/{table.pk}/" in text_of(warning)
    with at(29 * DAY):
        assert tasks.check_clocks()["abandoned"] == 0
    with at(30 * DAY + HOUR):
        assert tasks.check_clocks()["abandoned"] == 1
    table.refresh_from_db()
    assert table.status == Table.Status.ABORTED and table.outcome["reason"] == "abandoned"
    # A table that was never warned (its creator joined the beat late) gets a day first.
    with at(timedelta(0)):
        quiet = actions.check_create_table(creator=ana, game="high-card", players=2)
    with at(40 * DAY):
        assert tasks.check_clocks() == {"reminded": 0, "timeouts": [], "abandoned": 0, "warned": 1}
    with at(41 * DAY + HOUR):
        assert tasks.check_clocks()["abandoned"] == 1
    quiet.refresh_from_db()
    assert quiet.status == Table.Status.ABORTED


# -- 4. weekend pause -------------------------------------------------------------------

FRIDAY_NOON = datetime(2027, 3, 5, 12, 0, tzinfo=dt_timezone.utc)


def test_weekend_pause_stops_clocks_on_each_players_own_weekend(make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    ana = make_user("ana", timezone="Pacific/Auckland")      # UTC+13: Saturday 01:00 already
    bo = make_user("bo", timezone="America/Los_Angeles")     # UTC-8: Friday 04:00
    with time_machine.travel(FRIDAY_NOON, tick=False):
        tables = {u: against_bot(u, weekends=True) for u in (ana, bo)}
        plain = against_bot(make_user("cy", timezone="America/Los_Angeles"))
        assert "clocks stop on weekends" in clocks.describe(tables[ana].time_control)
    deadlines = {u: clocks.seat_deadline(t.seats.get(user=u)) for u, t in tables.items()}
    # ana: her weekend runs to Monday 00:00 in Auckland (Sunday 11:00 UTC), then one day.
    assert deadlines[ana] == datetime(2027, 3, 8, 11, 0, tzinfo=dt_timezone.utc)
    # bo: 20 hours of Friday, his weekend (Saturday 08:00 to Monday 08:00 UTC), 4 hours.
    assert deadlines[bo] == datetime(2027, 3, 8, 12, 0, tzinfo=dt_timezone.utc)
    with time_machine.travel(FRIDAY_NOON + DAY + HOUR, tick=False):
        assert tasks.check_clocks()["timeouts"] == ["paused"]  # only the table without the pause
    assert plain.seats.get(position__in=plain.to_move).paused_at is not None
    with time_machine.travel(datetime(2027, 3, 8, 11, 30, tzinfo=dt_timezone.utc), tick=False):
        assert tasks.check_clocks()["timeouts"] == ["paused"]
        assert tables[ana].seats.get(user=ana).paused_at is not None
        assert tables[bo].seats.get(user=bo).paused_at is None
        client = Client()
        client.force_login(bo)
        assert "clocks stop on weekends" in client.get(f"/tables/{tables[bo].pk}/").content.decode()
    with time_machine.travel(datetime(2027, 3, 8, 12, 30, tzinfo=dt_timezone.utc), tick=False):
        assert tasks.check_clocks()["timeouts"] == ["paused"]


def test_weekend_pause_on_the_new_table_form_and_in_a_time_bank(make_user):
    ana = make_user("ana", timezone="Europe/Madrid")
    client = Client()
    with time_machine.travel(FRIDAY_NOON, tick=False):
        client.force_login(ana)
        form = client.get("/tables/new/?game=high-card").content.decode()
        assert 'name="weekends"' in form
        response = client.post("/tables/new/", {
            "game": "high-card", "players": "2", "seat_1": "random", "clock": "bank",
            "bank_initial": "2", "bank_increment": "0", "bank_cap": "5", "weekends": "on",
            "timeout_policy": "bot"})
        assert response.status_code == 302
        table = Table.objects.get(created_by=ana)
        assert table.time_control == {"kind": "bank", "initial": 2, "increment": 0, "cap": 5,
                                      "weekends": True}
        seat = table.seats.get(user=ana)
    # Friday 13:00 Madrid to Monday 07:00: 11 hours of Friday, the weekend frozen, 7 hours.
    monday = datetime(2027, 3, 8, 6, 0, tzinfo=dt_timezone.utc)
    frozen = clocks.frozen_between(clocks.frozen_periods(seat), seat.owes_since, monday)
    assert frozen == 48 * HOUR
    assert clocks.stop_clock(table.time_control, started=seat.owes_since, now=monday,
                             bank=seat.bank, frozen=frozen) == 30 * HOUR
    # Two days of bank: 11 hours of Friday, all of Monday, 13 hours of Tuesday.
    assert clocks.seat_deadline(seat) == datetime(2027, 3, 9, 12, 0, tzinfo=dt_timezone.utc)


# -- 3. "the player is dropped" lets the others play on ------------------------------------

@pytest.mark.parametrize("game", ["flaming-pyramids", "gizmos", "powerhouse"])
def test_a_dropped_player_leaves_and_the_others_play_on_in_every_game(make_user, settings, game):
    settings.VACATION_DAYS_PER_YEAR = 0
    users = [make_user(n) for n in ("ana", "bo", "cy")]
    with at(timedelta(0)):
        table = actions.check_create_table(creator=users[0], game=game, players=3,
                                           time_control={"kind": "move", "days": 1},
                                           timeout_policy="drop")
        for user in users[1:]:
            actions.check_join_table(table_id=table.pk, user=user)
        table.refresh_from_db()
    [late] = table.to_move
    with at(DAY + HOUR):
        assert tasks.check_clocks()["timeouts"] == ["dropped"]
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING and table.to_move and late not in table.to_move
    assert table.seats.get(position=late).resigned
    # One more drop leaves one player: they win.
    [second] = table.to_move
    with at(2 * DAY + 2 * HOUR):
        assert tasks.check_clocks()["timeouts"] == ["dropped"]
    table.refresh_from_db()
    assert table.seats.get(position=second).resigned
    [winner] = [s.position for s in table.seats.all() if not s.resigned]
    assert table.status == Table.Status.FINISHED and table.outcome["winners"] == [winner]


@pytest.mark.parametrize("game", ["flaming-pyramids", "gizmos", "powerhouse"])
def test_resigning_in_a_two_player_game_makes_the_other_the_winner(make_user, game):
    ana, bo = make_user("ana"), make_user("bo")
    table = actions.check_create_table(creator=ana, game=game, players=2)
    actions.check_join_table(table_id=table.pk, user=bo)
    actions.check_resign(table_id=table.pk, user=ana)
    table.refresh_from_db()
    winner = table.seats.get(user=bo).position
    assert table.status == Table.Status.FINISHED and table.outcome["winners"] == [winner]


@pytest.mark.django_db
def test_a_spent_day_ends_where_a_booked_vacation_begins(make_user):
    """Found by the month simulation (SIM_SEED=187344): no hour frozen, or counted, twice."""
    from datetime import timedelta as _td

    from django.utils import timezone as _tz

    from games.tables import actions as _actions
    from games.tables.models import Vacation as _Vacation

    cy = make_user("cy")
    at = _tz.now()
    booked = _Vacation.objects.create(user=cy, starts_at=at + _td(hours=5),
                                      ends_at=at + _td(hours=29), days=1, auto=False)
    spent = _actions.do_spend_vacation_day(user_id=cy.pk, at=at, seats=[])
    assert spent.starts_at == at and spent.ends_at == booked.starts_at and spent.days == 1
    alone = make_user("dee")
    free = _actions.do_spend_vacation_day(user_id=alone.pk, at=at, seats=[])
    assert free.ends_at == at + _td(days=1)

"""Clocks in days: time controls, deadlines and vacations.

A clock is stored as a deadline (`Seat.deadline`, set when the seat starts to
owe a decision), never as a counter, so it survives restarts. Vacations are
stored as periods (`Vacation`); a deadline is pushed back by the part of every
vacation that falls inside the running clock when it is read
(`effective_deadline`), so a vacation booked after a clock started freezes it
too. The functions at the top are pure; the reads at the bottom use the ORM.
"""

from __future__ import annotations

import zoneinfo
from datetime import date, datetime, time, timedelta
from datetime import timezone as dt_timezone
from typing import Iterable

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

DAY = timedelta(days=1)
PER_MOVE_DAYS = (1, 2, 3, 5, 7, 14)
BANK_LIMITS = {"initial": (1, 60), "increment": (0, 14), "cap": (1, 90)}
REMINDER_AT_MOST = timedelta(hours=24)
# Only tables that never started are abandoned: after this long without an event,
# and only after their creator was warned ABANDON_WARNING ahead.
ABANDONED_AFTER = timedelta(days=30)
ABANDON_WARNING = timedelta(days=7)
# A table that waits for a player out of time (no other human plays there) waits
# this long; then the player is dropped and the game's rules say how it ends.
PAUSE_AT_MOST = timedelta(days=30)
# Weekend pause: periods are generated this far past the start of a clock.
WEEKEND_HORIZON = timedelta(days=400)

Period = tuple[datetime, datetime]


class BadTimeControl(ValueError):
    """A time control outside the offered choices."""


# -- time controls (pure) -------------------------------------------------------

def clean_time_control(data: dict | None) -> dict:
    """A valid time control from untrusted input; raises BadTimeControl."""
    if not data:
        return {"kind": "move", "days": 3}
    weekends = data.get("weekends", False)
    if weekends not in (True, False):
        raise BadTimeControl(_("The weekend pause is on or off."))
    extra = {"weekends": True} if weekends else {}
    kind = data.get("kind")
    try:
        if kind == "move":
            days = int(data.get("days"))
            if days not in PER_MOVE_DAYS:
                raise BadTimeControl(_("Choose 1, 2, 3, 5, 7 or 14 days per move."))
            return {"kind": "move", "days": days, **extra}
        if kind == "bank":
            values = {key: int(data.get(key)) for key in BANK_LIMITS}
        else:
            raise BadTimeControl(_("Unknown time control."))
    except (TypeError, ValueError) as exc:
        if isinstance(exc, BadTimeControl):
            raise
        raise BadTimeControl(_("The time control must be whole days.")) from None
    for key, (low, high) in BANK_LIMITS.items():
        if not low <= values[key] <= high:
            raise BadTimeControl(_("Time bank values out of range."))
    if values["cap"] < values["initial"]:
        raise BadTimeControl(_("The cap must be at least the initial time bank."))
    return {"kind": "bank", **values, **extra}


def describe(tc: dict) -> str:
    """The time control in words, for the lobby and the table page."""
    if tc.get("kind") == "bank":
        text = _("Time bank: %(initial)s days, +%(increment)s per move, at most %(cap)s") % tc
    else:
        days = tc.get("days", 3)
        text = ngettext("%(days)s day per move", "%(days)s days per move", days) % {"days": days}
    if tc.get("weekends"):
        text = _("%(clock)s; clocks stop on weekends (each player's own Saturday and Sunday)") % {
            "clock": text}
    return text


def start_clock(tc: dict, *, now: datetime, bank: timedelta | None) -> tuple[datetime, timedelta | None]:
    """The deadline of a decision that starts `now`, and the bank it starts from."""
    if tc.get("kind") == "bank":
        bank = bank if bank is not None else tc["initial"] * DAY
        return now + bank, bank
    return now + tc.get("days", 3) * DAY, None


def stop_clock(tc: dict, *, started: datetime, now: datetime, bank: timedelta | None,
               frozen: timedelta) -> timedelta | None:
    """The bank left after a decision that took from `started` to `now` (bank tables)."""
    if tc.get("kind") != "bank":
        return None
    bank = bank if bank is not None else tc["initial"] * DAY
    used = max(timedelta(0), now - started - frozen)
    left = max(timedelta(0), bank - used) + tc["increment"] * DAY
    return min(left, tc["cap"] * DAY)


def merge(periods: Iterable[Period]) -> list[Period]:
    """Periods sorted, with overlapping ones joined."""
    merged: list[list[datetime]] = []
    for start, end in sorted(periods):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(s, e) for s, e in merged]


def effective_deadline(deadline: datetime, *, since: datetime, periods: Iterable[Period]) -> datetime:
    """`deadline` pushed back by the vacation time inside the clock that started at `since`."""
    due = deadline
    for start, end in merge(periods):
        if end <= since:
            continue
        if start > due:
            break
        due += end - max(start, since)
    return due


def frozen_between(periods: Iterable[Period], start: datetime, end: datetime) -> timedelta:
    """How much of [start, end] fell inside vacations."""
    total = timedelta(0)
    for s, e in merge(periods):
        lo, hi = max(s, start), min(e, end)
        if hi > lo:
            total += hi - lo
    return total


def weekend_periods(tz_name: str, start: datetime, end: datetime) -> list[Period]:
    """Every Saturday 00:00 to Monday 00:00 in zone `tz_name` that touches [start, end]."""
    tz = zone(tz_name)
    day = start.astimezone(tz).date() - timedelta(days=2)
    last = end.astimezone(tz).date() + DAY
    periods = []
    day += timedelta(days=(5 - day.weekday()) % 7)  # the first Saturday
    while day <= last:
        # In UTC: arithmetic between two times of one ZoneInfo ignores DST changes.
        periods.append((datetime.combine(day, time.min, tzinfo=tz).astimezone(dt_timezone.utc),
                        datetime.combine(day + 2 * DAY, time.min, tzinfo=tz)
                        .astimezone(dt_timezone.utc)))
        day += timedelta(days=7)
    return periods


def zone(tz_name: str):
    """The user's time zone, UTC when it is unknown."""
    try:
        return zoneinfo.ZoneInfo(tz_name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def reminder_lead(allowance: timedelta) -> timedelta:
    """Remind this long before the deadline: 24 hours or a quarter of the allowance."""
    return min(REMINDER_AT_MOST, allowance / 4)


def allowance(tc: dict, bank: timedelta | None) -> timedelta:
    """The time the current decision was given when its clock started."""
    if tc.get("kind") == "bank":
        return bank if bank is not None else tc["initial"] * DAY
    return tc.get("days", 3) * DAY


# -- vacations (reads) -------------------------------------------------------------

def vacation_periods(user_id: int) -> list[Period]:
    """Every vacation period of a user, booked or spent."""
    from .models import Vacation

    return list(Vacation.objects.filter(user_id=user_id).values_list("starts_at", "ends_at"))


def vacation_periods_of(user_ids: Iterable[int]) -> dict[int, list[Period]]:
    """Every vacation period of several users, by user, in one query."""
    from .models import Vacation

    periods: dict[int, list[Period]] = {}
    ids = list(user_ids)
    if ids:
        for user_id, start, end in Vacation.objects.filter(user_id__in=ids).values_list(
                "user_id", "starts_at", "ends_at"):
            periods.setdefault(user_id, []).append((start, end))
    return periods


def vacation_days_used(user_id: int, year: int, tz_name: str) -> int:
    """Vacation days counted against `year`'s allowance: those of the vacations that start
    in that year of the player's own calendar (`tz_name`, their time zone).

    Whatever time zone is active: a page activates the player's, a worker none, and
    both must count a vacation booked from 1 January (midnight there, still 31 December
    in UTC east of Greenwich) against the same year."""
    from django.db.models import Sum

    from .models import Vacation

    tz = zone(tz_name)
    return Vacation.objects.filter(
        user_id=user_id, starts_at__gte=datetime(year, 1, 1, tzinfo=tz),
        starts_at__lt=datetime(year + 1, 1, 1, tzinfo=tz)).aggregate(n=Sum("days"))["n"] or 0


def vacation_days_left(user_id: int, *, at: datetime | None = None,
                       tz_name: str | None = None) -> int:
    """What is left of the yearly allowance (VACATION_DAYS_PER_YEAR) in the year that `at`
    falls in on the player's own calendar (`tz_name`; read from the user when not given)."""
    at = at or timezone.now()
    if tz_name is None:
        from accounts.models import User

        tz_name = User.objects.filter(pk=user_id).values_list("timezone", flat=True).first() or "UTC"
    year = at.astimezone(zone(tz_name)).year
    return max(0, settings.VACATION_DAYS_PER_YEAR - vacation_days_used(user_id, year, tz_name))


def on_vacation(user_ids: Iterable[int], *, at: datetime | None = None) -> set[int]:
    """Which of these users are on vacation at `at`."""
    from .models import Vacation

    at = at or timezone.now()
    return set(Vacation.objects.filter(user_id__in=list(user_ids), starts_at__lte=at,
                                       ends_at__gt=at).values_list("user_id", flat=True))


def local_day_bounds(day_from: date, day_to: date, tz_name: str) -> Period:
    """Midnight starting `day_from` to midnight ending `day_to`, in the user's time zone."""
    tz = zone(tz_name)
    start = datetime.combine(day_from, time.min, tzinfo=tz)
    end = datetime.combine(day_to + DAY, time.min, tzinfo=tz)
    return start, end


# -- seats (reads) ---------------------------------------------------------------

def frozen_periods(seat, vacations: list[Period] | None = None, *,
                   since: datetime | None = None) -> list[Period]:
    """When the seat's clock stands still: its player's vacations, and weekends where
    the table's time control pauses on them (in the player's own time zone)."""
    if not seat.user_id:
        return []
    periods = list(vacations if vacations is not None else vacation_periods(seat.user_id))
    if (seat.table.time_control or {}).get("weekends"):
        since = since or seat.owes_since or timezone.now()
        periods += weekend_periods(seat.user.timezone, since, since + WEEKEND_HORIZON)
    return periods


def seat_deadline(seat, periods: list[Period] | None = None) -> datetime | None:
    """The moment the seat's current clock runs out, vacations (and weekends) included.

    `periods`: the player's vacations, when the caller has read them already.
    """
    if seat.deadline is None or seat.owes_since is None:
        return None
    return effective_deadline(seat.deadline, since=seat.owes_since,
                              periods=frozen_periods(seat, periods))


def running_clocks():
    """Seats of people whose clock is running, with their table and user.

    A seat the table waits for (paused: its clock ran out with no other human
    at the table) is not among them: its clock has nothing left to do.
    """
    from .models import Seat, Table

    return (Seat.objects.filter(table__status=Table.Status.RUNNING, owes_since__isnull=False,
                                deadline__isnull=False, user__isnull=False, bot_level="",
                                paused_at__isnull=True)
            .select_related("table", "user"))


def seats_out_of_time(user_id: int, *, now: datetime) -> list[tuple]:
    """(seat, deadline) of every running clock of the user that has run out at `now`."""
    vacations = vacation_periods(user_id)
    out = []
    for seat in running_clocks().filter(user_id=user_id):
        due = seat_deadline(seat, vacations)
        if due <= now:
            out.append((seat, due))
    return out


def abandoned_tables(*, now: datetime):
    """Ids of tables that never started, without an event for ABANDONED_AFTER, whose
    creator was warned at least a day before. Running tables are never abandoned:
    their clocks decide."""
    from django.db.models import F

    from .models import Table

    return list(Table.objects.filter(status=Table.Status.OPEN,
                                     last_event_at__lt=now - ABANDONED_AFTER,
                                     abandon_warned_at__gte=F("last_event_at"),
                                     abandon_warned_at__lte=now - DAY)
                .values_list("pk", flat=True))


def tables_to_warn(*, now: datetime):
    """Ids of tables that never started and will be abandoned in ABANDON_WARNING,
    whose creator was not warned since their last event."""
    from django.db.models import F, Q

    from .models import Table

    return list(Table.objects.filter(status=Table.Status.OPEN,
                                     last_event_at__lt=now - (ABANDONED_AFTER - ABANDON_WARNING))
                .filter(Q(abandon_warned_at__isnull=True)
                        | Q(abandon_warned_at__lt=F("last_event_at")))
                .values_list("pk", flat=True))


def pauses_over(*, now: datetime) -> list[tuple[int, int]]:
    """(table id, position) of seats a running table waited for longer than PAUSE_AT_MOST."""
    from .models import Seat, Table

    return list(Seat.objects.filter(table__status=Table.Status.RUNNING,
                                    paused_at__lt=now - PAUSE_AT_MOST)
                .values_list("table_id", "position"))


def clock_work(*, now: datetime) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(seats out of time, seats to remind) as (table id, position) pairs."""
    out, remind = [], []
    periods: dict[int, list[Period]] = {}
    for seat in running_clocks():
        if seat.user_id not in periods:
            periods[seat.user_id] = vacation_periods(seat.user_id)
        due = seat_deadline(seat, periods[seat.user_id])
        if due <= now:
            out.append((seat.table_id, seat.position))
        elif seat.reminded_at is None:
            lead = reminder_lead(allowance(seat.table.time_control, seat.bank))
            if now >= due - lead:
                remind.append((seat.table_id, seat.position))
    return out, remind


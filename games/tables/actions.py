"""The only writers of tables, seats and events.

Every write, from a view, a socket, a task or a command, goes through a
`check_*` function here: it locks the table, validates, and hands over to a
`do_*` function that writes and schedules effects to run after commit.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine import Rng, get_rules

from . import clocks, effects, presence, signals
from .errors import ActionError, NotYourDecision, NotYourSeat, StaleMove, TableClosed
from .models import BotIncident, Invitation, Seat, Table, TableEvent, Vacation
from .plugins import game_config
from .replay import current_state, remember_state

log = logging.getLogger(__name__)
User = get_user_model()

# Seat order at the start is drawn from the table's seed with this salt, so it
# is independent of the game's own draws from the same seed.
SEATING_SALT = 0x5EA7
# Vacations are booked at most this far ahead (dates beyond are refused, not computed with).
VACATION_MAX_AHEAD_DAYS = 366


def _lock(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except (Table.DoesNotExist, ValueError, TypeError):
        raise ActionError(_("There is no such table.")) from None


def _append_event(table: Table, *, kind: str, seat: int | None = None, data: dict | None = None,
                  actor=None, submission_key: str | None = None) -> TableEvent:
    """Write the next event of `table` and bump its seq (the table is locked)."""
    table.seq += 1
    table.last_event_at = timezone.now()
    return TableEvent.objects.create(table=table, seq=table.seq, kind=kind, seat=seat,
                                     data=data or {}, actor=actor, submission_key=submission_key)


def _store_state(table: Table, state: Any, *, ended_reason: str | None = None,
                 outcome: dict | None = None) -> list[int]:
    """Refresh the snapshot and derived columns; returns seats that newly owe a decision."""
    rules = get_rules(table.game)
    table.snapshot = rules.dump(state)
    table.snapshot_seq = table.seq
    owing = sorted(rules.to_move(state))
    outcome = outcome or rules.outcome(state)
    finished = outcome is not None or bool(ended_reason)
    if finished:
        owing = []
        table.status = Table.Status.FINISHED
        table.finished_at = timezone.now()
        table.outcome = outcome or {"winners": [], "reason": ended_reason}
    table.to_move = owing
    table.save()
    if finished:
        signals.table_finished.send(sender=Table, table=table, state=state)
    now = timezone.now()
    newly = []
    tc = table.time_control or {}
    for seat in table.seats.all():
        owes = seat.position in owing
        if owes and seat.owes_since is None:
            # Each owing seat runs its own clock, also for simultaneous decisions.
            seat.owes_since = now
            newly.append(seat.position)
            if not seat.is_bot:
                seat.deadline, seat.bank = clocks.start_clock(tc, now=now, bank=seat.bank)
            seat.reminded_at = None
            seat.save(update_fields=["owes_since", "deadline", "bank", "reminded_at"])
        elif not owes and seat.owes_since is not None:
            if seat.deadline is not None and seat.user_id:
                frozen = clocks.frozen_between(clocks.frozen_periods(seat),
                                               seat.owes_since, now)
                seat.bank = clocks.stop_clock(tc, started=seat.owes_since, now=now,
                                              bank=seat.bank, frozen=frozen)
            seat.owes_since = None
            seat.deadline = None
            seat.paused_at = None  # a paused seat that decided: the player is back
            seat.save(update_fields=["owes_since", "deadline", "bank", "paused_at"])
    return newly


def _save_and_push(table: Table) -> None:
    """Save a lobby change (no new game state) and redraw the table's pages after commit."""
    table.save()
    effects.after_commit_changed(table.pk, table.seq)


def _start_if_full(table: Table) -> None:
    """Start the table once no seat is free; otherwise just save and push."""
    if table.seats.filter(user__isnull=True, bot_level="").exists():
        _save_and_push(table)
    else:
        do_start_table(table=table)


# -- creating and filling tables ----------------------------------------------

def check_create_table(*, creator, game: str, players: int, bots: dict[int, str] | None = None,
                       options: dict | None = None, is_private: bool = False,
                       invitees: list[str] | tuple = (), time_control: dict | None = None,
                       timeout_policy: str = Table.TimeoutPolicy.BOT, rated: bool = False,
                       seating: list[dict] | None = None) -> Table:
    """Validate and create a table; the creator takes the first seat."""
    try:
        config = game_config(game)
    except KeyError:
        raise ActionError(_("There is no such game.")) from None
    rules = config.rules
    rules.check_players(players)
    options = rules.clean_options(options)
    try:
        time_control = clocks.clean_time_control(time_control)
    except clocks.BadTimeControl as exc:
        raise ActionError(str(exc)) from None
    if timeout_policy not in Table.TimeoutPolicy.values:
        raise ActionError(_("Unknown timeout policy."))
    bots = dict(bots or {})
    for position, level in bots.items():
        if not 1 <= position < players:
            raise ActionError(_("A bot can only take another seat than yours."))
        if level not in config.bot_levels:
            raise ActionError(_("There is no bot level %(level)s.") % {"level": level})
    if rated and players - len(bots) < 2:
        raise ActionError(_("A rated table needs at least two people."))
    users = []
    for name in invitees:
        name = name.strip()
        if not name:
            continue
        user = User.objects.filter(username__iexact=name).first()
        if user is None:
            raise ActionError(_("There is no player called %(name)s.") % {"name": name})
        if user != creator and user not in users:
            users.append(user)
    with transaction.atomic(durable=True):
        return do_create_table(creator=creator, game=game, players=players, bots=bots,
                               options=options, is_private=is_private, invitees=users,
                               time_control=time_control, timeout_policy=timeout_policy,
                               rated=rated, seating=seating)


def do_create_table(*, creator, game: str, players: int, bots: dict[int, str], options: dict,
                    is_private: bool, invitees: list, time_control: dict | None = None,
                    timeout_policy: str = Table.TimeoutPolicy.BOT, rated: bool = False,
                    seating: list[dict] | None = None) -> Table:
    """Create the table, its seats and invitations; start it if it is already full."""
    table = Table.objects.create(game=game, players=players, options=options,
                                 is_private=is_private, created_by=creator,
                                 time_control=time_control or clocks.clean_time_control(None),
                                 timeout_policy=timeout_policy, rated=bool(rated),
                                 rules_version=get_rules(game).rules_version, seating=seating)
    now = timezone.now()
    Seat.objects.bulk_create([
        Seat(table=table, position=i, user=creator if i == 0 else None,
             bot_level=bots.get(i, ""), joined_at=now if (i == 0 or i in bots) else None)
        for i in range(players)
    ])
    table = Table.objects.select_for_update().get(pk=table.pk)
    _append_event(table, kind=TableEvent.Kind.JOIN, seat=0, actor=creator,
                  data={"user": creator.pk, "bots": {str(k): v for k, v in bots.items()}})
    for user in invitees:
        Invitation.objects.create(table=table, user=user, invited_by=creator)
    effects.after_commit_invitations(table.pk, _invitees_to_mail(creator, invitees))
    _start_if_full(table)
    # The creator is on their way to the table's page: a decision owed at the start is seen.
    presence.mark_present(table_id=table.pk, user=creator)
    return table


def can_see(table: Table, user, *, token: str | None = None) -> bool:
    """Whether `user` may view (and join) `table`."""
    if not table.is_private:
        return True
    # The link works only while seats are open to take: not once the table is full or started.
    if token and table.status == Table.Status.OPEN and secrets.compare_digest(
            str(token), table.invite_token):
        return True
    if user is None or not user.is_authenticated:
        return False
    return (table.created_by_id == user.pk or table.seats.filter(user=user).exists()
            or table.invitations.filter(user=user).exists())


def check_rotate_invite(*, table_id: int, user) -> Table:
    """The creator makes a new invitation link; the old one stops working."""
    from .models import new_token

    with transaction.atomic(durable=True):
        table = _lock(table_id)
        if table.created_by_id != getattr(user, "pk", None):
            raise ActionError(_("Only the creator can make a new invitation link."))
        if table.status != Table.Status.OPEN:
            raise ActionError(_("This table is not open for players."))
        table.invite_token = new_token()
        _save_and_push(table)
        return table


def check_join_table(*, table_id: int, user, token: str | None = None) -> Table:
    """Take a free seat at an open table."""
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        if table.status != Table.Status.OPEN:
            raise ActionError(_("This table is not open for players."))
        if not can_see(table, user, token=token):
            raise ActionError(_("This table is by invitation only."))
        if table.seats.filter(user=user).exists():
            raise ActionError(_("You already have a seat at this table."))
        seat = table.seats.filter(user__isnull=True, bot_level="").order_by("position").first()
        if seat is None:
            raise ActionError(_("This table is full."))
        return do_join_table(table=table, seat=seat, user=user)


def do_join_table(*, table: Table, seat: Seat, user) -> Table:
    """Seat `user`; start the table when the last seat is taken."""
    seat.user = user
    seat.joined_at = timezone.now()
    seat.save(update_fields=["user", "joined_at"])
    _append_event(table, kind=TableEvent.Kind.JOIN, seat=seat.position, actor=user,
                  data={"user": user.pk})
    _start_if_full(table)
    # Taking the last seat starts the game in front of the player: no "your turn" mail for it.
    presence.mark_present(table_id=table.pk, user=user)
    return table


def check_leave_table(*, table_id: int, user) -> Table:
    """Give up a seat before the start (the creator aborts instead)."""
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        if table.status != Table.Status.OPEN:
            raise ActionError(_("The game has started: resign instead."))
        seat = table.seats.filter(user=user).first()
        if seat is None:
            raise NotYourSeat()
        if table.created_by_id == user.pk:
            raise ActionError(_("You created this table: abort it instead."))
        seat.user = None
        seat.joined_at = None
        seat.save(update_fields=["user", "joined_at"])
        _append_event(table, kind=TableEvent.Kind.LEAVE, seat=seat.position, actor=user)
        _save_and_push(table)
        return table


def check_abort_table(*, table_id: int, user) -> Table:
    """The creator calls off a table that has not started."""
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        if table.created_by_id != user.pk:
            raise ActionError(_("Only the creator can abort this table."))
        if table.status != Table.Status.OPEN:
            raise ActionError(_("Only a table that has not started can be aborted."))
        _append_event(table, kind=TableEvent.Kind.ABORT, actor=user)
        table.status = Table.Status.ABORTED
        table.finished_at = timezone.now()
        _save_and_push(table)
        return table


def check_invite(*, table_id: int, user, username: str) -> Invitation:
    """Invite a player by username to a table one sits at."""
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        if table.status != Table.Status.OPEN:
            raise ActionError(_("This table is not open for players."))
        if not table.seats.filter(user=user).exists():
            raise NotYourSeat()
        invitee = User.objects.filter(username__iexact=username.strip()).first()
        if invitee is None:
            raise ActionError(_("There is no player called %(name)s.") % {"name": username[:40]})
        invitation, created = Invitation.objects.get_or_create(
            table=table, user=invitee, defaults={"invited_by": user})
        if created:
            effects.after_commit_invitations(table.pk, _invitees_to_mail(user, [invitee]))
        return invitation


def _invitees_to_mail(inviter, invitees) -> list[int]:
    """Invitees that get a mail: a few an hour from one inviter; the rest see the
    invitation on their dashboard only (the invitations just written count)."""
    from datetime import timedelta

    from django.conf import settings

    since = timezone.now() - timedelta(hours=1)
    return [user.pk for user in invitees
            if Invitation.objects.filter(user=user, invited_by=inviter, created_at__gte=since
                                         ).count() <= settings.INVITATION_MAILS_PER_HOUR]


def do_start_table(*, table: Table) -> Table:
    """Draw the seat order from the seed, write the start event and the first state."""
    seats = list(table.seats.order_by("position"))
    order = Rng.from_seed(table.seed ^ SEATING_SALT).shuffled(range(len(seats)))
    if table.seating:
        order = _fixed_order(seats, table.seating, order)
    # Two steps keep (table, position) unique while seats swap places.
    for seat in seats:
        seat.position = -1 - seat.position
        seat.save(update_fields=["position"])
    for new_position, old in enumerate(order):
        seat = next(s for s in seats if s.position == -1 - old)
        seat.position = new_position
        seat.save(update_fields=["position"])
    table.status = Table.Status.RUNNING
    table.started_at = timezone.now()
    _append_event(table, kind=TableEvent.Kind.START, data={
        "seats": [{"user": s.user_id, "bot": s.bot_level} for s in sorted(seats, key=lambda s: s.position)],
    })
    rules = get_rules(table.game)
    state = rules.new_game(players=table.players, seed=table.seed, options=table.options)
    newly = _store_state(table, state)
    effects.after_commit_moved(table, newly)
    return table


def _fixed_order(seats: list[Seat], seating: list[dict], drawn: list[int]) -> list[int]:
    """Old positions in the order `seating` asks for; unmatched seats fill the gaps as drawn."""
    left = [s.position for s in seats]
    order: list[int | None] = []
    for wanted in seating[:len(seats)]:
        match = next((p for p in left for s in seats if s.position == p and (
            (wanted.get("user") and s.user_id == wanted.get("user"))
            or (wanted.get("bot") and not s.user_id and s.bot_level == wanted.get("bot")))), None)
        order.append(match)
        if match is not None:
            left.remove(match)
    rest = [p for p in drawn if p in left]
    order += [None] * (len(seats) - len(order))
    return [p if p is not None else rest.pop(0) for p in order]


# -- playing -------------------------------------------------------------------

def seat_of(table: Table, user) -> Seat | None:
    """The seat `user` holds at `table`, if any."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return table.seats.filter(user=user).first()


def check_submit_move(*, table_id: int, seat: int, move: Any, based_on: int,
                      actor=None, bot: bool = False, key: str | None = None) -> Table:
    """Validate a move made from version `based_on` and record it.

    Raises StaleMove, NotYourSeat, NotYourDecision, TableClosed or IllegalMove;
    nothing is written in any of those cases.

    `key` names the submission (a move form carries one). A retry of a
    submission that was already recorded (a double click, a timeout, a response
    lost after the commit) writes nothing and returns the table with
    `recorded_earlier` set, instead of failing as a stale move.
    """
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        # One read of the seats serves the checks, the clocks and the effects below.
        prefetch_related_objects([table], "seats")
        row = next((s for s in table.seats.all() if s.position == seat), None)
        if row is None:
            raise NotYourSeat()
        if bot:
            if not row.is_bot:
                raise NotYourSeat()
        elif actor is None or row.user_id != actor.pk or row.is_bot:
            raise NotYourSeat()
        table.recorded_earlier = False
        if key:
            earlier = table.events.filter(submission_key=key).first()
            if earlier is not None:
                if earlier.kind != TableEvent.Kind.MOVE or earlier.seat != seat or \
                        earlier.data.get("move") != move:
                    raise ActionError(_("This form was already used for another move."))
                table.recorded_earlier = True
                return table
        if table.status != Table.Status.RUNNING:
            raise TableClosed()
        if table.seq != based_on:
            raise StaleMove()
        if seat not in table.to_move:
            raise NotYourDecision()
        state = current_state(table)
        rules = get_rules(table.game)
        new_state = rules.apply(state, seat, move)  # pure; raises IllegalMove
        return do_record_move(table=table, seat=seat, move=move, state=new_state, actor=actor,
                              key=key or None)


def do_record_move(*, table: Table, seat: int, move: dict, state: Any, actor=None,
                   key: str | None = None) -> Table:
    """Append the move event, refresh the snapshot and schedule effects."""
    _unpause(table, seat)
    _append_event(table, kind=TableEvent.Kind.MOVE, seat=seat, data={"move": move}, actor=actor,
                  submission_key=key)
    newly = _store_state(table, state)
    remember_state(table, state)  # the answer drawn right after the move decodes nothing
    if actor is not None:
        # A move is a sign of the player at the table, after any decision it made them owe.
        presence.mark_present(table_id=table.pk, user=actor)
    effects.after_commit_moved(table, newly)
    return table


def _unpause(table: Table, position: int) -> None:
    """A player the table waited for moved: they are back. A decision they still owe
    after this move gets a fresh clock (the old one ran out), a time bank at least a day."""
    from datetime import timedelta

    # The seats were read with the lock (check_submit_move): no second query.
    row = next((s for s in table.seats.all()
                if s.position == position and s.paused_at is not None), None)
    if row is None:
        return
    row.paused_at = None
    row.owes_since = None  # _store_state starts a new clock if they still owe
    row.deadline = None
    if (table.time_control or {}).get("kind") == "bank":
        row.bank = max(table.time_control.get("increment", 0), 1) * timedelta(days=1)
    row.save(update_fields=["paused_at", "owes_since", "deadline", "bank"])


def check_resign(*, table_id: int, user) -> Table:
    """A player leaves a running game; the game decides what that means."""
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        if table.status != Table.Status.RUNNING:
            raise TableClosed()
        row = table.seats.filter(user=user).first()
        if row is None:
            raise NotYourSeat()
        if row.resigned:
            raise ActionError(_("You have already resigned."))
        return do_resign(table=table, seat=row, actor=user)


def do_resign(*, table: Table, seat: Seat, actor=None) -> Table:
    """Record the resignation; end the table if the game cannot go on."""
    rules = get_rules(table.game)
    state = current_state(table)
    after = rules.resign(state, seat.position)
    seat.resigned = True
    seat.save(update_fields=["resigned"])
    _append_event(table, kind=TableEvent.Kind.RESIGN, seat=seat.position, actor=actor,
                  data={"ends_table": after is None})
    if after is None:
        others = [s.position for s in table.seats.all() if not s.resigned]
        outcome = {"winners": others if len(others) == 1 else [], "reason": "resign",
                   "resigned": seat.position}
        newly = _store_state(table, state, ended_reason="resign", outcome=outcome)
    else:
        newly = _store_state(table, after)
    effects.after_commit_moved(table, newly)
    return table


# -- maintenance -----------------------------------------------------------------

def check_rebuild_snapshot(*, table_id: int, repair: bool = False) -> bool:
    """Fold the table's events alone and compare with its snapshot.

    Returns True when they agree; with `repair`, a disagreeing snapshot is
    replaced by the rebuilt state.
    """
    from .replay import state_from_events

    with transaction.atomic(durable=True):
        table = _lock(table_id)
        rebuilt = state_from_events(table)
        rules = get_rules(table.game)
        dumped = rules.dump(rebuilt) if rebuilt is not None else None
        agrees = dumped == table.snapshot and (dumped is None or table.snapshot_seq == table.seq)
        if not agrees and repair and rebuilt is not None:
            table.snapshot = dumped
            table.snapshot_seq = table.seq
            table.save(update_fields=["snapshot", "snapshot_seq"])
        return agrees


# -- clocks, timeouts and vacations ------------------------------------------------

def check_time_out_seat(*, table_id: int, seat: int, now=None) -> str:
    """Apply a clock that ran out: spend a vacation day, else the table's policy.

    A vacation day is charged per player, not per table: it covers every clock of
    theirs that runs out within it (`check_spend_vacation_day`). Returns what
    happened: "vacation", "takeover", "paused", "dropped", "ended", or "running" /
    "nothing" when the clock had not run out after all.
    """
    now = now or timezone.now()
    row = Seat.objects.filter(table_id=table_id, position=seat).first()
    if row is None or row.user_id is None or row.is_bot:
        return "nothing"
    spent = 0
    while spent < 366 and check_spend_vacation_day(user_id=row.user_id, now=now):
        spent += 1  # a sweep that was down for days spends one day per day missed
    if spent:
        return "vacation"
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        row = table.seats.select_related("user").filter(position=seat).first()
        if (table.status != Table.Status.RUNNING or row is None or row.is_bot
                or row.user_id is None or row.owes_since is None or row.deadline is None
                or row.paused_at is not None):
            return "nothing"
        due = clocks.seat_deadline(row)
        if due > now or clocks.vacation_days_left(row.user_id, at=due, tz_name=row.user.timezone) > 0:
            return "running"
        if table.timeout_policy == Table.TimeoutPolicy.DROP:
            return do_drop_seat(table=table, seat=row)
        if not humans_playing(table, besides=row):
            do_pause_seat(table=table, seat=row)
            return "paused"
        do_take_over_seat(table=table, seat=row)
        return "takeover"


def check_spend_vacation_day(*, user_id: int, now) -> Vacation | None:
    """Spend one vacation day for every clock of the user that ran out by `now`.

    The day starts when the first of those clocks ran out, so the order in which
    the sweep meets the tables does not matter and one day away costs one day.
    None when no clock of theirs has run out or no vacation day is left.
    """
    with transaction.atomic(durable=True):
        # The user's row serialises sweeps and bookings of this player.
        User.objects.select_for_update().filter(pk=user_id).first()
        out = clocks.seats_out_of_time(user_id, now=now)
        if not out:
            return None
        first = min(due for _seat, due in out)
        if clocks.vacation_days_left(user_id, at=first) <= 0:
            return None
        return do_spend_vacation_day(user_id=user_id, at=first, seats=[s for s, _ in out])


def do_spend_vacation_day(*, user_id: int, at, seats: list[Seat]) -> Vacation:
    """One vacation day from `at`: it freezes all the user's clocks; one notice for it.

    A vacation the player booked that starts within that day ends the spent day
    where it begins, so no hour is frozen (and counted) twice.
    """
    ends_at = at + clocks.DAY
    booked = (Vacation.objects.filter(user_id=user_id, starts_at__gt=at, starts_at__lt=ends_at)
              .order_by("starts_at").values_list("starts_at", flat=True).first())
    vacation = Vacation.objects.create(user_id=user_id, starts_at=at, ends_at=booked or ends_at,
                                       days=1, auto=True)
    saved = sorted({s.table_id for s in seats})
    # A new reminder (and warning) before each new deadline.
    Seat.objects.filter(pk__in=[s.pk for s in seats]).update(reminded_at=None)
    effects.after_commit_notice("vacation_spent", user_id=user_id, vacation_id=vacation.pk,
                                table_ids=saved)
    for table_id in saved:
        effects.after_commit_redraw(table_id)
    return vacation


def humans_playing(table: Table, *, besides: Seat | None = None) -> list[Seat]:
    """Seats at `table` that a person plays now (no bot, not resigned, not paused)."""
    return [s for s in table.seats.all()
            if s.user_id and not s.is_bot and not s.resigned and s.paused_at is None
            and (besides is None or s.pk != besides.pk)]


def do_pause_seat(*, table: Table, seat: Seat) -> Table:
    """No other human plays at the table: it waits for this player instead of a bot."""
    seat.paused_at = timezone.now()
    seat.save(update_fields=["paused_at"])
    _append_event(table, kind="pause", seat=seat.position,
                  data={"reason": "timeout", "user": seat.user_id})
    table.save()
    effects.after_commit_notice("timed_out", table_id=table.pk, user_id=seat.user_id,
                                what="paused", seq=table.seq)
    effects.after_commit_moved(table, [])
    return table


def do_take_over_seat(*, table: Table, seat: Seat) -> Table:
    """A bot plays the seat from now on; the log says so and the player may reclaim it."""
    seat.bot_level = game_config(table.game).takeover_level
    seat.taken_over = True
    seat.deadline = None
    seat.save(update_fields=["bot_level", "taken_over", "deadline"])
    _append_event(table, kind="takeover", seat=seat.position,
                  data={"reason": "timeout", "user": seat.user_id})
    table.save()
    effects.after_commit_notice("timed_out", table_id=table.pk, user_id=seat.user_id,
                                what="takeover", seq=table.seq)
    effects.after_commit_moved(table, [])
    return table


def do_drop_seat(*, table: Table, seat: Seat) -> str:
    """The player leaves on timeout: the game goes on without them, or the table ends."""
    rules = get_rules(table.game)
    state = current_state(table)
    after = rules.resign(state, seat.position)
    seat.resigned = True
    seat.save(update_fields=["resigned"])
    _append_event(table, kind="timeout", seat=seat.position,
                  data={"drop": after is not None, "user": seat.user_id})
    if after is None:
        others = [s.position for s in table.seats.all() if not s.resigned]
        outcome = {"winners": others if len(others) == 1 else [], "reason": "timeout",
                   "timed_out": seat.position}
        newly = _store_state(table, state, ended_reason="timeout", outcome=outcome)
    else:
        newly = _store_state(table, after)
    effects.after_commit_moved(table, newly)
    return "dropped" if after is not None else "ended"


def check_reclaim_seat(*, table_id: int, user) -> Table:
    """A player takes back the seat a bot has played since their clock ran out."""
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        if table.status != Table.Status.RUNNING:
            raise TableClosed()
        row = table.seats.filter(user=user).first()
        if row is None:
            raise NotYourSeat()
        if not row.taken_over:
            raise ActionError(_("No bot is playing your seat."))
        row.bot_level = ""
        row.taken_over = False
        fields = ["bot_level", "taken_over"]
        if row.position in table.to_move:
            now = timezone.now()
            row.owes_since = now
            row.deadline, row.bank = clocks.start_clock(table.time_control, now=now, bank=row.bank)
            row.reminded_at = None
            fields += ["owes_since", "deadline", "bank", "reminded_at"]
        row.save(update_fields=fields)
        # Taking the seat back is a sign of the player at the table (also from the mail's
        # link): the decision it gives them back is not mailed to them.
        presence.mark_present(table_id=table.pk, user=user)
        _append_event(table, kind="reclaim", seat=row.position, actor=user)
        # A seat the table waited for (no human was left) gets its bot now that
        # a person plays here again.
        for other in table.seats.filter(paused_at__isnull=False).select_related("user"):
            other.paused_at = None
            other.save(update_fields=["paused_at"])
            do_take_over_seat(table=table, seat=other)
        table.save()
        effects.after_commit_moved(table, [])
        return table


def check_remind_seat(*, table_id: int, seat: int) -> bool:
    """Mark the seat's clock as reminded and mail the reminder; False if already done."""
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        row = table.seats.filter(position=seat).first()
        if (row is None or row.reminded_at is not None or row.owes_since is None
                or row.is_bot or table.status != Table.Status.RUNNING):
            return False
        row.reminded_at = timezone.now()
        row.save(update_fields=["reminded_at"])
        effects.after_commit_notice("remind", table_id=table.pk, seat=seat, seq=table.seq)
        return True


def check_end_pause(*, table_id: int, seat: int, now=None) -> str:
    """A table waited PAUSE_AT_MOST for a player out of time: drop them; the game's
    rules say whether the others play on or who wins."""
    now = now or timezone.now()
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        row = table.seats.filter(position=seat).first()
        if (table.status != Table.Status.RUNNING or row is None or row.paused_at is None
                or row.paused_at >= now - clocks.PAUSE_AT_MOST):
            return "nothing"
        return do_drop_seat(table=table, seat=row)


def check_warn_abandoned(*, table_id: int, now=None) -> bool:
    """Tell the creator of a table that never started that it will be abandoned."""
    now = now or timezone.now()
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        if (table.status != Table.Status.OPEN
                or table.last_event_at >= now - (clocks.ABANDONED_AFTER - clocks.ABANDON_WARNING)
                or (table.abandon_warned_at and table.abandon_warned_at >= table.last_event_at)):
            return False
        table.abandon_warned_at = now
        table.save(update_fields=["abandon_warned_at"])
        effects.after_commit_notice("abandon_warning", table_id=table.pk)
        return True


def check_end_abandoned(*, table_id: int, now=None) -> bool:
    """End a table that never started: 30 days without an event, its creator warned.

    A running table is never abandoned: its clocks, vacations and timeout policy
    decide, so nobody loses a game while their clock still has time.
    """
    now = now or timezone.now()
    with transaction.atomic(durable=True):
        table = _lock(table_id)
        if (table.status != Table.Status.OPEN
                or table.last_event_at >= now - clocks.ABANDONED_AFTER
                or table.abandon_warned_at is None
                or table.abandon_warned_at < table.last_event_at
                or table.abandon_warned_at > now - clocks.DAY):
            return False
        _append_event(table, kind="abandon")
        table.status = Table.Status.ABORTED
        table.finished_at = now
        table.outcome = {"winners": [], "reason": "abandoned"}
        _save_and_push(table)
        return True


def check_book_vacation(*, user, first_day, last_day) -> Vacation:
    """Book vacation days ahead (dates in the user's time zone): all their clocks freeze."""
    import zoneinfo

    try:
        today = timezone.localdate(timezone=zoneinfo.ZoneInfo(user.timezone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        today = timezone.localdate(timezone=zoneinfo.ZoneInfo("UTC"))
    if first_day < today:
        raise ActionError(_("A vacation cannot start in the past."))
    if last_day < first_day:
        raise ActionError(_("The last day must not be before the first."))
    if (last_day - today).days > VACATION_MAX_AHEAD_DAYS:
        raise ActionError(_("A vacation can be booked at most a year ahead."))
    days = (last_day - first_day).days + 1
    starts_at, ends_at = clocks.local_day_bounds(first_day, last_day, user.timezone)
    with transaction.atomic(durable=True):
        # Lock the user's row: two bookings at once must not both fit the allowance.
        User.objects.select_for_update().filter(pk=user.pk).first()
        if Vacation.objects.filter(user=user, starts_at__lt=ends_at, ends_at__gt=starts_at).exists():
            raise ActionError(_("You are already on vacation on some of these days."))
        left = clocks.vacation_days_left(user.pk, at=starts_at, tz_name=user.timezone)
        if days > left:
            raise ActionError(_("You have %(left)s vacation days left this year.") % {"left": left})
        vacation = Vacation.objects.create(user=user, starts_at=starts_at, ends_at=ends_at,
                                           days=days)
        table_ids = Seat.objects.filter(user=user, table__status=Table.Status.RUNNING
                                        ).values_list("table_id", flat=True)
        for table_id in table_ids:
            # Opponents' pages show the vacation mark: redraw them (no new event).
            effects.after_commit_redraw(table_id)
        return vacation


def check_change_vacation(*, user, vacation_id: int, last_day=None, cancel: bool = False) -> Vacation | None:
    """Cancel a booked vacation, or shorten it to end after `last_day` (a date in the
    user's time zone), while it has not started. Returns the vacation, None if cancelled."""
    with transaction.atomic(durable=True):
        User.objects.select_for_update().filter(pk=user.pk).first()
        vacation = Vacation.objects.filter(pk=vacation_id, user=user, auto=False).first()
        if vacation is None:
            raise ActionError(_("There is no such vacation."))
        if vacation.starts_at <= timezone.now():
            raise ActionError(_("This vacation has started: it can no longer be changed."))
        table_ids = list(Seat.objects.filter(user=user, table__status=Table.Status.RUNNING)
                         .values_list("table_id", flat=True))
        for table_id in table_ids:
            effects.after_commit_redraw(table_id)
        if cancel:
            vacation.delete()
            return None
        zone = clocks.zone(user.timezone)
        first_day = vacation.starts_at.astimezone(zone).date()
        old_last = (vacation.ends_at.astimezone(zone) - clocks.DAY).date()
        if last_day is None or last_day < first_day:
            raise ActionError(_("The last day must not be before the first."))
        if last_day >= old_last:
            raise ActionError(_("A vacation can only be shortened: choose an earlier last day."))
        vacation.starts_at, vacation.ends_at = clocks.local_day_bounds(first_day, last_day,
                                                                       user.timezone)
        vacation.days = (last_day - first_day).days + 1
        vacation.save(update_fields=["starts_at", "ends_at", "days"])
        return vacation


# -- presence and turn-mail bookkeeping -------------------------------------------------

def check_set_muted(*, table_id: int, user, muted: bool) -> Seat:
    """Mute or unmute turn mails of one table."""
    with transaction.atomic(durable=True):
        row = Seat.objects.select_for_update().filter(table_id=table_id, user=user).first()
        if row is None:
            raise NotYourSeat()
        row.muted = muted
        row.save(update_fields=["muted"])
        return row


def claim_turn_mail(*, seat_id: int, now, fresh_socket_seconds: int) -> Seat | None:
    """Decide whether a "your turn" mail goes out now and, if so, note it as sent.

    One mail each time the table comes to wait on the player (`owes_since`),
    unless they have been seen at the table since (`presence.mark_present`),
    and none yet while they were seen within `fresh_socket_seconds` (watching
    live, or just acted there): the `send_pending_turn_mails` sweep asks again.
    A bot account gets none: its program learns of its turn from the API.
    """
    from datetime import timedelta

    with transaction.atomic():
        row = (Seat.objects.select_for_update(of=("self",)).select_related("user", "table")
               .filter(pk=seat_id).first())
        if row is None or row.user is None or row.is_bot or row.muted or row.owes_since is None:
            return None
        if row.table.status != Table.Status.RUNNING or row.position not in row.table.to_move:
            return None
        if row.user.turn_mail != "now" or not row.user.email or row.user.is_bot_account:
            return None
        if row.visited_at and row.visited_at >= row.owes_since:
            return None  # they saw this decision at the table
        if row.turn_mailed_at and row.turn_mailed_at >= row.owes_since:
            return None  # this decision was mailed already
        if row.visited_at and now - row.visited_at < timedelta(seconds=fresh_socket_seconds):
            return None  # at the table a moment ago: they are likely watching
        row.turn_mailed_at = now
        row.save(update_fields=["turn_mailed_at"])
        return row


# -- bots that fail --------------------------------------------------------------------

# An incident keeps at most this much of a move, an error and a traceback.
INCIDENT_MOVE_CHARS = 4000
INCIDENT_TEXT_CHARS = 20000


def record_bot_incident(*, table_id: int, seq: int, seat: int, level: str, move: Any,
                        exc: BaseException) -> BotIncident:
    """Keep a bot's failure for staff: the move it returned and the error, no game state.

    One incident per decision: a decision that fails again (its turn re-queued) counts
    another try on the same row, which keeps the last try's move, error and traceback.
    Written on its own (not inside the refused move's transaction, which rolled back).
    """
    import json
    import traceback

    try:
        text = json.dumps(move, sort_keys=True)
        kept = move if len(text) <= INCIDENT_MOVE_CHARS else text[:INCIDENT_MOVE_CHARS] + "…"
    except (TypeError, ValueError):
        kept = repr(move)[:INCIDENT_MOVE_CHARS]  # not JSON: what the bot returned, as text
    fields = {"level": level[:20], "move": kept,
              "error": f"{type(exc).__name__}: {exc}"[:INCIDENT_TEXT_CHARS],
              "traceback": "".join(traceback.format_exception(exc))[-INCIDENT_TEXT_CHARS:],
              "last_at": timezone.now()}
    with transaction.atomic():
        # The table's row orders two tries of one decision (a duplicate delivery).
        Table.objects.select_for_update().filter(pk=table_id).exists()
        incident = BotIncident.objects.filter(table_id=table_id, seq=seq, seat=seat).first()
        if incident is None:
            return BotIncident.objects.create(table_id=table_id, seq=seq, seat=seat, **fields)
        BotIncident.objects.filter(pk=incident.pk).update(attempts=F("attempts") + 1, **fields)
        incident.refresh_from_db()
        return incident


def failing_bot_decisions(*, since) -> set[tuple[int, int, int]]:
    """(table, seq, seat) of bot decisions whose every try failed, the last one after
    `since`: the stuck-turn sweep leaves them alone until their retry is due."""
    return set(BotIncident.objects.filter(fell_back=False, last_at__gte=since)
               .values_list("table_id", "seq", "seat"))


def mark_bot_incident_fell_back(incident: BotIncident) -> None:
    """The random move played for the failed bot was taken."""
    BotIncident.objects.filter(pk=incident.pk).update(fell_back=True)

"""Background work: bot turns and the sweep that keeps bot tables moving."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from games.engine import IllegalMove, Rng, get_rules

from . import actions
from .errors import ActionError
from .models import Seat, Table
from .plugins import game_config
from .replay import current_state

log = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def play_bot_turn(table_id: int, seq: int, seat: int) -> str:
    """Let the bot at `seat` decide, if the table is still at `seq`."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.seq != seq or table.status != Table.Status.RUNNING:
        return "stale"
    if seat not in table.to_move or not table.seats.filter(position=seat).exclude(bot_level="").exists():
        return "stale"
    row = table.seats.get(position=seat)
    if row.taken_over and not actions.humans_playing(table):
        return "waiting"  # no bot plays a seat for nobody: the table waits for a person
    level = row.bot_level
    rules = get_rules(table.game)
    state = current_state(table)
    view = rules.view(state, seat)  # the bot sees what its seat sees, nothing more
    legal = rules.legal_moves(state, seat)
    rng = Rng.from_seed(f"{table.pk}:{seq}:{seat}")
    try:
        move = game_config(table.game).choose_bot_move(view, legal, level=level, rng=rng)
    except Exception as exc:  # noqa: BLE001 - a broken bot must not stall the table
        return _fall_back(table_id, seq, seat, level, move=None, exc=exc, legal=legal)
    try:
        actions.check_submit_move(table_id=table_id, seat=seat, move=move, based_on=seq, bot=True)
    except ActionError as exc:
        # The table moved on (stale, closed, the seat reclaimed): not the bot's fault.
        log.info("bot move at table %s seq %s not taken: %s", table_id, seq, exc)
        return "refused"
    except Exception as exc:  # noqa: BLE001 - IllegalMove, or a move the rules choke on
        return _fall_back(table_id, seq, seat, level, move=move, exc=exc, legal=legal)
    return "moved"


def _fall_back(table_id: int, seq: int, seat: int, level: str, *, move, exc: Exception,
               legal: list[dict]) -> str:
    """The bot failed or its move was refused: say so loudly, then play a random move.

    The error log line names the table, seq, seat, level, the error's type and the
    incident; the incident (see the admin) keeps the move, the message and the
    traceback, and shows the move only once the table has ended. Neither the move nor
    the error's message (which may quote it) goes into the log: a refused move can
    name what only the bot's seat may see. The seat then plays a uniformly random
    legal move for this decision only, so the table never waits on a broken bot.
    """
    incident = actions.record_bot_incident(table_id=table_id, seq=seq, seat=seat, level=level,
                                           move=move, exc=exc)
    if incident.attempts == 1:
        log.error("bot %r at table %s seq %s seat %s: its move was refused (%s), bot incident %s; "
                  "a random move is played instead", level, table_id, seq, seat,
                  type(exc).__name__, incident.pk)
    else:  # the same decision again (its turn re-queued): one error line per incident
        log.warning("bot %r at table %s seq %s seat %s failed again (%s), try %s of bot "
                    "incident %s", level, table_id, seq, seat, type(exc).__name__,
                    incident.attempts, incident.pk)
    if not legal:
        return "failed"
    fallback = Rng.from_seed(f"{table_id}:{seq}:{seat}:fallback").choice(legal)
    try:
        actions.check_submit_move(table_id=table_id, seat=seat, move=fallback, based_on=seq,
                                  bot=True)
    except ActionError as again:
        log.info("random move at table %s seq %s not taken: %s", table_id, seq, again)
        return "refused"
    except IllegalMove:
        # A move from legal_moves refused by apply: the rules themselves are broken.
        if incident.attempts == 1:
            log.exception("the random move at table %s seq %s was refused too (bot incident %s)",
                          table_id, seq, incident.pk)
        else:
            log.warning("the random move at table %s seq %s was refused again (bot incident %s)",
                        table_id, seq, incident.pk)
        return "failed"
    actions.mark_bot_incident_fell_back(incident)
    return "fallback"


# A bot decision that failed with its random move too is tried again after this long.
FAILED_DECISION_RETRY = timedelta(hours=1)


@shared_task
def resend_stuck_turns(older_than_seconds: int = 60) -> int:
    """Re-queue bot turns that were lost (worker crash, broker restart).

    The `seq` check in play_bot_turn makes a repeat harmless. A decision whose last
    try failed even with a random move (the rules refused it: broken rules, a bug to
    fix) is re-queued only FAILED_DECISION_RETRY after that try, not every minute; its
    one incident counts the tries.
    """
    from .effects import schedule_bot_turn

    now = timezone.now()
    cutoff = now - timedelta(seconds=older_than_seconds)
    failing = actions.failing_bot_decisions(since=now - FAILED_DECISION_RETRY)
    stuck = (Seat.objects.exclude(bot_level="").filter(
        owes_since__isnull=False, table__last_event_at__lte=cutoff,
        table__status=Table.Status.RUNNING,
    ).select_related("table"))
    count = 0
    for seat in stuck:
        if seat.taken_over and not actions.humans_playing(seat.table):
            continue  # waits for a person (see play_bot_turn)
        if (seat.table_id, seat.table.seq, seat.position) in failing:
            continue  # every try failed, even the random move: tried again hourly
        if seat.position in seat.table.to_move:
            schedule_bot_turn(seat.table_id, seat.table.seq, seat.position)
            count += 1
    return count


# -- e-mail: thin adapters around games.tables.notify --------------------------------

@shared_task(acks_late=True)
def send_turn_email(table_id: int, seq: int, seat: int) -> int | None:
    """A "your turn" mail for `seat` (the rules in notify decide whether one goes out)."""
    from . import notify

    return notify.turn_mail(table_id=table_id, seat=seat)


@shared_task(acks_late=True)
def send_game_over_email(table_id: int, user_id: int) -> int | None:
    """The result of a finished table."""
    from . import notify

    return notify.game_over_mail(table_id=table_id, user_id=user_id)


@shared_task(acks_late=True)
def send_invitation_email(table_id: int, user_id: int) -> int | None:
    """An invitation to a table."""
    from . import notify

    return notify.invitation_mail(table_id=table_id, user_id=user_id)


@shared_task(acks_late=True)
def send_reminder_email(table_id: int, seat: int) -> int | None:
    """A clock runs out soon."""
    from . import notify

    return notify.reminder_mail(table_id=table_id, seat=seat)


@shared_task(acks_late=True)
def send_vacation_email(user_id: int, vacation_id: int, table_ids: list[int]) -> int | None:
    """A vacation day was spent when clocks ran out (one mail for all the tables it saved)."""
    from . import notify

    return notify.vacation_mail(user_id=user_id, vacation_id=vacation_id, table_ids=table_ids)


@shared_task(acks_late=True)
def send_timed_out_email(table_id: int, user_id: int, what: str, seq: int) -> int | None:
    """A clock ran out for good: a bot took the seat, or the table waits for the player."""
    from . import notify

    return notify.timed_out_mail(table_id=table_id, user_id=user_id, what=what, seq=seq)


@shared_task(acks_late=True)
def send_abandon_warning_email(table_id: int) -> int | None:
    """A table that never started is about to be abandoned."""
    from . import notify

    return notify.abandon_warning_mail(table_id=table_id)


@shared_task(bind=True, acks_late=True, max_retries=8)
def deliver_mail(self, mail_id: int) -> str:
    """Send one stored mail; on failure retry with exponential backoff.

    In-process (eager) mode does not retry inline: the `send_pending_mail`
    sweep tries again later, so a dead mail server never blocks a request.
    """
    from . import notify

    status = notify.deliver(mail_id)
    if status == "failed" and not self.request.is_eager:
        from .models import OutgoingMail

        attempts = OutgoingMail.objects.filter(pk=mail_id).values_list("attempts", flat=True).first()
        try:
            raise self.retry(countdown=notify.retry_delay(attempts or 1).total_seconds())
        except self.MaxRetriesExceededError:
            return status
    return status


@shared_task
def send_pending_mail() -> int:
    """Re-queue stored mails that are still unsent (mail server was down, worker lost)."""
    from . import notify

    ids = notify.pending_mail_ids(now=timezone.now())
    for mail_id in ids:
        deliver_mail.delay(mail_id)
    return len(ids)


@shared_task
def send_pending_turn_mails() -> int:
    """Turn mails held back while a socket was fresh, or lost with the broker."""
    from . import notify

    seats = notify.pending_turn_seats()
    for table_id, seat in seats:
        notify.turn_mail(table_id=table_id, seat=seat)
    # Result mails whose task was lost with the broker when the game ended.
    over = notify.pending_game_over(now=timezone.now())
    for table_id, user_id in over:
        notify.game_over_mail(table_id=table_id, user_id=user_id)
    return len(seats) + len(over)


@shared_task
def send_digests() -> int:
    """Daily digests for users whose chosen hour has come."""
    from . import notify

    return len(notify.digest_mails(now=timezone.now()))


# -- clocks -----------------------------------------------------------------------

@shared_task
def check_clocks() -> dict:
    """Remind seats near their deadline, apply clocks that ran out, end long pauses,
    warn about and then end tables that never started."""
    from . import clocks

    now = timezone.now()
    out, remind = clocks.clock_work(now=now)
    results = {"reminded": 0, "timeouts": [], "abandoned": 0, "warned": 0}
    for table_id, seat in remind:
        results["reminded"] += actions.check_remind_seat(table_id=table_id, seat=seat)
    for table_id, seat in out:
        what = actions.check_time_out_seat(table_id=table_id, seat=seat, now=now)
        if what not in ("running", "nothing"):  # e.g. saved by a day spent for another table
            results["timeouts"].append(what)
    for table_id, seat in clocks.pauses_over(now=now):
        what = actions.check_end_pause(table_id=table_id, seat=seat, now=now)
        if what != "nothing":
            results["timeouts"].append(what)
    for table_id in clocks.tables_to_warn(now=now):
        results["warned"] += actions.check_warn_abandoned(table_id=table_id, now=now)
    for table_id in clocks.abandoned_tables(now=now):
        results["abandoned"] += actions.check_end_abandoned(table_id=table_id, now=now)
    return results

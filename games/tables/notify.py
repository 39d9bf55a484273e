"""E-mail: turn mails, digests, reminders, game over, invitations.

Two halves. The hooks (`table_moved`, `invited`, `remind`, `vacation_spent`)
run after a write commits and only queue Celery tasks with ids. The workers'
half (`*_mail` functions, called by tasks) decides, renders the mail in the
recipient's language and time zone from that seat's `rules.view` only
(through `selectors.table_view_for` and `since.since_last_move`), as plain text
plus an HTML card (`mailhtml`), and stores it in the outbox (`outbox`), which
delivers it: a failing mail server leaves the row unsent, retried with backoff
for days, so a mail is delayed, never lost, and a move never waits for SMTP.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from . import mailhtml
from .models import OutgoingMail, Seat, Table

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "games.tables.notify.unsubscribe"
# Categories a recipient can unsubscribe from, one per preference of the User model.
CATEGORIES = ("turn", "game_over", "invite")


def socket_fresh_seconds() -> int:
    """A socket silent for longer than this no longer holds back a turn mail."""
    return getattr(settings, "TURN_MAIL_SOCKET_FRESH_SECONDS", 120)


# -- hooks: after commit, queue only ------------------------------------------------

def _queue(task, *args) -> None:
    try:
        task.delay(*args)
    except Exception:  # noqa: BLE001 - broker down: the sweeps pick the work up later
        log.exception("could not queue %s%s", task.name, args)


def table_moved(*, table_id: int, seq: int, seats: list[int], finished: bool) -> None:
    """Seats of people that now owe a decision get a turn mail; a finished game, its result."""
    from . import tasks

    for seat in seats:
        _queue(tasks.send_turn_email, table_id, seq, seat)
    if finished:
        for user_id in (Seat.objects.filter(table_id=table_id, user__isnull=False)
                        .values_list("user_id", flat=True)):
            _queue(tasks.send_game_over_email, table_id, user_id)


def invited(*, table_id: int, user_ids: list[int]) -> None:
    """Invitation mails."""
    from . import tasks

    for user_id in user_ids:
        _queue(tasks.send_invitation_email, table_id, user_id)


def remind(*, table_id: int, seat: int, seq: int) -> None:
    """A clock is near its end."""
    from . import tasks

    _queue(tasks.send_reminder_email, table_id, seat)


def vacation_spent(*, user_id: int, vacation_id: int, table_ids: list[int]) -> None:
    """Clocks ran out and one vacation day was spent for all of them."""
    from . import tasks

    _queue(tasks.send_vacation_email, user_id, vacation_id, list(table_ids))


def timed_out(*, table_id: int, user_id: int, what: str, seq: int) -> None:
    """A clock ran out with no vacation left: a bot took the seat, or the table waits."""
    from . import tasks

    _queue(tasks.send_timed_out_email, table_id, user_id, what, seq)


def abandon_warning(*, table_id: int) -> None:
    """A table that never started will be abandoned soon."""
    from . import tasks

    _queue(tasks.send_abandon_warning_email, table_id)


# -- one-click way back to a seat ------------------------------------------------------

RECLAIM_SALT = "games.tables.notify.reclaim"
RECLAIM_MAX_AGE = timedelta(days=90)


def reclaim_token(table_id: int, user_id: int) -> str:
    """A signed token that lets one player take their seat back from a bot, without login."""
    return signing.dumps({"t": table_id, "u": user_id}, salt=RECLAIM_SALT, compress=True)


def read_reclaim_token(token: str) -> tuple[int, int]:
    """(table id, user id) from a token; raises signing.BadSignature (also when expired)."""
    data = signing.loads(token, salt=RECLAIM_SALT, max_age=RECLAIM_MAX_AGE)
    return int(data["t"]), int(data["u"])


def reclaim_url(table_id: int, user_id: int) -> str:
    return settings.SITE_URL + reverse("tables:reclaim_link",
                                       args=[reclaim_token(table_id, user_id)])


# -- unsubscribe links ---------------------------------------------------------------

def unsubscribe_token(user_id: int, category: str) -> str:
    """A signed token that turns one kind of mail off for one user, without login."""
    return signing.dumps({"u": user_id, "c": category}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[int, str]:
    """(user id, category) from a token; raises signing.BadSignature."""
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    if data.get("c") not in CATEGORIES:
        raise signing.BadSignature("unknown category")
    return int(data["u"]), data["c"]


def unsubscribe_url(user_id: int, category: str) -> str:
    return settings.SITE_URL + reverse("unsubscribe", args=[unsubscribe_token(user_id, category)])


# -- rendering ---------------------------------------------------------------------

def _language(user) -> str:
    """The profile's language, else the one their browser last asked for."""
    return user.language or user.browser_language or settings.LANGUAGE_CODE


def _zone(user):
    """The user's time zone (UTC for an anonymous user or an unknown zone)."""
    from .clocks import zone

    return zone(getattr(user, "timezone", ""))


def _seat_context(table: Table, user, position: int | None) -> dict:
    """What a mail about `table` may say to `user`: built from their seat's view only."""
    from games.chat.mail import chat_since

    from . import clocks, selectors
    from .since import since_last_move

    tv = selectors.table_view_for(table, selectors.Viewer(user=user, seat=position))
    since = since_last_move(table, user) if position is not None else []
    mover = None
    last = table.events.filter(kind="move").exclude(seat=position).order_by("-seq").first()
    if last is not None:
        mover = next((s["name"] for s in tv.seats if s["position"] == last.seat), None)
    seat = table.seats.filter(position=position).first() if position is not None else None
    moved_at = (table.events.filter(kind="move", seat=position).order_by("-seq")
                .values_list("created_at", flat=True).first()) if position is not None else None
    return {"tv": tv, "table": table, "user": user, "since": since, "mover": mover,
            "chat": chat_since(table, user, moved_at),
            "card_opponents": [s["name"] for s in tv.seats if not s["is_you"]],
            "card_waiting": [s for s in tv.seats if s["to_move"]],
            "url": settings.SITE_URL + table.get_absolute_url(),
            "deadline": clocks.seat_deadline(seat) if seat else None,
            "time_control": clocks.describe(table.time_control)}


def _compose(*, user, table: Table | None, kind: str, template: str, category: str,
             context: dict, key: str | None = None) -> OutgoingMail | None:
    """Render a mail for `user` in their language and zone, and store it unsent."""
    language = _language(user)
    url = unsubscribe_url(user.pk, category)
    with translation.override(language), timezone.override(_zone(user)):
        context = {**context, "user": user, "unsubscribe_url": url,
                   "site_url": settings.SITE_URL, "category": category}
        if table is not None and "tv" not in context:
            context.update(_seat_context(table, user, context.get("position")))
        elif table is not None:  # words chosen before the language was: say them again
            from . import clocks

            context["time_control"] = clocks.describe(table.time_control)
        subject = " ".join(render_to_string(f"tables/email/{template}_subject.txt",
                                            context).split())
        body = render_to_string(f"tables/email/{template}.txt", context)
        html = mailhtml.render_html(template, {**context, "subject": subject}, body)
    from . import outbox

    try:
        with transaction.atomic():
            return outbox.store(
                user=user, table=table, kind=kind, key=key, to=user.email,
                subject=settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + subject, body=body,
                html=html, language=language, unsubscribe_url=url)
    except IntegrityError:  # the same keyed mail was decided already
        return None


# Delivery lives in the outbox (games/tables/outbox.py); these names stay for the tasks.
from .outbox import deliver, pending_mail_ids, retry_delay  # noqa: E402,F401


def _then_deliver(mail: OutgoingMail | None) -> int | None:
    if mail is None:
        return None
    from . import outbox

    outbox.queue_delivery(mail)
    return mail.pk


# -- the workers' half: decide and compose ---------------------------------------------

def turn_mail(*, table_id: int, seat: int) -> int | None:
    """A "your turn" mail for one seat, if the rules of turn mails allow one now."""
    row = Seat.objects.filter(table_id=table_id, position=seat).values_list("pk", flat=True).first()
    if row is None:
        return None
    claimed = _claim(row)
    if claimed is None:
        return None
    return _then_deliver(_compose(
        user=claimed.user, table=claimed.table, kind="turn", template="turn", category="turn",
        context={"position": claimed.position}))


def _claim(seat_id: int):
    from . import actions

    return actions.claim_turn_mail(seat_id=seat_id, now=timezone.now(),
                                   fresh_socket_seconds=socket_fresh_seconds())


def pending_turn_seats() -> list[tuple[int, int]]:
    """Seats that may still need a turn mail (e.g. a watched tab went idle)."""
    from django.db.models import F, Q

    return list(Seat.objects.filter(
        table__status=Table.Status.RUNNING, owes_since__isnull=False, user__isnull=False,
        bot_level="", muted=False, user__turn_mail="now", user__is_bot_account=False,
    ).filter(Q(visited_at__isnull=True) | Q(visited_at__lt=F("owes_since")))
        .filter(Q(turn_mailed_at__isnull=True) | Q(turn_mailed_at__lt=F("owes_since")))
        .values_list("table_id", "position"))


def pending_game_over(*, now: datetime, within=timedelta(days=3)) -> list[tuple[int, int]]:
    """(table, user) pairs of recently finished games whose result mail was never decided.

    The after-commit hook queues these at once; this catches what a broker
    outage lost. The mail's key makes a repeat harmless.
    """
    pairs = (Seat.objects.filter(
        table__status=Table.Status.FINISHED, table__finished_at__gte=now - within,
        user__isnull=False, user__mail_game_over=True,
    ).values_list("table_id", "user_id"))
    decided = set(OutgoingMail.objects.filter(kind="game_over", created_at__gte=now - within * 2)
                  .values_list("key", flat=True))
    return [(t, u) for t, u in pairs if f"over:{t}:{u}" not in decided]


def game_over_mail(*, table_id: int, user_id: int) -> int | None:
    """The result, to a player who wants it."""
    seat = (Seat.objects.select_related("user", "table")
            .filter(table_id=table_id, user_id=user_id).first())
    if seat is None or not seat.user.mail_game_over or not seat.user.email:
        return None
    return _then_deliver(_compose(
        user=seat.user, table=seat.table, kind="game_over", template="game_over",
        category="game_over", context={"position": seat.position},
        key=f"over:{table_id}:{user_id}"))


def invitation_mail(*, table_id: int, user_id: int) -> int | None:
    """An invitation to a table that has not started."""
    from .models import Invitation

    invitation = (Invitation.objects.select_related("user", "invited_by", "table")
                  .filter(table_id=table_id, user_id=user_id).first())
    if invitation is None or not invitation.user.mail_invitations or not invitation.user.email:
        return None
    table = invitation.table
    from . import clocks

    context = {"tv": None, "table": table, "inviter": invitation.invited_by.name,
               "time_control": clocks.describe(table.time_control),
               "url": settings.SITE_URL + table.get_absolute_url()
               + (f"?invite={table.invite_token}" if table.is_private else "")}
    return _then_deliver(_compose(
        user=invitation.user, table=table, kind="invite", template="invitation",
        category="invite", context=context, key=f"invite:{table_id}:{user_id}"))


def consequence(seat: Seat) -> str:
    """What happens when this seat's clock runs out now: "vacation" (a day is spent),
    "last_vacation" (the last day is spent), "takeover" (a bot plays the seat),
    "paused" (the table waits, no other human plays) or "drop"."""
    from . import actions, clocks

    left = clocks.vacation_days_left(seat.user_id)
    if left > 1:
        return "vacation"
    if left == 1:
        return "last_vacation"
    if seat.table.timeout_policy == Table.TimeoutPolicy.DROP:
        return "drop"
    return "takeover" if actions.humans_playing(seat.table, besides=seat) else "paused"


def wants_clock_mail(user, *, muted: bool = False) -> bool:
    """Reminders, vacation days and timeouts go to players who want turn mails at all
    (at once or as a digest), never after "never" or an unsubscribe link."""
    return bool(user.email) and user.turn_mail != "never" and not muted


def reminder_mail(*, table_id: int, seat: int) -> int | None:
    """The clock of this seat runs out soon; it says what happens then."""
    row = Seat.objects.select_related("user", "table").filter(
        table_id=table_id, position=seat).first()
    if (row is None or row.user is None or row.is_bot or row.owes_since is None
            or not wants_clock_mail(row.user, muted=row.muted)):
        return None
    from . import clocks

    then = consequence(row)
    due = clocks.seat_deadline(row)
    # One reminder per deadline: a vacation day spent moves it, and re-arms the reminder.
    key = f"remind:{row.pk}:{row.owes_since.timestamp():.0f}:{due.timestamp() if due else 0:.0f}"
    return _then_deliver(_compose(
        user=row.user, table=row.table, kind="reminder", template="reminder", category="turn",
        key=key[:80], context={"position": row.position, "consequence": then}))


def vacation_mail(*, user_id: int, vacation_id: int, table_ids: list[int]) -> int | None:
    """Clocks ran out and a vacation day was spent for them: one mail for the day,
    listing the tables it saved and what happens at their next deadline."""
    from . import clocks
    from .models import Vacation

    vacation = Vacation.objects.select_related("user").filter(pk=vacation_id).first()
    if vacation is None or not wants_clock_mail(vacation.user):
        return None
    seats = list(Seat.objects.select_related("table", "user").filter(
        user_id=user_id, table_id__in=table_ids, muted=False).order_by("table_id"))
    if not seats:
        return None
    saved = [{"table": s.table, "deadline": clocks.seat_deadline(s),
              "url": settings.SITE_URL + s.table.get_absolute_url(),
              "consequence": consequence(s)} for s in seats]
    # A day that saved one table is a mail of that table (its card, its thread).
    one = seats[0] if len(seats) == 1 else None
    return _then_deliver(_compose(
        user=vacation.user, table=one.table if one else None, kind="vacation",
        template="vacation", category="turn", key=f"vacation:{vacation_id}",
        context={"vacation": vacation, "saved": saved,
                 **({"position": one.position} if one else {}),
                 "days_left": clocks.vacation_days_left(user_id, at=vacation.starts_at)}))


def timed_out_mail(*, table_id: int, user_id: int, what: str, seq: int) -> int | None:
    """A bot took the seat (with a one-click way back), or the table waits for the player."""
    from . import clocks

    seat = Seat.objects.select_related("table", "user").filter(
        table_id=table_id, user_id=user_id).first()
    if seat is None or not wants_clock_mail(seat.user):
        return None
    context = {"position": seat.position, "what": what}
    if what == "takeover":
        context["reclaim_url"] = reclaim_url(table_id, user_id)
    elif seat.paused_at:
        context["waits_until"] = seat.paused_at + clocks.PAUSE_AT_MOST
    return _then_deliver(_compose(
        user=seat.user, table=seat.table, kind="timeout", template="timed_out", category="turn",
        key=f"timeout:{table_id}:{user_id}:{seq}", context=context))


def abandon_warning_mail(*, table_id: int) -> int | None:
    """To the creator of a table that never started: it is abandoned on a given day."""
    from . import clocks

    table = Table.objects.select_related("created_by").filter(pk=table_id).first()
    if (table is None or table.status != Table.Status.OPEN or table.abandon_warned_at is None
            or not wants_clock_mail(table.created_by)):
        return None
    context = {"tv": None, "table": table,
               "ends_at": max(table.last_event_at + clocks.ABANDONED_AFTER,
                              table.abandon_warned_at + clocks.DAY),
               "free": table.seats.filter(user__isnull=True, bot_level="").count(),
               "url": settings.SITE_URL + table.get_absolute_url()}
    return _then_deliver(_compose(
        user=table.created_by, table=table, kind="abandon", template="abandon_warning",
        category="turn", context=context,
        key=f"abandon:{table_id}:{table.abandon_warned_at.timestamp():.0f}"))


def _digest_item(turn: dict, user) -> dict:
    """One waiting table of a digest: its opponents, what happened, its deadline."""
    from games.chat.mail import chat_since

    from . import selectors
    from .since import since_last_move

    table = turn["table"]
    seats = selectors.seat_rows(table, selectors.Viewer(user=user, seat=turn["seat"].position))
    return {**turn, "url": settings.SITE_URL + table.get_absolute_url(),
            "opponents": [s["name"] for s in seats if not s["is_you"]],
            "waiting": [s for s in seats if s["to_move"]],
            "since": since_last_move(table, user),
            "chat": chat_since(table, user)}


def digest_mails(*, now: datetime, users=None) -> list[int]:
    """One mail per digest user whose chosen hour has come today, listing every waiting table.

    `users` limits the run to some users (the mail examples of docs/mails.md). A bot
    account gets none: its program learns of its turns from the API.
    """
    from accounts.models import User

    from . import selectors

    users = (users if users is not None else User.objects.all()).filter(
        turn_mail=User.TurnMail.DIGEST, is_bot_account=False, seats__owes_since__isnull=False,
        seats__bot_level="", seats__muted=False,
        seats__table__status=Table.Status.RUNNING).distinct()
    sent = []
    for user in users:
        local = now.astimezone(_zone(user))
        if local.hour < user.digest_hour or not user.email:
            continue
        key = f"digest:{user.pk}:{local.date().isoformat()}"
        if OutgoingMail.objects.filter(key=key).exists():
            continue
        turns = [t for t in selectors.turns_waiting_on(user) if not t["seat"].muted]
        if not turns:
            continue
        # In their language and zone, as _compose renders the rest: the chat lines say when
        with translation.override(_language(user)), timezone.override(_zone(user)):
            items = [_digest_item(turn, user) for turn in turns]
        mail = _compose(user=user, table=None, kind="digest", template="digest", category="turn",
                        context={"turns": items}, key=key)
        if mail is not None:
            sent.append(_then_deliver(mail))
    return sent

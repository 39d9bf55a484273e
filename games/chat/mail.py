"""Chat in e-mail: lines for turn mails and digests, and batched chat mails.

`chat_since(table, user, since)` is what the turn mail and the digest call: it
returns the lines `user` may read (their channels, no muted authors, none of
their own), in the active language and time zone (the caller renders the mail
in the recipient's). The chat mail proper goes to players who asked for it, at
tables where it is not their turn, at most once per table and hour, through the
tables' outbox (`OutgoingMail`), so it is retried like every other mail.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from games.tables.models import OutgoingMail, Seat, Table
# A chat mail's language and time zone are the turn mails' own.
from games.tables.notify import _language, _zone

from .models import ChatMessage, ChatSettings
from .selectors import display, reader_for, readable, seat_names

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "games.chat.mail.unsubscribe"
MAX_LINES = 40


def mail_interval() -> timedelta:
    """At most one chat mail per table and player in this time."""
    return timedelta(seconds=getattr(settings, "CHAT_MAIL_INTERVAL_SECONDS", 3600))


def mail_delay() -> timedelta:
    """Messages wait this long before a chat mail, so a burst of them goes out together."""
    return timedelta(seconds=getattr(settings, "CHAT_MAIL_DELAY_SECONDS", 120))


def chat_since(table: Table, user, since=None) -> list[str]:
    """Chat lines `user` may read at `table` written after `since` and after their last visit.

    Each line: "<time> <name>: <text>"; spectators are marked. At most the newest
    MAX_LINES, preceded by a line saying how many earlier ones were left out.
    """
    reader = reader_for(table, user)
    if reader.user is None:
        return []
    seat = reader.seat
    visited = seat.visited_at if seat is not None else None
    if since is None or (visited is not None and visited > since):
        since = visited
    messages = [m for m in readable(reader, since=since, limit=500)
                if m.author_id != user.pk]
    if not messages:
        return []
    names = seat_names(table)
    lines = []
    if len(messages) > MAX_LINES:
        lines.append(_("(%(n)s earlier messages not shown)") % {"n": len(messages) - MAX_LINES})
        messages = messages[-MAX_LINES:]
    for message in messages:
        shown = display(message, names)
        when = formats.date_format(timezone.localtime(message.created_at),
                                   "SHORT_DATETIME_FORMAT")
        name = shown["name"]
        if message.channel == ChatMessage.Channel.SPECTATORS:
            name = _("%(name)s (spectator)") % {"name": name}
        text = "\n    ".join(shown["text"].splitlines())
        lines.append(f"{when} {name}: {text}")
    return lines


# -- unsubscribe --------------------------------------------------------------------

def unsubscribe_token(user_id: int) -> str:
    return signing.dumps({"u": user_id}, salt=UNSUBSCRIBE_SALT, compress=True)


def read_unsubscribe_token(token: str) -> int:
    data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    try:
        return int(data["u"])
    except (KeyError, TypeError, ValueError):
        raise signing.BadSignature("bad token") from None


# -- chat mails ---------------------------------------------------------------------

def _last_chat_mail(table_id: int, user_id: int):
    return (OutgoingMail.objects.filter(kind="chat", table_id=table_id, user_id=user_id)
            .order_by("-created_at").values_list("created_at", flat=True).first())


def chat_mail(*, table: Table, seat: Seat, now) -> int | None:
    """Decide and store one chat mail for a seat, if one is due; returns the mail id."""
    user = seat.user
    if not user.email or seat.owes_since is not None:
        return None
    fresh = getattr(settings, "TURN_MAIL_SOCKET_FRESH_SECONDS", 120)
    if seat.socket_seen_at and seat.socket_seen_at > now - timedelta(seconds=fresh):
        return None  # watching the table live: they read the chat there
    last = _last_chat_mail(table.pk, user.pk)
    if last is not None and last > now - mail_interval():
        return None
    since = max(t for t in (last, now - timedelta(days=2)) if t is not None)
    language = _language(user)
    url = settings.SITE_URL + reverse("chat:unsubscribe", args=[unsubscribe_token(user.pk)])
    with translation.override(language), timezone.override(_zone(user)):
        lines = chat_since(table, user, since)
        if not lines:
            return None
        context = {"user": user, "table": table, "lines": lines, "unsubscribe_url": url,
                   "url": settings.SITE_URL + table.get_absolute_url() + "#chat"}
        subject = " ".join(render_to_string("chat/email/chat_subject.txt", context).split())
        body = render_to_string("chat/email/chat.txt", context)
    key = f"chat:{table.pk}:{user.pk}:{int(now.timestamp()) // int(mail_interval().total_seconds())}"
    try:
        with transaction.atomic():
            mail = OutgoingMail.objects.create(
                user=user, table=table, kind="chat", key=key, to=user.email,
                subject=subject[:200], body=body, language=language, unsubscribe_url=url)
    except IntegrityError:
        return None
    from games.tables import tasks

    def queue():
        try:
            tasks.deliver_mail.delay(mail.pk)
        except Exception:  # noqa: BLE001 - the send_pending_mail sweep delivers it later
            log.exception("could not queue chat mail %s", mail.pk)

    transaction.on_commit(queue)
    return mail.pk


def chat_mails(*, now=None) -> list[int]:
    """Every chat mail due now: recent messages, players who asked, not their turn."""
    now = now or timezone.now()
    recent = ChatMessage.objects.filter(created_at__gte=now - timedelta(days=2),
                                        created_at__lte=now - mail_delay())
    table_ids = set(recent.values_list("table_id", flat=True).distinct())
    if not table_ids:
        return []
    wanting = set(ChatSettings.objects.filter(mail_chat=True).values_list("user_id", flat=True))
    sent = []
    seats = (Seat.objects.filter(table_id__in=table_ids, user_id__in=wanting, bot_level="")
             .select_related("user", "table"))
    for seat in seats:
        try:
            mail_id = chat_mail(table=seat.table, seat=seat, now=now)
        except Exception:  # noqa: BLE001 - one bad mail must not stop the others
            log.exception("chat mail for seat %s failed", seat.pk)
            continue
        if mail_id:
            sent.append(mail_id)
    return sent

"""The outbox: every mail the site sends is a stored `OutgoingMail` row first.

Turn mails and digests are composed into rows by `games.tables.notify`; every
other mail (allauth's verification and password-reset mails, Django's) reaches
the outbox through `EMAIL_BACKEND = "games.tables.outbox.OutboxBackend"`, which
stores instead of sending. A worker then hands each row to the real transport,
`MAIL_DELIVERY_BACKEND` (SMTP in production). So a mail server that is down
never shows anyone an error page and never loses a mail:

- a failed attempt is retried after 1, 2, 4, ... times `MAIL_RETRY_BASE_SECONDS`,
  at most an hour apart, for `MAIL_RETRY_HOURS` (72 hours by default);
- the first failed attempt after that marks the mail failed (`failed_at`), logs
  it at error level and leaves it in the admin ("Delivery: failed");
- the first delivery that succeeds after failures sends the whole backlog at
  once instead of waiting for each mail's next slot.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from email.utils import make_msgid
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils import timezone, translation

from .models import OutgoingMail

log = logging.getLogger(__name__)

OUTBOX_BACKEND = "games.tables.outbox.OutboxBackend"


def site_domain() -> str:
    """The host of SITE_URL: our Message-IDs end in it."""
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def new_message_id() -> str:
    return make_msgid(idstring="pt", domain=site_domain())


def thread_of(user, table) -> str:
    """The Message-ID of the first mail of `table` to `user` ("" for none yet)."""
    if user is None or table is None:
        return ""
    first = (OutgoingMail.objects.filter(user=user, table=table).exclude(message_id="")
             .order_by("created_at", "pk").values_list("message_id", flat=True).first())
    return first or ""


def store(*, to: str, subject: str, body: str, html: str = "", user=None, table=None,
          kind: str = "account", key: str | None = None, language: str = "",
          unsubscribe_url: str = "", from_email: str = "") -> OutgoingMail:
    """Store a mail unsent (raises IntegrityError for a `key` decided already)."""
    return OutgoingMail.objects.create(
        user=user, table=table, kind=kind, key=key, to=to, subject=subject[:200], body=body,
        html=html, language=language or translation.get_language() or settings.LANGUAGE_CODE,
        unsubscribe_url=unsubscribe_url, from_email=from_email, message_id=new_message_id(),
        thread_id=thread_of(user, table))


def queue_delivery(mail: OutgoingMail) -> None:
    """Hand the row to a worker once the transaction that stored it commits."""
    from . import notify, tasks

    transaction.on_commit(lambda: notify._queue(tasks.deliver_mail, mail.pk))


class OutboxBackend(BaseEmailBackend):
    """Django's mail API, stored in the outbox instead of sent (delivery follows)."""

    def send_messages(self, email_messages) -> int:
        from django.contrib.auth import get_user_model

        User = get_user_model()
        count = 0
        try:
            count = self._store_all(email_messages, User)
        except Exception:  # noqa: BLE001 - e.g. the database is down while mailing the admins
            if not self.fail_silently:
                raise
            log.exception("could not store %s mails in the outbox", len(email_messages))
        return count

    def _store_all(self, email_messages, User) -> int:
        count = 0
        for message in email_messages:
            html = next((content for content, mimetype in getattr(message, "alternatives", [])
                         if mimetype == "text/html"), "")
            if not html:  # every mail is multipart: a plain card of the text
                from .mailhtml import generic_html

                html = generic_html(str(message.body), str(message.subject))
            for address in message.recipients():
                user = User.objects.filter(email__iexact=address).order_by("pk").first()
                mail = store(to=address, subject=str(message.subject), body=str(message.body),
                             html=str(html), user=user, kind="account",
                             from_email=str(message.from_email or ""))
                queue_delivery(mail)
                count += 1
        return count


def delivery_connection():
    """The real transport: MAIL_DELIVERY_BACKEND behind the outbox, else EMAIL_BACKEND."""
    backend = settings.EMAIL_BACKEND
    if backend == OUTBOX_BACKEND:
        backend = settings.MAIL_DELIVERY_BACKEND
    return get_connection(backend)


def build(mail: OutgoingMail, connection=None) -> EmailMultiAlternatives:
    """The multipart message of a stored mail, with our Message-ID and threading headers."""
    headers = {"Content-Language": mail.language, "Auto-Submitted": "auto-generated"}
    if mail.message_id:
        headers["Message-ID"] = mail.message_id
    if mail.thread_id and mail.thread_id != mail.message_id:
        headers["In-Reply-To"] = mail.thread_id
        headers["References"] = mail.thread_id
    if mail.unsubscribe_url:
        headers["List-Unsubscribe"] = f"<{mail.unsubscribe_url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = EmailMultiAlternatives(
        subject=mail.subject, body=mail.body, from_email=mail.from_email or settings.DEFAULT_FROM_EMAIL,
        to=[mail.to], headers=headers, connection=connection)
    if mail.html:
        message.attach_alternative(mail.html, "text/html")
    return message


def retry_delay(attempts: int) -> timedelta:
    """Exponential backoff between delivery attempts, at most an hour."""
    base = getattr(settings, "MAIL_RETRY_BASE_SECONDS", 60)
    return timedelta(seconds=min(base * 2 ** max(0, attempts - 1), 3600))


def retry_for() -> timedelta:
    """How long a mail is retried before it is marked failed."""
    return timedelta(hours=getattr(settings, "MAIL_RETRY_HOURS", 72))


def deliver(mail_id: int) -> str:
    """Hand one stored mail to the transport: "sent", "done" (nothing to do), "failed"
    (will be retried) or "gave up" (marked failed for good)."""
    now = timezone.now()
    with transaction.atomic():
        mail = OutgoingMail.objects.select_for_update().filter(pk=mail_id).first()
        if mail is None or mail.sent_at is not None or mail.failed_at is not None:
            return "done"
        try:
            build(mail, connection=delivery_connection()).send()
        except Exception as exc:  # noqa: BLE001 - any transport failure: keep the mail
            mail.attempts += 1
            mail.last_error = repr(exc)[:1000]
            if now - mail.created_at >= retry_for():
                mail.failed_at = now
                mail.next_attempt_at = None
                mail.save(update_fields=["attempts", "last_error", "failed_at", "next_attempt_at"])
                log.error("mail %s (%s) failed for good after %s attempts since %s: %r",
                          mail.pk, mail.kind, mail.attempts, mail.created_at.isoformat(), exc)
                return "gave up"
            mail.next_attempt_at = now + retry_delay(mail.attempts)
            mail.save(update_fields=["attempts", "last_error", "next_attempt_at"])
            log.warning("mail %s not sent (attempt %s): %r", mail.pk, mail.attempts, exc)
            return "failed"
        recovered = mail.attempts > 0
        mail.sent_at = now
        mail.attempts += 1
        mail.save(update_fields=["sent_at", "attempts"])
    if recovered:
        flush_backlog(now=now)
    return "sent"


def flush_backlog(*, now: datetime) -> int:
    """The transport works again: make every waiting mail due now and queue the sweep."""
    from . import notify, tasks

    waiting = OutgoingMail.objects.filter(sent_at__isnull=True, failed_at__isnull=True,
                                          next_attempt_at__gt=now).update(next_attempt_at=now)
    if waiting:
        log.info("mail delivery recovered: %s waiting mails sent now", waiting)
        notify._queue(tasks.send_pending_mail)
    return waiting


def pending_mail_ids(*, now: datetime) -> list[int]:
    """Unsent, not failed mails due for an attempt (the sweep re-queues them)."""
    return list(OutgoingMail.objects.filter(sent_at__isnull=True, failed_at__isnull=True)
                .exclude(next_attempt_at__gt=now).order_by("pk").values_list("pk", flat=True)[:500])

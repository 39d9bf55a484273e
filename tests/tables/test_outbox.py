"""The outbox never loses a mail (issue 9): allauth's mails too, retries for three days,
failures visible, the backlog sent at once when the server is back. A real SMTP
server on loopback (aiosmtpd), switched off and on."""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
import time_machine
from django.test import Client

from games.tables import outbox, tasks
from games.tables.models import OutgoingMail
from tests.tables.test_notify import body, free_port, start_smtp

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def through_outbox(settings):
    """The production wiring: EMAIL_BACKEND is the outbox, SMTP behind it (down until started)."""
    port = free_port()
    settings.EMAIL_BACKEND = outbox.OUTBOX_BACKEND
    settings.MAIL_DELIVERY_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 5
    settings.MAIL_RETRY_BASE_SECONDS = 60
    settings.MAIL_RETRY_HOURS = 72
    return port


def test_signing_up_while_the_mail_server_is_down_shows_no_error_and_mails_later(through_outbox):
    """Before: a 500 page (the account was created all the same)."""
    c = Client(HTTP_HOST="localhost", raise_request_exception=False)
    response = c.post("/accounts/signup/", {
        "email": "nia@example.org", "username": "nia",
        "password1": "a-Strong-pass-123", "password2": "a-Strong-pass-123"})
    assert response.status_code == 302 and "confirm-email" in response["Location"]
    stored = OutgoingMail.objects.get(to="nia@example.org")
    assert stored.kind == "account" and stored.sent_at is None and stored.attempts == 1
    assert stored.user is not None and stored.user.username == "nia"
    controller, inbox = start_smtp(through_outbox)
    try:
        with time_machine.travel(datetime.now(dt_timezone.utc) + timedelta(minutes=2)):
            tasks.send_pending_mail()
        [mail] = [m for m in inbox.messages if "nia@example.org" in m["To"]]
        link = re.search(r"http://\S+/accounts/confirm-email/\S+/", body(mail)).group(0)
        path = link.split("localhost", 1)[-1].split(":8000", 1)[-1]
        assert c.post(path).status_code == 302
        assert c.get("/tables/new/").status_code == 200, "the emailed link did not verify"
        # Password reset mails take the same way, and go out at once while the server is up.
        c.post("/accounts/logout/")
        assert Client(HTTP_HOST="localhost").post(
            "/accounts/password/reset/", {"email": "nia@example.org"}).status_code == 302
        resets = [m for m in inbox.messages if "nia@example.org" in m["To"]]
        assert len(resets) == 2 and "/accounts/password/reset/key/" in body(resets[-1])
        assert OutgoingMail.objects.filter(to="nia@example.org", sent_at__isnull=False).count() == 2
    finally:
        controller.stop()


def test_retries_back_off_to_an_hour_for_three_days_then_the_mail_is_failed(
        through_outbox, make_user, caplog, admin_client):
    """Before: mails were dropped after about 6 hours (12 attempts), without a trace."""
    from django.core.mail import send_mail

    ana = make_user("ana")
    start = datetime(2027, 5, 3, 8, 0, tzinfo=dt_timezone.utc)
    with time_machine.travel(start, tick=False):
        send_mail("Hello", "A mail", None, [ana.email])
    mail = OutgoingMail.objects.get(to=ana.email)
    attempts = [start]
    now = start
    caplog.set_level(logging.WARNING, logger="games.tables.outbox")
    for _ in range(200):
        mail.refresh_from_db()
        if mail.failed_at is not None:
            break
        assert mail.sent_at is None
        now = mail.next_attempt_at
        with time_machine.travel(now, tick=False):
            assert mail.pk in outbox.pending_mail_ids(now=now)
            tasks.send_pending_mail()
        attempts.append(now)
    mail.refresh_from_db()
    gaps = [b - a for a, b in zip(attempts, attempts[1:])]
    assert max(gaps) == timedelta(hours=1), gaps
    assert gaps[0] == timedelta(minutes=1) and gaps[1] == timedelta(minutes=2)
    assert mail.failed_at is not None and mail.failed_at - start >= timedelta(hours=72)
    assert mail.failed_at - start < timedelta(hours=74)
    assert mail.attempts == len(attempts)
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and str(mail.pk) in errors[0].getMessage()
    with time_machine.travel(now + timedelta(days=1), tick=False):
        assert tasks.send_pending_mail() == 0  # a failed mail is not retried
    page = admin_client.get("/admin/tables/outgoingmail/?delivery=failed")
    assert page.status_code == 200 and ana.email.encode() in page.content
    page = admin_client.get("/admin/tables/outgoingmail/?delivery=sent")
    assert ana.email.encode() not in page.content


def test_when_the_server_is_back_the_backlog_goes_out_at_once(through_outbox, make_user):
    """Before: each waiting mail waited for its own next slot (minutes after the recovery)."""
    from django.core.mail import send_mail

    users = [make_user(name) for name in ("ana", "bo", "cy", "dee")]
    start = datetime(2027, 5, 3, 8, 0, tzinfo=dt_timezone.utc)
    for i, user in enumerate(users):  # failing at different times: slots spread out
        with time_machine.travel(start + timedelta(minutes=20 * i), tick=False):
            send_mail("Hello", "A mail", None, [user.email])
    for minutes in range(0, 120, 5):  # the beat's sweep during a two-hour outage
        with time_machine.travel(start + timedelta(minutes=minutes), tick=False):
            tasks.send_pending_mail()
    back = start + timedelta(hours=2)
    due = outbox.pending_mail_ids(now=back)
    assert OutgoingMail.objects.filter(sent_at__isnull=True).count() == 4
    assert len(due) < 4, "every mail due at once: the test shows nothing"
    controller, inbox = start_smtp(through_outbox)
    try:
        with time_machine.travel(back, tick=False):
            # The first success after failures (a retry task, or the sweep's next mail).
            outbox.deliver(OutgoingMail.objects.order_by("next_attempt_at").first().pk)
        assert OutgoingMail.objects.filter(sent_at__isnull=True).count() == 0
        assert sorted(m["To"] for m in inbox.messages) == sorted(u.email for u in users)
    finally:
        controller.stop()

"""Sessions over weeks: a player who keeps coming back stays signed in; one who stays
away longer than SESSION_COOKIE_AGE signs in again."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
import time_machine
from django.conf import settings
from django.contrib.sessions.models import Session
from django.test import Client

pytestmark = pytest.mark.django_db

START = datetime(2027, 2, 1, 9, 0, tzinfo=dt_timezone.utc)
DAY = timedelta(days=1)


def signed_in(client: Client) -> bool:
    return client.get("/vacation/").status_code == 200   # a page for signed-in users only


def test_a_player_who_comes_back_every_few_days_stays_signed_in_for_months(make_user):
    age = timedelta(seconds=settings.SESSION_COOKIE_AGE)
    client = Client()
    with time_machine.travel(START, tick=False):
        client.force_login(make_user("ana"))
    day = 0
    while day < 120:
        day += 5
        with time_machine.travel(START + day * DAY, tick=False):
            assert signed_in(client), f"signed out on day {day}"
    # Away for longer than the session's age: signed out.
    with time_machine.travel(START + day * DAY + age + DAY, tick=False):
        assert not signed_in(client)


def test_the_session_is_written_at_most_once_a_day_for_it(make_user):
    client = Client()
    with time_machine.travel(START, tick=False):
        client.force_login(make_user("ana"))
    session = Session.objects.get()
    with time_machine.travel(START + 3 * DAY, tick=False):
        assert signed_in(client)
        renewed = Session.objects.get(pk=session.pk).expire_date
        assert renewed > session.expire_date
    with time_machine.travel(START + 3 * DAY + timedelta(hours=5), tick=False):
        assert signed_in(client) and signed_in(client)
        assert Session.objects.get(pk=session.pk).expire_date == renewed


def test_an_anonymous_visit_makes_no_session(db):
    client = Client()
    client.get("/")
    client.get("/tables/")
    assert not Session.objects.exists()


def test_the_beat_clears_expired_sessions_and_keeps_live_ones(make_user):
    from django.conf import settings as conf

    from accounts.tasks import clear_expired_sessions

    assert conf.CELERY_BEAT_SCHEDULE["clear-expired-sessions"]["task"] == "accounts.tasks.clear_expired_sessions"
    away, back = Client(), Client()
    with time_machine.travel(START, tick=False):
        away.force_login(make_user("ana"))
        back.force_login(make_user("bo"))
    age = timedelta(seconds=conf.SESSION_COOKIE_AGE)
    with time_machine.travel(START + age - DAY, tick=False):
        assert signed_in(back)
    with time_machine.travel(START + age + DAY, tick=False):
        clear_expired_sessions.apply()
        assert Session.objects.count() == 1
        assert signed_in(back) and not signed_in(away)

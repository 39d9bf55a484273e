"""Throttles keyed on the right thing: accounts and real client addresses."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
import time_machine
from django.test import Client

from games.tables import actions
from games.tables.models import Invitation, OutgoingMail, Table

pytestmark = pytest.mark.django_db

PASSWORD = "a-Strong-pass-123"  # tests/conftest.py's make_user
LOCKED = "Too many failed login attempts"


def login(client, login, password, **extra):
    return client.post("/accounts/login/", {"login": login, "password": password}, **extra)


def signed_in(client) -> bool:
    return client.get("/profile/").status_code == 200


def browser(addr="203.0.113.7", **headers) -> Client:
    return Client(HTTP_HOST="localhost", REMOTE_ADDR=addr, **headers)


def one_moment():
    """The clock stopped: django-ratelimit counts in fixed windows (an hour from a point
    that depends on the key), so a test whose calls straddled a window's end saw its
    count start again from zero, and the last call was let through (a CI failure,
    2026-12-07; reproduced by stopping the clock on either side of the window's end)."""
    return time_machine.travel(datetime.now(timezone.utc), tick=False)


def test_failures_with_unknown_usernames_do_not_lock_a_real_user_out(throttles, make_user):
    make_user("ana")
    attacker = browser()
    for i in range(25):
        login(attacker, f"nobody{i}", "guess")
    assert LOCKED in login(attacker, "nobody-more", "guess").content.decode()
    # Same address (a shared NAT, or the attacker's own): the real account still signs in.
    ana = browser()
    response = login(ana, "ana", PASSWORD)
    assert response.status_code == 302 and signed_in(ana)


def test_repeated_failures_on_one_account_lock_it(throttles, make_user):
    make_user("ana")
    for i in range(5):
        # From five addresses and both spellings of the login: one account, one count.
        html = login(browser(f"198.51.100.{i}"), "ana" if i % 2 else "ana@example.org",
                     "wrong").content.decode()
        assert LOCKED not in html
    owner = browser("192.0.2.1")
    html = login(owner, "ana", PASSWORD).content.decode()
    assert LOCKED in html and not signed_in(owner)


def test_behind_a_trusted_proxy_clients_are_throttled_apart(throttles, make_user):
    import config.settings as project

    # The operator names the proxies in front (TRUSTED_PROXY_COUNT, docs/operations.md).
    assert project.ALLAUTH_TRUSTED_PROXY_COUNT == 0
    throttles.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    make_user("ana")
    proxy = "10.0.0.2"  # every request comes from the proxy
    mallory = browser(proxy, HTTP_X_FORWARDED_FOR="203.0.113.66")
    for i in range(11):
        login(mallory, f"nobody{i}", "guess")
    assert LOCKED in login(mallory, "nobody-x", "guess").content.decode()
    # A forged leftmost entry does not help: the proxy's own entry (the last) counts.
    forged = browser(proxy, HTTP_X_FORWARDED_FOR="192.0.2.99, 203.0.113.66")
    assert LOCKED in login(forged, "nobody-y", "guess").content.decode()
    # Another client through the same proxy is not throttled by mallory's failures.
    other = browser(proxy, HTTP_X_FORWARDED_FOR="198.51.100.23")
    assert LOCKED not in login(other, "nobody-z", "guess").content.decode()


def test_without_the_proxy_setting_the_forwarded_header_is_ignored(throttles, make_user):
    for i in range(11):
        login(browser("10.0.0.2", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}"), f"nobody{i}", "guess")
    other = browser("10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.200")
    assert LOCKED in login(other, "nobody", "guess").content.decode()


def test_the_admin_login_is_throttled_like_every_login(throttles, make_user):
    make_user("root", is_staff=True, is_superuser=True)
    client = browser()
    # The admin's own form no longer signs anyone in: it sends them to allauth's login.
    response = client.post("/admin/login/?next=/admin/", {"username": "root", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert client.get("/admin/").status_code == 302
    page = client.get(response["Location"])
    assert page.status_code == 200
    for _i in range(6):
        login(client, "root", "wrong")
    html = login(client, "root", PASSWORD).content.decode()
    assert LOCKED in html
    assert client.get("/admin/").status_code == 302


def test_the_admin_login_signs_staff_in_through_allauth(throttles, make_user):
    make_user("root", is_staff=True, is_superuser=True)
    client = browser()
    response = login(client, "root", PASSWORD)
    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200


def test_table_creation_is_limited_per_account_with_a_message(throttles, make_user):
    throttles.TABLE_CREATE_RATE = "3/h"
    ana = make_user("ana")
    client = browser()
    client.force_login(ana)
    with one_moment():
        for _i in range(3):
            assert client.post("/tables/new/",
                               {"game": "high-card", "players": "2"}).status_code == 302
        refused = client.post("/tables/new/", {"game": "high-card", "players": "2"})
        assert refused.status_code == 429
        assert "You have opened a lot of tables in the last hour." in refused.content.decode()
        assert Table.objects.count() == 3
        # Another account is not limited by ana's tables.
        bo = browser()
        bo.force_login(make_user("bo"))
        assert bo.post("/tables/new/", {"game": "high-card", "players": "2"}).status_code == 302


def test_invitations_are_limited_per_account_with_a_message(throttles, make_user):
    throttles.INVITE_RATE = "3/h"
    ana = make_user("ana")
    names = [make_user(f"guest{i}").username for i in range(5)]
    table = actions.check_create_table(creator=ana, game="high-card", players=4)
    client = browser()
    client.force_login(ana)
    with one_moment():
        for name in names[:3]:
            client.post(f"/tables/{table.pk}/invite", {"username": name})
        response = client.post(f"/tables/{table.pk}/invite", {"username": names[3]})
        assert Invitation.objects.count() == 3
        html = client.get(response["Location"]).content.decode()
        assert "You have sent a lot of invitations in the last hour." in html
        # Invitees named at table creation count too.
        refused = client.post("/tables/new/", {"game": "high-card", "players": "3",
                                               "invitees": f"{names[3]}, {names[4]}"})
        assert refused.status_code == 429 and "a lot of invitations" in refused.content.decode()


def test_an_invitee_gets_a_few_invitation_mails_an_hour_from_one_inviter(
        make_user, settings, django_capture_on_commit_callbacks):
    settings.INVITATION_MAILS_PER_HOUR = 3
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    with django_capture_on_commit_callbacks(execute=True):
        tables = [actions.check_create_table(creator=ana, game="high-card", players=2,
                                             invitees=["bo"]) for _i in range(5)]
        open_table = actions.check_create_table(creator=ana, game="high-card", players=3)
        actions.check_invite(table_id=open_table.pk, user=ana, username="bo")
        tables.append(open_table)
        actions.check_create_table(creator=cy, game="high-card", players=2, invitees=["bo"])
    mails = OutgoingMail.objects.filter(user=bo, kind="invite")
    assert mails.count() == 4  # three from ana, one from cy
    # The rest are on bo's dashboard.
    client = browser()
    client.force_login(bo)
    home = client.get("/").content.decode()
    for table in tables:
        assert f"/tables/{table.pk}/" in home

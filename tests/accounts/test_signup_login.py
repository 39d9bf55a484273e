"""Sign-up with mandatory e-mail verification, login by username or e-mail, the profile."""

import re

import pytest
from django.core import mail
from django.test import Client


def client():
    return Client(HTTP_HOST="localhost")


@pytest.mark.django_db
def test_signup_requires_verification_before_login(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    c = client()
    response = c.post("/accounts/signup/", {
        "email": "nia@example.org", "username": "nia",
        "password1": "a-Strong-pass-123", "password2": "a-Strong-pass-123"})
    assert response.status_code == 302 and "confirm-email" in response["Location"]
    # Not signed in until verified.
    assert c.get("/tables/new/").status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"http://\S+/accounts/confirm-email/\S+/", mail.outbox[0].body).group(0)
    path = link.split("localhost", 1)[-1].split(":8000", 1)[-1]
    assert c.get(path).status_code == 200
    response = c.post(path)
    assert response.status_code == 302
    assert c.get("/tables/new/").status_code == 200
    c.post("/accounts/logout/")
    for login in ("nia", "nia@example.org"):
        fresh = client()
        response = fresh.post("/accounts/login/", {"login": login, "password": "a-Strong-pass-123"})
        assert response.status_code == 302, login
        assert fresh.get("/profile/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("sent, kept", [
    ("Asia/Tokyo", "Asia/Tokyo"), ("America/Argentina/Buenos_Aires", "America/Argentina/Buenos_Aires"),
    ("", "UTC"),                      # no JavaScript: the hidden field stays empty
    ("Mars/Olympus_Mons", "UTC"), ("../../etc/passwd", "UTC"), ("x" * 5000, "UTC")])
def test_signup_takes_the_browsers_time_zone_when_it_is_a_real_one(settings, sent, kept):
    from accounts.models import User

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    page = client().get("/accounts/signup/").content.decode()
    assert 'name="timezone"' in page and "data-browser-timezone" in page and "js/forms" in page
    response = client().post("/accounts/signup/", {
        "email": "tz@example.org", "username": "tz", "timezone": sent,
        "password1": "a-Strong-pass-123", "password2": "a-Strong-pass-123"})
    assert response.status_code == 302
    assert User.objects.get(username="tz").timezone == kept


@pytest.mark.django_db
def test_unverified_user_cannot_log_in(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    client().post("/accounts/signup/", {
        "email": "ulf@example.org", "username": "ulf",
        "password1": "a-Strong-pass-123", "password2": "a-Strong-pass-123"})
    fresh = client()
    response = fresh.post("/accounts/login/", {"login": "ulf", "password": "a-Strong-pass-123"})
    assert response.status_code == 302 and "confirm-email" in response["Location"]
    assert fresh.get("/profile/").status_code == 302


@pytest.mark.django_db
def test_profile_saves_name_language_timezone_and_mail_choice(make_user):
    ana = make_user("ana")
    c = client()
    c.force_login(ana)
    response = c.post("/profile/", {
        "display_name": "Ana P.", "language": "es", "timezone": "Europe/Madrid",
        "turn_mail": "digest", "digest_hour": "7", "mail_game_over": "on"})
    assert response.status_code == 302
    ana.refresh_from_db()
    assert (ana.name, ana.language, ana.timezone, ana.turn_mail, ana.digest_hour) == (
        "Ana P.", "es", "Europe/Madrid", "digest", 7)
    assert '<html lang="es">' in c.get("/profile/").content.decode()
    bad = c.post("/profile/", {"display_name": "x", "timezone": "Mars/Base", "turn_mail": "now",
                               "digest_hour": "30"})
    assert bad.status_code == 200
    ana.refresh_from_db()
    assert ana.timezone == "Europe/Madrid"


@pytest.mark.django_db
def test_browser_language_is_remembered_for_mail_when_the_profile_sets_none(make_user):
    from games.tables.notify import _language

    ana = make_user("ana")
    c = Client(HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE="es-ES,es;q=0.9")
    c.force_login(ana)
    c.get("/")
    ana.refresh_from_db()
    assert ana.browser_language == "es" and _language(ana) == "es"
    ana.language = "en"
    ana.save()
    assert _language(ana) == "en"


@pytest.mark.django_db
def test_profile_makes_a_token_and_refuses_one_past_the_cap(make_user):
    """The page's own path (request.user is a lazy object there), not only the function."""
    from api import tokens
    from api.models import ApiToken

    ana = make_user("ana")
    c = client()
    c.force_login(ana)
    made = c.post("/profile/tokens/", {"name": "home bot", "scopes": ["read", "play"]})
    assert made.status_code == 200 and "pt_" in made.content.decode()
    for i in range(tokens.MAX_ACTIVE - 1):
        tokens.check_create_token(user=ana, name=f"t{i}", scopes=["read"])
    refused = c.post("/profile/tokens/", {"name": "one more", "scopes": ["read"]})
    assert refused.status_code == 400 and "revoke one first" in refused.content.decode()
    assert ApiToken.objects.filter(user=ana, revoked_at__isnull=True).count() == tokens.MAX_ACTIVE

"""The new-table form and the profile without JavaScript: what the HTML says and does."""

from __future__ import annotations

import re

import pytest

from tests.pages import client_for


@pytest.mark.django_db
def test_new_table_form_hooks_and_words(make_user):
    html = client_for(make_user("ana")).get("/tables/new/?game=powerhouse").content.decode()
    assert "Seat 1 is yours" not in html
    assert "the order of play is drawn when the game starts" in html
    assert "data-new-table" in html and '<script src="/static/js/forms.js" defer></script>' in html
    # No inline code or styles (a strict CSP): scripts only from files, no handlers.
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert not re.search(r'\son[a-z]+="', html) and ' style="' not in html
    for i in range(1, 5):
        assert f'id="id_seat_{i}"' in html  # all there without JavaScript
    assert 'href="/games/powerhouse/rules/"' in html


@pytest.mark.django_db
def test_profile_time_zones_are_grouped_and_the_browser_may_guess(make_user):
    client = client_for(make_user("ana"))
    html = client.get("/profile/").content.decode()
    select = re.search(r'<select name="timezone".*?</select>', html, re.S).group(0)
    assert "data-guess-timezone" in select
    assert '<optgroup label="Europe">' in select and '<option value="Europe/Madrid">Madrid</option>' in select
    assert '<option value="America/Argentina/Buenos_Aires">Argentina / Buenos Aires</option>' in select
    assert 'value="US/Pacific"' not in select and 'value="UTC" selected' in select
    assert 'id="timezone-guess"' in html


@pytest.mark.django_db
def test_an_old_alias_chosen_earlier_stays_valid(make_user):
    ana = make_user("ana", timezone="US/Pacific")
    client = client_for(ana)
    html = client.get("/profile/").content.decode()
    assert 'value="US/Pacific" selected' in html


@pytest.mark.django_db
def test_favicon_is_linked_and_shipped(client):
    from django.contrib.staticfiles import finders

    html = client.get("/", HTTP_HOST="localhost").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html
    assert finders.find("favicon.svg")

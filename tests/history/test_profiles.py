"""Public profiles: readable without signing in, ratings with a chart, no private tables."""

from __future__ import annotations

import re

import pytest

from games.history.models import ProfileSettings, Result
from tests.pages import client_for

from .helpers import end_by, new_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    return make_user("ana", display_name="Ana María"), make_user("bo"), make_user("cy")


def test_profile_shows_games_ratings_chart_and_tables_to_watch(people):
    ana, bo, cy = people
    for _ in range(3):
        end_by(new_table([ana, bo], "high-card", rated=True), "finish")
    running = new_table([ana, cy], "high-card")
    page = client_for().get("/players/ana/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "Ana María" in html and "Member since" in html
    assert re.search(r'data-testid="played-high-card">3<', html)
    won = Result.objects.filter(user=ana, outcome="won").count()
    assert re.search(rf'data-testid="won-high-card">{won}<', html)
    rating = ana.ratings.get(game="high-card")
    assert f'data-testid="rating-high-card">{rating.display}<' in html
    svg = re.search(r"<svg class=\"rating-chart\".*?</svg>", html, re.S).group(0)
    assert svg.count("<circle") == 3 and "<title>" in svg and 'role="img"' in svg
    assert re.search(r'points="[\d., ]+"', svg), "coordinates are never localised"
    assert f"/tables/{running.pk}/" in html  # a running public table to watch


def test_profile_in_spanish(people):
    ana, bo, _cy = people
    end_by(new_table([ana, bo], "high-card", rated=True), "finish")
    html = client_for(HTTP_ACCEPT_LANGUAGE="es").get("/players/ana/").content.decode()
    assert "Miembro desde" in html and "Partidas recientes" in html
    html = client_for(HTTP_ACCEPT_LANGUAGE="es").get("/players/ana/history/").content.decode()
    assert "Partidas de Ana María" in html


def test_private_tables_never_appear_on_another_persons_view(people):
    ana, bo, cy = people
    secret = end_by(new_table([ana, bo], "high-card", is_private=True), "finish")
    secret_running = new_table([ana, bo], "high-card", is_private=True)
    for client in (client_for(), client_for(cy)):
        html = client.get("/players/ana/").content.decode()
        assert f"/tables/{secret.pk}/" not in html and f"/tables/{secret_running.pk}/" not in html
        assert "played-high-card" not in html  # no finished public game to count
    html = client_for(ana).get("/players/ana/").content.decode()
    assert f"/tables/{secret.pk}/" in html and f"/tables/{secret_running.pk}/" in html


def test_a_player_can_hide_their_profile_from_anonymous_visitors(people):
    ana, bo, _cy = people
    client = client_for(ana)
    assert 'href="/players/settings/"' in client.get("/profile/").content.decode()
    assert client.get("/players/settings/").status_code == 200
    response = client.post("/players/settings/", {"hide_from_anonymous": "on"})
    assert response.status_code == 302
    assert ProfileSettings.objects.get(user=ana).hide_from_anonymous
    assert client_for().get("/players/ana/").status_code == 404
    assert client_for().get("/players/ana/history/").status_code == 404
    assert client_for(bo).get("/players/ana/").status_code == 200
    assert client_for().get("/players/nobody/").status_code == 404

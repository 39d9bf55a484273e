"""Rules pages per game, in English and Spanish, linked from the table page, the lobby and
the new-table form; a short "how to play" box on the Gizmos board."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.tables import actions
from games.tables.plugins import listed_games
from tests.pages import client_for, page

SLUGS = [g.game_slug for g in listed_games()]
# A sentence each rules page must carry in each language (a translated text, not the English).
MUST = {
    ("gizmos", "en"): "Converters combine and chain in any order",
    ("gizmos", "es"): "Los convertidores se combinan y encadenan en cualquier orden",
    ("powerhouse", "en"): "clean powerhouse",
    ("powerhouse", "es"): "Central Eléctrica Limpia",
    ("flaming-pyramids", "en"): "Building regulations",
    ("flaming-pyramids", "es"): "Reglas de construcción",
}


def get(url: str, lang: str = "en", user=None):
    client = client_for(user, HTTP_ACCEPT_LANGUAGE=lang) if user else Client(
        HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE=lang)
    return client.get(url)


def test_every_listed_game_is_covered():
    # (high-card is the test suite's own toy game)
    assert set(SLUGS) - {"high-card"} == {"gizmos", "powerhouse", "flaming-pyramids"}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "es"])
@pytest.mark.parametrize("slug", ["gizmos", "powerhouse", "flaming-pyramids"])
def test_rules_page_in_both_languages(slug, lang):
    response = get(f"/games/{slug}/rules/", lang)
    assert response.status_code == 200
    html = response.content.decode()
    assert MUST[(slug, lang)] in html
    assert f'<html lang="{lang}"' in html
    other = MUST[(slug, "es" if lang == "en" else "en")]
    assert other not in html
    # It leads to a new table of this game and to the other games' rules.
    assert f'href="/tables/new/?game={slug}"' in html
    for other_slug in SLUGS:
        if other_slug != slug:
            assert f'href="/games/{other_slug}/rules/"' in html
    title = re.search(r"<h1>(.*?)</h1>", html).group(1)
    assert ("Reglas de" if lang == "es" else "Rules of") in title


@pytest.mark.django_db
def test_unknown_game_has_no_rules_page():
    assert get("/games/chess/rules/").status_code == 404


@pytest.mark.django_db
def test_rules_linked_from_lobby_form_and_table_page(make_user):
    ana = make_user("ana")
    lobby = get("/tables/", user=ana).content.decode()
    choose = get("/tables/new/", user=ana).content.decode()
    for slug in SLUGS:
        assert f'href="/games/{slug}/rules/"' in lobby
        assert f'href="/games/{slug}/rules/"' in choose
        form = get(f"/tables/new/?game={slug}", user=ana).content.decode()
        assert f'href="/games/{slug}/rules/"' in form
    table = actions.check_create_table(creator=ana, game="gizmos", players=2, bots={1: "fast"})
    html = page(client_for(ana), table)
    assert 'href="/games/gizmos/rules/"' in html


@pytest.mark.django_db
def test_gizmos_board_shows_how_to_play_in_spanish(make_user):
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="gizmos", players=2, bots={1: "fast"})
    html = page(client_for(ana, HTTP_ACCEPT_LANGUAGE="es"), table)
    box = re.search(r'<details class="howto".*?</details>', html, re.S).group(0)
    assert "Cómo se juega" in box and 'href="/games/gizmos/rules/"' in box


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["gizmos", "powerhouse", "flaming-pyramids"])
def test_every_board_has_a_how_to_play_box_in_both_languages(make_user, slug):
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game=slug, players=2, bots={1: "fast"})
    for lang, words in (("en", "How to play"), ("es", "Cómo se juega")):
        html = page(client_for(ana, HTTP_ACCEPT_LANGUAGE=lang), table)
        assert re.search(rf"<details[^>]*>\s*<summary>{words}</summary>", html), (slug, lang)

"""The lobby (open tables in full, filters without JavaScript, games to watch), the landing
page (a picture, a pitch and the rules of each game) and a new user's first steps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from games.tables import actions
from games.tables.models import Table
from tests.pages import client_for


def lobby(user=None, query: str = "", lang: str = "en") -> str:
    client = client_for(user, HTTP_ACCEPT_LANGUAGE=lang) if user else Client(
        HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE=lang)
    response = client.get("/tables/" + query)
    assert response.status_code == 200
    return response.content.decode()


def section(html: str, testid: str) -> str:
    found = re.search(rf'data-testid="{testid}".*?</ul>', html, re.S)
    return found.group(0) if found else ""


def row(html: str, table) -> str:
    found = re.search(rf'<li data-table="{table.pk}">.*?</li>', html, re.S)
    assert found, f"table {table.pk} not listed"
    return found.group(0)


@pytest.fixture
def tables(make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    gizmos = actions.check_create_table(creator=ana, game="gizmos", players=3, bots={2: "strong"})
    pyramids = actions.check_create_table(creator=bo, game="flaming-pyramids", players=2,
                                          options={"curse": True},
                                          time_control={"kind": "bank", "initial": 7,
                                                        "increment": 1, "cap": 14})
    running = actions.check_create_table(creator=cy, game="powerhouse", players=2, bots={1: "fast"})
    secret = actions.check_create_table(creator=cy, game="gizmos", players=2, is_private=True)
    return {"users": (ana, bo, cy), "gizmos": gizmos, "pyramids": pyramids, "running": running,
            "secret": secret}


@pytest.mark.django_db
def test_open_tables_say_game_creator_seats_bots_clock_and_options(tables, make_user):
    html = lobby(make_user("dee"))
    open_list = section(html, "open-tables")
    g = row(open_list, tables["gizmos"])
    assert "Gizmos" in g and "by ana" in g and "2 taken, 1 seat free" in g
    assert "bot (strong)" in g and "3 days per move" in g
    p = row(open_list, tables["pyramids"])
    assert "Flaming Pyramids" in p and "by bo" in p and "1 taken, 1 seat free" in p
    assert "The Curse" in p and "Fire Die" not in p
    assert "time bank" in p.lower()
    assert f'data-table="{tables["secret"].pk}"' not in html  # invite only, not invited
    assert f'data-table="{tables["running"].pk}"' not in open_list


@pytest.mark.django_db
def test_running_public_games_are_listed_to_watch(tables):
    assert Table.objects.get(pk=tables["running"].pk).status == Table.Status.RUNNING
    watch = section(lobby(), "watch-tables")
    r = row(watch, tables["running"])
    assert "Powerhouse" in r and "cy" in r and "bot (fast)" in r
    # A spectator may open it.
    assert Client(HTTP_HOST="localhost").get(tables["running"].get_absolute_url()).status_code == 200


@pytest.mark.django_db
def test_filters_by_game_and_player_count_with_a_plain_get_form(tables):
    html = lobby()
    form = re.search(r'<form method="get" action="/tables/".*?</form>', html, re.S).group(0)
    assert 'name="game"' in form and 'name="players"' in form and "<script" not in form
    only_gizmos = lobby(query="?game=gizmos")
    assert f'data-table="{tables["gizmos"].pk}"' in only_gizmos
    assert f'data-table="{tables["pyramids"].pk}"' not in only_gizmos
    assert f'data-table="{tables["running"].pk}"' not in only_gizmos
    two = lobby(query="?players=2")
    assert f'data-table="{tables["pyramids"].pk}"' in two and f'data-table="{tables["running"].pk}"' in two
    assert f'data-table="{tables["gizmos"].pk}"' not in two
    none = lobby(query="?game=gizmos&players=4")
    assert "No open table matches" in none
    # Junk is ignored, not an error.
    assert f'data-table="{tables["gizmos"].pk}"' in lobby(query="?game=chess&players=zz")


@pytest.mark.django_db
def test_lobby_in_spanish(tables):
    html = lobby(query="?game=gizmos", lang="es")
    g = row(section(html, "open-tables"), tables["gizmos"])
    assert "de ana" in g and "2 ocupadas, 1 plaza libre" in g and "bot (fuerte)" in g
    assert "Partidas para mirar" in html and "Filtrar" in html


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "es"])
def test_landing_shows_each_game_with_picture_pitch_and_rules(lang):
    from django.contrib.staticfiles import finders

    html = Client(HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE=lang).get("/").content.decode()
    show = re.search(r'data-testid="showcase".*?</ul>', html, re.S).group(0)
    for slug in ("gizmos", "powerhouse", "flaming-pyramids"):
        # Drawn in the page's language (the board's words are in the picture).
        picture = f"img/games/{slug}.png" if lang == "en" else f"img/games/{slug}.{lang}.png"
        assert f'src="/static/{picture}"' in show
        assert finders.find(picture), "the picture is shipped"
        assert f'href="/games/{slug}/rules/"' in show
    assert len(re.findall(r'<img [^>]*alt="[^"]+"', show)) == 3  # not the test suite's toy game
    if lang == "es":
        assert "reacciones en cadena" in show and "Reglas de Gizmos" in show
    else:
        assert "chain reactions" in show and "Rules of Gizmos" in show


def test_each_language_has_its_own_picture_of_each_game():
    """scripts/game_pictures.py draws each board once per language: a Spanish page must not
    show "Ana is placing a tile." in its pictures."""
    from django.contrib.staticfiles import finders

    for slug in ("gizmos", "powerhouse", "flaming-pyramids"):
        english = Path(finders.find(f"img/games/{slug}.png")).read_bytes()
        for code, _name in settings.LANGUAGES:
            if code != settings.LANGUAGE_CODE:
                other = Path(finders.find(f"img/games/{slug}.{code}.png")).read_bytes()
                assert other != english and other.startswith(b"\x89PNG")


@pytest.mark.django_db
def test_a_new_users_dashboard_says_what_to_do_first(make_user):
    ana = make_user("ana")
    html = client_for(ana).get("/").content.decode()
    first = re.search(r'data-testid="first-steps".*?</section>', html, re.S).group(0)
    assert "None." not in html
    for slug in ("gizmos", "powerhouse", "flaming-pyramids"):
        assert f'href="/tables/new/?game={slug}"' in first
    assert 'href="/tables/"' in first
    es = client_for(ana, HTTP_ACCEPT_LANGUAGE="es").get("/").content.decode()
    assert "Empieza tu primera partida" in es
    # Once they have a table, the usual lists come back.
    actions.check_create_table(creator=ana, game="gizmos", players=2)
    html = client_for(ana).get("/").content.decode()
    assert 'data-testid="first-steps"' not in html and "Waiting for players" in html

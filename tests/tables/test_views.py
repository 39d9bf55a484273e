"""Pages and HTTP moves: with and without htmx, and only ever from the viewer's view."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from django.test import Client

from games.engine import get_rules
from games.tables.models import Table, TableEvent
from games.tables.replay import current_state
from tests.pages import client_for


def owing(table):
    table.refresh_from_db()
    seat = table.to_move[0]
    return seat, table.seats.get(position=seat).user


def post_move(client, table, move, *, htmx=False, based_on=None):
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/tables/{table.pk}/move", {
        "move": json.dumps(move), "based_on": table.seq if based_on is None else based_on,
    }, **headers)


@pytest.mark.django_db
def test_plain_post_moves_and_redirects(running_table):
    seat, user = owing(running_table)
    response = post_move(client_for(user), running_table, {"type": "keep"})
    assert response.status_code == 303 and response["Location"] == f"/tables/{running_table.pk}/"
    assert running_table.events.filter(kind="move").count() == 1


@pytest.mark.django_db
def test_htmx_post_answers_with_the_play_area_and_out_of_band_partials(running_table):
    seat, user = owing(running_table)
    response = post_move(client_for(user), running_table, {"type": "keep"}, htmx=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="play-area"')
    for part in ("board", "seats", "move-list", "status"):
        assert re.search(rf'id="{part}"[^>]*hx-swap-oob="true"', html), part


@pytest.mark.django_db
def test_a_lost_race_tells_the_player_and_writes_nothing(running_table):
    seat, user = owing(running_table)
    client = client_for(user)
    stale = running_table.seq - 1
    before = TableEvent.objects.count()
    html = post_move(client, running_table, {"type": "keep"}, htmx=True, based_on=stale).content.decode()
    assert "Someone moved first" in html
    response = post_move(client, running_table, {"type": "keep"}, based_on=stale)
    assert response.status_code == 303
    page = client.get(response["Location"]).content.decode()
    assert "Someone moved first" in page
    assert TableEvent.objects.count() == before


@pytest.mark.django_db
def test_illegal_and_unreadable_moves_show_a_message(running_table):
    seat, user = owing(running_table)
    client = client_for(user)
    html = post_move(client, running_table, {"type": "play", "card": 5}, htmx=True).content.decode()
    assert 'role="alert"' in html
    html = client.post(f"/tables/{running_table.pk}/move", {"move": "{not json", "based_on": "x"},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "could not be read" in html
    assert running_table.events.filter(kind="move").count() == 0


@pytest.mark.django_db
def test_strangers_and_anonymous_cannot_move(running_table, make_user):
    seat, _ = owing(running_table)
    response = post_move(client_for(make_user("eve")), running_table, {"type": "keep"})
    assert response.status_code == 403
    response = post_move(client_for(), running_table, {"type": "keep"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert running_table.events.filter(kind="move").count() == 0


@pytest.mark.django_db
def test_pages_show_only_what_the_viewer_may_see(running_table, make_user):
    table = running_table
    rules = get_rules("high-card")
    seat, user = owing(table)
    post_move(client_for(user), table, {"type": "draw"})
    table.refresh_from_db()
    state = current_state(table)
    drawn = state["log"][-1]["card"]
    other = table.seats.exclude(position=seat).get().user
    mine = client_for(user).get(f"/tables/{table.pk}/").content.decode()
    theirs = client_for(other).get(f"/tables/{table.pk}/").content.decode()
    spectator = client_for(make_user("sam")).get(f"/tables/{table.pk}/").content.decode()
    assert f"You drew a {drawn}." in mine
    assert f"drew a {drawn}" not in theirs and f"drew a {drawn}" not in spectator
    assert "drew a card." in theirs
    hand_of = lambda html: re.search(r'data-testid="hand">(.*?)</span>\s', html, re.S)
    assert hand_of(mine) and [int(c) for c in re.findall(r">(\d+)<", hand_of(mine).group(1))] == \
        rules.view(state, seat)["hand"]
    assert 'data-testid="hand"' not in spectator
    their_hand = rules.view(state, 1 - seat)["hand"]
    assert re.findall(r'hc-card">(\d+)<', theirs) == [str(c) for c in their_hand]


@pytest.mark.django_db
def test_new_table_form_creates_a_table_with_bots_and_options(make_user):
    ana = make_user("ana")
    client = client_for(ana)
    assert "High Card" in client.get("/tables/new/").content.decode()
    form = client.get("/tables/new/?game=high-card").content.decode()
    assert 'name="option_double_last"' in form and 'name="seat_1"' in form
    response = client.post("/tables/new/", {"game": "high-card", "players": "3", "seat_1": "greedy",
                                            "seat_2": "", "option_double_last": "on"})
    table = Table.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/"
    assert table.options == {"double_last": True} and table.status == "open"
    assert list(table.seats.order_by("position").values_list("bot_level", flat=True)) == ["", "greedy", ""]
    bad = client.post("/tables/new/", {"game": "high-card", "players": "9"})
    assert bad.status_code == 400 and Table.objects.count() == 1


@pytest.mark.django_db
def test_home_lists_tables_waiting_on_me_first_and_counts_them(running_table):
    seat, user = owing(running_table)
    html = client_for(user).get("/").content.decode()
    assert re.search(r"<title>\(1\)", html)
    assert html.index("Your turn") < html.index(f"/tables/{running_table.pk}/")
    other = running_table.seats.exclude(position=seat).get().user
    assert not re.search(r"<title>\(\d", client_for(other).get("/").content.decode())


@pytest.mark.django_db
def test_spanish_pages(make_user):
    ana = make_user("ana", language="es")
    html = client_for(ana).get("/tables/").content.decode()
    # The catalogue is really used, not only the lang attribute: "Lobby" is "Sala".
    assert '<html lang="es">' in html and "<h1>Sala</h1>" in html
    html = Client(HTTP_HOST="localhost", HTTP_ACCEPT_LANGUAGE="es").get("/tables/").content.decode()
    assert '<html lang="es">' in html and "<h1>Sala</h1>" in html


@pytest.mark.django_db
def test_a_profile_language_lasts_one_request(make_user):
    """The profile's language and zone are this request's only: the answer says so, and
    the thread that served it (here the test's own) is back as it was."""
    from django.utils import timezone, translation

    ana = make_user("ana", language="es", timezone="Asia/Tokyo")
    before = translation.get_language()
    response = client_for(ana).get("/tables/")
    assert "<h1>Sala</h1>" in response.content.decode()
    assert response["Content-Language"] == "es"
    assert translation.get_language() == before
    assert timezone.get_current_timezone_name() != "Asia/Tokyo"
    bo = make_user("bo")
    response = client_for(bo).get("/tables/", HTTP_ACCEPT_LANGUAGE="en")
    assert "<h1>Lobby</h1>" in response.content.decode() and response["Content-Language"] == "en"


def test_test_game_is_off_without_its_setting():
    env = {k: v for k, v in os.environ.items() if k not in ("ENABLE_TEST_GAME", "GAME_APPS")}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    code = ("import django; django.setup()\n"
            "from games.tables.plugins import installed_games\n"
            "print(sorted(installed_games()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True).stdout
    assert "high-card" not in out
    env["ENABLE_TEST_GAME"] = "1"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True).stdout
    assert "high-card" in out


@pytest.mark.django_db
def test_several_bots_at_a_table_are_told_apart(make_user):
    from games.tables import actions

    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="high-card", players=3,
                                       bots={1: "random", 2: "greedy"})
    html = client_for(ana).get(f"/tables/{table.pk}/").content.decode()
    bots = {s.position: s.bot_level for s in table.seats.exclude(bot_level="")}
    for position, level in bots.items():
        assert f"Bot {position + 1} ({level})" in html

"""The new-table form offers every bot level of a game, each with a short description."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from games.tables.models import Table
from tests.pages import client_for


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["powerhouse", "gizmos", "flaming-pyramids"])
def test_the_form_offers_the_expert_level_and_describes_each_level(make_user, game):
    ana = make_user("ana")
    client = client_for(ana)
    page = htmllib.unescape(client.get(f"/tables/new/?game={game}").content.decode())
    for level in ("random", "fast", "strong", "expert"):
        assert f'<option value="{level}">Bot: {level}</option>' in page
    levels = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", page))
    assert list(levels) == ["random", "fast", "strong", "expert"]
    # Each game's expert says how it searches (the tests below)
    assert "beats “strong”" in levels["expert"]
    response = client.post("/tables/new/", {"game": game, "players": "2", "seat_1": "expert"})
    assert response.status_code == 302
    assert Table.objects.get().seats.get(position__in=[0, 1], bot_level="expert")


@pytest.mark.django_db
def test_the_level_descriptions_are_in_spanish(make_user):
    ana = make_user("ana", language="es")
    page = htmllib.unescape(client_for(ana).get("/tables/new/?game=powerhouse").content.decode())
    levels = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", page))
    assert set(levels) == {"aleatorio", "rápido", "fuerte", "experto"}, levels
    assert "órdenes posibles de la bolsa" in levels["experto"]


@pytest.mark.django_db
@pytest.mark.parametrize("game, english, spanish", [
    # measured at two players against strong (docs/games/<game>.md): 153/200 and 160/200
    ("flaming-pyramids", ("three placements ahead", "beats “strong” in about three games of four",
                          "picks the one that wins most often"),
     ("tres colocaciones adelante", "gana a «fuerte» unas tres partidas de cada cuatro",
      "elige la que gana más a menudo")),
    # 267/400; rollouts four turns long, the strong move kept unless clearly beaten
    ("powerhouse", ("a few turns ahead", "keeps the strong level’s move",
                    "beats “strong” in about two games of three"),
     ("unos turnos más allá", "se queda con la jugada de «fuerte»",
      "gana a «fuerte» unas dos partidas de cada tres")),
    # 387/400; rollouts 24 decisions long, then scored
    ("gizmos", ("some two dozen decisions ahead", "beats “strong” in about nineteen games of twenty"),
     ("unas dos docenas de decisiones", "gana a «fuerte» unas diecinueve partidas de cada veinte")),
])
def test_the_form_says_how_each_expert_searches_and_fares_against_strong(make_user, game, english,
                                                                         spanish):
    """Each game's expert searches its own way (none plays its guesses to the end at two
    players): the form says how, and how it fares against the strong level."""
    for language, level, words in (("en", "expert", english), ("es", "experto", spanish)):
        page = htmllib.unescape(client_for(make_user(f"u{language}", language=language))
                                .get(f"/tables/new/?game={game}").content.decode())
        levels = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", page))
        for phrase in words:
            assert phrase in levels[level], levels


@pytest.mark.django_db
def test_a_game_without_its_own_words_gets_the_general_expert_description(settings):
    from django.utils import translation

    from games.tables.plugins import bot_level_description

    for language, words in (("en", "up to about a second per move"),
                            ("es", "hasta alrededor de un segundo por jugada")):
        with translation.override(language):
            assert words in bot_level_description("expert")


def test_bot_expert_budget_scales_the_expert_iterations(settings):
    from games.engine import Rng, get_rules
    from games.powerhouse import bot, expert
    from games.tables.plugins import game_config

    rules = get_rules("powerhouse")
    state = rules.new_game(players=2, seed=8)
    for _ in range(6):   # a few moves in, where the draw is a real choice
        seat = min(rules.to_move(state))
        state = rules.apply(state, seat, bot.choose(rules.view(state, seat), rules.legal_moves(state, seat),
                                                    level="fast", rng=Rng.from_seed(1)))
    seat = min(rules.to_move(state))
    view, legal = rules.view(state, seat), rules.legal_moves(state, seat)
    settings.BOT_EXPERT_BUDGET = 0.1
    small = round(expert.ITERATIONS * 0.1)
    got = game_config("powerhouse").choose_bot_move(view, legal, level="expert", rng=Rng.from_seed("b"))
    assert got == bot.choose(view, legal, level="expert", rng=Rng.from_seed("b"), iterations=small)
    assert got in legal

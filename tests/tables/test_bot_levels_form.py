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
    # Flaming Pyramids' expert searches a few deals deeply (well under a second): its own
    # description says so (test below).
    words = "three placements ahead" if game == "flaming-pyramids" else "about a second per move"
    assert words in levels["expert"]
    response = client.post("/tables/new/", {"game": game, "players": "2", "seat_1": "expert"})
    assert response.status_code == 302
    assert Table.objects.get().seats.get(position__in=[0, 1], bot_level="expert")


@pytest.mark.django_db
def test_the_level_descriptions_are_in_spanish(make_user):
    ana = make_user("ana", language="es")
    page = htmllib.unescape(client_for(ana).get("/tables/new/?game=powerhouse").content.decode())
    levels = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", page))
    assert set(levels) == {"aleatorio", "rápido", "fuerte", "experto"}, levels
    assert "un segundo por jugada" in levels["experto"]


@pytest.mark.django_db
def test_the_form_says_how_the_flaming_pyramids_expert_compares_with_strong(make_user):
    """Flaming Pyramids' expert measured against its strong level: the form says how it
    fares, and how it plays at more than two players."""
    for language, level, words in (
            ("en", "expert", ("beats “strong” in about three games of four",
                              "picks the one that wins most often")),
            ("es", "experto", ("gana a «fuerte» unas tres partidas de cada cuatro",
                               "elige la que gana más a menudo"))):
        page = htmllib.unescape(client_for(make_user(f"u{language}", language=language))
                                .get("/tables/new/?game=flaming-pyramids").content.decode())
        levels = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", page))
        for phrase in words:
            assert phrase in levels[level], levels


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

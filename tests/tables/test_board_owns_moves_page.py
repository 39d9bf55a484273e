"""The table page and the new-table form take what a game says about itself: a board that
draws every move hides the generic list (or keeps it for screen readers only), move
buttons say the game's words for signs, bot levels carry the game's own names."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from games.tables import actions
from games.tables.plugins import game_config
from tests.high_card import display as high_card_display
from tests.pages import client_for, page

pytestmark = pytest.mark.django_db


def play_area(html: str) -> str:
    start = html.index('id="play-area"')
    return html[start:html.index("</section>", start)]


def ana_to_move(running_table):
    ana = running_table.seats.get(position=0).user
    assert 0 in running_table.to_move
    return ana


def test_a_game_without_the_declaration_lists_its_moves(running_table):
    area = play_area(page(client_for(ana_to_move(running_table)), running_table))
    assert "<h2>Your moves</h2>" in area
    assert ">Draw a card</button>" in area and ">Keep your hand</button>" in area


def test_a_board_that_draws_every_move_hides_the_list(running_table, monkeypatch):
    monkeypatch.setattr(game_config("high-card"), "board_controls", True)
    area = play_area(page(client_for(ana_to_move(running_table)), running_table))
    assert "move-form" not in area and "Your moves</h2>" not in area
    assert "Draw a card" not in area


def test_the_list_can_stay_for_screen_readers_as_labelled_buttons(running_table, monkeypatch):
    config = game_config("high-card")
    monkeypatch.setattr(config, "board_controls", True)
    monkeypatch.setattr(config, "screen_reader_moves", True)
    area = play_area(page(client_for(ana_to_move(running_table)), running_table))
    hidden = area[area.index('<div class="moves-for-screen-readers">'):]
    assert "<h2>Your moves</h2>" in hidden
    items = re.findall(r"<li><form [^>]*class=\"move-form[^\"]*\">.*?</form>\s*</li>", hidden, re.S)
    assert len(items) == 2
    assert ">Draw a card</button>" in items[0] and ">Keep your hand</button>" in items[1]


def test_a_move_button_says_the_games_words_for_a_sign(running_table, monkeypatch):
    monkeypatch.setattr(high_card_display, "move_label",
                        lambda move, view: {"draw": "＋", "keep": "✋"}[move["type"]], raising=True)
    monkeypatch.setattr(high_card_display, "move_spoken", lambda move, view: {
        "draw": "Draw a card from the deck", "keep": "Keep the hand you have"}[move["type"]],
        raising=False)
    area = htmllib.unescape(play_area(page(client_for(ana_to_move(running_table)), running_table)))
    assert ('<button type="submit"  class="move-button"><span aria-hidden="true">＋</span>'
            '<span class="visually-hidden">Draw a card from the deck</span></button>') in area
    assert '<span class="visually-hidden">Keep the hand you have</span>' in area


def test_a_board_passes_spoken_words_to_the_shared_move_form(running_table):
    from django.template import Context, Template

    html = Template('{% include "tables/_move_form.html" with m=m content="●" spoken="Take the black token" %}'
                    ).render(Context({"m": {"json": "{}", "label": "Take"}, "table": running_table,
                                      "based_on": 3}))
    assert ('<span aria-hidden="true">●</span><span class="visually-hidden">Take the black token'
            '</span></button>') in html


@pytest.fixture
def own_level_names(monkeypatch):
    monkeypatch.setattr(high_card_display, "LEVEL_LABELS", {"greedy": "card shark"}, raising=False)
    monkeypatch.setattr(high_card_display, "LEVEL_DESCRIPTIONS",
                        {"greedy": "Always lays down its highest card."}, raising=False)


def test_the_new_table_form_uses_the_games_own_level_names(make_user, own_level_names):
    html = htmllib.unescape(client_for(make_user("ana")).get("/tables/new/?game=high-card")
                            .content.decode())
    assert '<option value="greedy">Bot: card shark</option>' in html
    assert '<option value="random">Bot: random</option>' in html
    levels = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", html))
    assert levels["card shark"] == "Always lays down its highest card."
    assert levels["random"] == "Plays any legal move, at random."


def test_the_table_page_names_the_bot_by_the_games_level_name(make_user, own_level_names):
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="high-card", players=2,
                                       bots={1: "greedy"})
    html = htmllib.unescape(page(client_for(ana), table))
    assert "Bot (card shark)" in html and "Bot (greedy)" not in html


@pytest.mark.parametrize("game", ["powerhouse", "gizmos", "flaming-pyramids"])
def test_the_in_tree_boards_keep_the_list_for_screen_readers_only(make_user, game):
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game=game, players=2, bots={1: "random"})
    table.refresh_from_db()
    seat = table.seats.get(user=ana).position
    html = page(client_for(ana), table)
    area = play_area(html)
    if seat not in table.to_move:
        assert "move-form" not in area
        return
    assert '<div class="moves-for-screen-readers">' in area and "details" not in area
    board = html[html.index('id="board"'):html.index('id="play-area"')]
    listed = set(re.findall(r'name="move" value="([^"]*)"', area))
    assert listed and listed <= set(re.findall(r'name="move" value="([^"]*)"', board))

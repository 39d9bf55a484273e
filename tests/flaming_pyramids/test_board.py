"""The Flaming Pyramids table page: drawn from each viewer's view with nothing hidden on it
(checked against the state), every log kind in words in English and Spanish, the choices on
the board itself (a tile and a spot with the rules' preview before confirming, the landing
cells of a falling tile, also when the Curse makes the previous player decide), the table
options in the new-table form, and whole games against bots through the HTTP views."""

from __future__ import annotations

import html as htmllib
import json
import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.engine import Rng
from games.flaming_pyramids import bot, display
from games.flaming_pyramids.rules import RULES, TILE_IDS, preview_view
from games.tables import actions
from games.tables.models import Table
from games.tables.replay import current_state
from tests.flaming_pyramids.helpers import position
from tests.pages import client_for, fixed_seed, forms_in, keys, page, post_form

PYRAMID_TILE = re.compile(r'<div class="fp-cell fp-at-cell[^"]*" data-tile="([a-z0-9-]+)"')
HAND_TILE = re.compile(r'class="fp-hand-tile" data-tile="([a-z0-9-]+)"')
LOG_KINDS = {"start", "turn", "place", "fall", "collapse", "explosion", "fire", "roll", "curse",
             "draw", "win"}
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]


def board_part(html: str) -> str:
    """The board section only (the generic move list under it is the fallback)."""
    start = html.index('<section id="board"')
    end = html.find('<section id="', start + 1)
    return html[start:end if end > 0 else len(html)]


def humans_table(make_user, players: int, *, seed: int, options=None):
    users = [make_user(f"p{i}") for i in range(players)]
    with fixed_seed(seed):
        table = actions.check_create_table(creator=users[0], game="flaming-pyramids",
                                           players=players, options=options)
    for user in users[1:]:
        actions.check_join_table(table_id=table.pk, user=user)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    return table, {s.position: s.user for s in table.seats.select_related("user")}


def fast_choice(state: dict, seat: int) -> dict:
    """What the fast bot would do: a sensible, deterministic player."""
    legal = RULES.legal_moves(state, seat)
    return bot.choose(RULES.view(state, seat), legal, level="fast", rng=Rng.from_seed(0))


def secret_tiles(state: dict, seat: int | None) -> set[str]:
    """Tiles `seat` must not see: the unseen part of other hands and of every draw pile."""
    secret = set()
    for other in range(state["players"]):
        if other != seat:
            secret |= set(state["hands"][other]) - set(state["hand_known"][other])
        pile = state["piles"][other]
        secret |= set(pile[:len(pile) - state["pile_known"][other]])
    return secret


def english_name(tile: str) -> str:
    with translation.override("en"):
        return display.tile_name(tile)


def assert_no_secrets(html: str, table, state: dict, seat) -> None:
    """No hidden tile by id or by name, and no seed or generator state, anywhere on the page."""
    assert str(table.seed) not in html and str(state["rng"]) not in html
    secret = sorted(secret_tiles(state, seat))
    if not secret:
        return
    ids = "|".join(re.escape(t) for t in secret)
    names = "|".join(re.escape(english_name(t)) for t in secret)
    found = re.findall(rf"(?<![\w-])(?:{ids})(?![\w-])|\b(?:{names})\b", html)
    assert not found, (seat, found)


def assert_board_matches(html: str, state: dict, seat) -> None:
    board = board_part(html)
    assert sorted(PYRAMID_TILE.findall(board)) == sorted(t for _r, _x, t in state["board"])
    if isinstance(seat, int):
        assert sorted(HAND_TILE.findall(board)) == sorted(state["hands"][seat])
    else:
        assert not HAND_TILE.findall(board)
    for s in range(state["players"]):
        left = len(state["hands"][s]) + len(state["piles"][s])
        card = board[board.index(f'data-testid="fp-seat-{s}"'):]
        card = card[:card.index("</article>")]
        assert re.search(rf"\b{left} tiles? left\b", card), (s, left)


# -- pages -----------------------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("players,options", [
    (2, {}), (3, {"curse": True}), (4, {"fire_die": True}), (5, {"curse": True, "fire_die": True}),
    (6, {"curse": True, "fire_die": True}),
])
def test_page_renders_for_every_seat_and_a_spectator_without_secrets(make_user, players, options):
    # A long seed, so its digits cannot turn up on the page by chance.
    table, users = humans_table(make_user, players, seed=7_340_033_101 * players, options=options)
    spectator = make_user("sam")
    for _step in range(6 if players < 4 else 4):
        state = current_state(table)
        if state["winner"] is not None:
            break
        pages = {seat: page(client_for(user), table) for seat, user in users.items()}
        pages[None] = page(client_for(spectator), table)
        pages["anonymous"] = page(client_for(), table)
        for seat, html in pages.items():
            who = seat if isinstance(seat, int) else None
            assert 'data-testid="fp-board"' in html
            assert_board_matches(html, state, who)
            assert_no_secrets(html, table, state, who)
            moves = keys(m for m, _b in forms_in(html))
            if isinstance(seat, int):
                assert moves == keys(RULES.legal_moves(state, seat)), seat
                # Every move is also on the board itself, not only in the list under it.
                assert keys(m for m, _b in forms_in(board_part(html))) == moves
            else:
                assert not moves
        seat = min(RULES.to_move(state))
        move = fast_choice(state, seat)
        based_on = forms_in(pages[seat])[0][1]
        assert post_form(client_for(users[seat]), table, move, based_on).status_code == 303
        table.refresh_from_db()
    assert table.events.filter(kind="move").exists()


@pytest.mark.django_db
def test_the_known_bottom_of_a_pile_and_known_hand_tiles_show_and_nothing_else(make_user):
    """Mayhem sends tiles face up under a pile: everyone sees them there, and in the hand
    they are drawn into; the unseen rest of that pile and hand stays hidden."""
    table, users = humans_table(make_user, 2, seed=5_000_000_017, options={})
    for _step in range(400):
        state = current_state(table)
        assert state["winner"] is None, "no tile went to a pile before the end"
        if any(state["pile_known"]) or any(state["hand_known"]):
            break
        seat = min(RULES.to_move(state))
        view = RULES.view(state, seat)
        # Prefer a move that sends tiles somewhere, else the fast bot's.
        legal = RULES.legal_moves(state, seat)
        move = next((m for m in legal if not preview_view(view, m)["quiet"]), None) or \
            fast_choice(state, seat)
        actions.check_submit_move(table_id=table.pk, seat=seat, move=move, based_on=table.seq,
                                  actor=users[seat])
        table.refresh_from_db()
    state = current_state(table)
    owner = next(s for s in range(2) if state["pile_known"][s] or state["hand_known"][s])
    for seat in (0, 1, None):
        html = page(client_for(users[seat]) if seat is not None else client_for(), table)
        card = board_part(html)
        card = card[card.index(f'data-testid="fp-seat-{owner}"'):]
        card = card[:card.index("</article>")]
        pile = state["piles"][owner]
        for tile in pile[len(pile) - state["pile_known"][owner]:]:
            assert english_name(tile) in card
        if seat != owner:
            for tile in state["hand_known"][owner]:
                assert english_name(tile) in card
        assert_no_secrets(html, table, state, seat)


@pytest.mark.django_db
def test_spanish_page_renders(make_user):
    table, users = humans_table(make_user, 3, seed=9, options={"curse": True, "fire_die": True})
    state = current_state(table)
    html = page(client_for(users[state["active"]], HTTP_ACCEPT_LANGUAGE="es"), table)
    assert 'data-testid="fp-board"' in html and 'lang="es"' in html


@pytest.mark.django_db
def test_moves_posted_through_the_board_forms_work(make_user):
    table, users = humans_table(make_user, 2, seed=3)
    state = current_state(table)
    seat = state["active"]
    html = page(client_for(users[seat]), table)
    assert "Your turn:" in html
    board = board_part(html)
    places = forms_in(board)
    assert keys(m for m, _b in places) == keys(RULES.legal_moves(state, seat))
    # Each placement has its own confirm panel with the rules' preview.
    assert board.count('data-testid="fp-confirm"') == len(places)
    move, based_on = places[-1]
    response = post_form(client_for(users[seat]), table, move, based_on, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'role="alert"' not in response.content.decode()
    table.refresh_from_db()
    entry = next(e for e in current_state(table)["log"] if e["kind"] == "place")
    assert (entry["seat"], entry["tile"], entry["r"], entry["x"]) == \
        (seat, move["tile"], move["r"], move["x"])
    names = [users[0].name, users[1].name]
    line = display.log_line(entry, {}, names)
    assert line.startswith(f"{names[seat]} placed {english_name(move['tile'])} ")
    assert htmllib.escape(line) in page(client_for(users[1 - seat]), table)
    # A stale form is refused without a write.
    before = table.events.count()
    assert post_form(client_for(users[seat]), table, *places[0]).status_code == 303
    assert table.events.count() == before


@pytest.mark.django_db
def test_the_new_table_form_offers_two_to_six_players_bots_and_both_variants(make_user):
    ana = make_user("ana")
    client = client_for(ana)
    form = client.get("/tables/new/?game=flaming-pyramids").content.decode()
    players = re.search(r'<select name="players".*?</select>', form, re.S).group(0)
    assert re.findall(r'<option value="(\d)"', players) == ["2", "3", "4", "5", "6"]
    assert 'name="option_curse"' in form and 'name="option_fire_die"' in form
    assert 'name="seat_5"' in form and 'value="fast"' in form and 'value="strong"' in form
    response = client.post("/tables/new/", {
        "game": "flaming-pyramids", "players": "6", "option_curse": "on", "option_fire_die": "on",
        **{f"seat_{i}": "fast" for i in range(1, 6)}})
    table = Table.objects.get()
    assert response.status_code == 302 and table.options == {"curse": True, "fire_die": True}
    assert table.status == Table.Status.RUNNING
    html = page(client, table)
    assert "The Curse" in html and "The Fire Die" in html and 'data-testid="fp-board"' in html


# -- the board drawn from a handmade position --------------------------------------------------

def board_html(state: dict, seat: int | None, names=NAMES) -> str:
    """The board template for `seat`, from the rules' view and legal moves only."""
    view = RULES.view(state, seat)
    moves = [] if seat is None else [
        {"move": m, "json": json.dumps(m, sort_keys=True), "label": display.move_label(m, view)}
        for m in RULES.legal_moves(state, seat)]
    table = SimpleNamespace(pk=1, status="running")
    tv = SimpleNamespace(view=view, viewer=SimpleNamespace(seat=seat), moves=moves, table=table,
                         seats=[{"position": i, "name": names[i], "is_bot": False}
                                for i in range(state["players"])])
    return render_to_string("flaming_pyramids/board.html",
                            {"tv": tv, "table": table, "based_on": 7})


def test_a_collapse_is_announced_before_confirming_with_the_rules_preview():
    board = {(0, 0): "stone-red-60", (0, 2): "stone-blue-60"}
    state = position(board, hand=["wood-green-10", "stone-red-100"])
    html = board_html(state, 0)
    bad = {"type": "place", "tile": "wood-green-10", "r": 1, "x": 1}
    good = {"type": "place", "tile": "stone-red-100", "r": 1, "x": 1}
    assert preview_view(RULES.view(state, 0), bad)["message"].startswith("This placement will collapse")
    panels = html.split('data-testid="fp-confirm"')[1:]
    texts = {}
    for panel in panels:
        (move, _b), = forms_in(panel)
        texts[move["tile"]] = re.search(r'data-testid="fp-preview">([^<]*)<', panel).group(1)
    assert texts["wood-green-10"] == ("This placement will collapse: 2 tiles come back to you. "
                                      "You will choose how tiles fall.")
    assert texts["stone-red-100"] == "This placement is sound: nothing happens."
    assert keys(m for m, _b in forms_in(html)) == keys([bad, good])
    # The only spot is preselected; each hand tile carries a badge: ✓ or the tiles back.
    assert re.search(r'id="fp-spot-1-1" value="1-1" form="fp-pick-form" checked', html)
    assert "+2</span>" in html and "✓</span>" in html
    assert "Place green wood 10 on red stone 60 and blue stone 60" in html
    # The other players see the spot, but no choices and no hand.
    other = board_html(state, 1)
    assert "Available spot on red stone 60 and blue stone 60" in other
    assert 'data-testid="fp-confirm"' not in other and not forms_in(other)
    assert "Ana is placing a tile." in other


def test_fall_directions_are_chosen_on_the_landing_cells():
    board = {(0, 0): "stone-red-60", (0, 2): "stone-blue-60"}
    state = RULES.apply(position(board, hand=["wood-green-10", "stone-red-100"]), 0,
                        {"type": "place", "tile": "wood-green-10", "r": 1, "x": 1})
    assert state["pending"]["decider"] == 0
    html = board_html(state, 0)
    assert "green wood 10 is in free air: choose where it falls" in html
    for direction, cell in (("left", (0, 0)), ("right", (0, 2))):
        land = html[html.index(f'data-testid="fp-land-{direction}"'):]
        land = land[:land.index("</div>")]
        (move, _b), = forms_in(land)
        assert move == {"type": "fall", "direction": direction}
        assert f"Let green wood 10 fall to the {direction}" in land
    assert "Left:</strong> The tile comes to rest: nothing else happens." in html
    # The log tells the collapse; the recap shows this turn's steps in order.
    recap = html[html.index('data-testid="fp-recap"'):]
    assert recap.index("placed green wood 10 in row 2, against the building rules!") < \
        recap.index("Collapse! green wood 10 does not hold: red stone 60 and blue stone 60 go "
                    "under Ana&#x27;s pile.")
    watcher = board_html(state, 1)
    assert "green wood 10 is in free air: Ana chooses where it falls." in watcher
    assert not forms_in(watcher) and watcher.count("fp-land-mark") == 2


def test_after_a_curse_the_previous_player_decides_a_fall_outside_their_turn():
    # Ana (0) completes a trio of 20s; the Curse sends it under the pile of Cy (2), the
    # previous player, and the red 10 left overhanging on the yellow 60 collapses: Cy
    # receives its supporter and decides where it falls, during Ana's turn.
    board = {(0, -2): "stone-yellow-60", (0, 0): "wood-red-20", (0, 2): "wood-blue-20",
             (1, -1): "wood-red-10"}
    state = position(board, hand=["wood-green-20"], players=3, active=0, options={"curse": True})
    state = RULES.apply(state, 0, {"type": "place", "tile": "wood-green-20", "r": 1, "x": 1})
    assert state["pending"]["decider"] == 2 and state["active"] == 0
    assert RULES.to_move(state) == frozenset([2])
    cy = board_html(state, 2)
    assert "red wood 10 is in free air: choose where it falls" in cy
    assert "It is Ana&#x27;s turn, but the Curse struck: you decide the falls" in cy
    assert keys(m for m, _b in forms_in(cy)) == keys(RULES.legal_moves(state, 2))
    assert 'data-testid="fp-land-left"' in cy and 'data-testid="fp-land-right"' in cy
    ana = board_html(state, 0)
    assert "red wood 10 is in free air: Cy chooses where it falls." in ana
    assert "The Curse struck: Cy, the previous player, decides the falls" in ana
    assert not forms_in(ana)
    assert "The Curse! Three 20 in a mini-pyramid:" in ana


def test_a_fire_die_placement_shows_its_chances():
    # A blowtorch next to straw with the Fire Die: the preview gives a range, not a guess.
    board = {(0, 0): "straw-red-2", (0, 2): "stone-blue-60"}
    state = position(board, hand=["blowtorch-red"], options={"fire_die": True})
    html = board_html(state, 0)
    assert "This placement sets off the Fire Die: between 0 and 2 tiles may come back to you, " \
           "depending on the roll." in html
    assert "⚄+0–2" in html


# -- words ------------------------------------------------------------------------------------

def _sample_entries() -> dict[str, list[dict]]:
    """Log entries of every kind (and every Fire Die result) from random playouts."""
    found: dict[str, list[dict]] = {}
    results = set()
    for seed in range(60):
        s = RULES.new_game(players=3, seed=seed, options={"curse": True, "fire_die": seed % 2 == 0})
        rng = Rng.from_seed(seed)
        for _n in range(400):
            if s["winner"] is not None:
                break
            seat = min(RULES.to_move(s))
            s = RULES.apply(s, seat, rng.choice(RULES.legal_moves(s, seat)))
        for seat in (0, None):
            for entry in RULES.view(s, seat)["log"]:
                found.setdefault(entry["kind"], []).append(entry)
                if entry["kind"] == "roll":
                    results.add(entry["result"])
        if LOG_KINDS <= set(found) and len(results) == 4:
            break
    assert len(results) == 4, results
    return found


def test_every_log_kind_has_words_in_english_and_spanish():
    found = _sample_entries()
    assert LOG_KINDS == set(found), sorted(LOG_KINDS ^ set(found))
    view = RULES.view(RULES.new_game(players=3, seed=1), None)
    assert any("tiles" in e for e in found["draw"]) and any(e.get("known") for e in found["draw"])
    for lang in ("en", "es"):
        with translation.override(lang):
            for kind, entries in found.items():
                for entry in entries[:40]:
                    line = display.log_line(entry, view, NAMES[:3])
                    assert line.strip(), entry
                    assert "%(" not in line and "{" not in line, line


def test_the_log_tells_the_story():
    line = display.log_line
    names = NAMES[:3]
    assert line({"kind": "place", "seat": 1, "tile": "wood-red-20", "r": 2, "x": 0, "sound": True},
                {}, names) == "Bo placed red wood 20 in row 3; it holds."
    assert line({"kind": "fall", "seat": 0, "tile": "straw-blue-4", "from": [1, 1], "to": [0, 0],
                 "direction": "left"}, {}, names) == \
        "Blue straw 4 falls to the left, in the bottom row (Ana chose)."
    assert line({"kind": "collapse", "to": 2, "tile": {"tile": "millstone", "r": 1, "x": 1},
                 "sent": [{"tile": "stone-red-60", "r": 0, "x": 0}], "out": []}, {}, names) == \
        "Collapse! the Millstone does not hold: red stone 60 goes under Cy's pile."
    assert line({"kind": "fire", "to": 0, "incendiaries": [{"tile": "coal-yellow", "r": 0, "x": 0}],
                 "sent": [{"tile": "straw-red-2", "r": 0, "x": 2},
                          {"tile": "straw-green-6", "r": 1, "x": 1}],
                 "out": ["coal-yellow"]}, {}, names) == (
        "Fire! yellow coal sets the pyramid alight: red straw 2 and green straw 6 go under "
        "Ana's pile, and yellow coal leaves the game.")
    assert line({"kind": "roll", "value": 6, "result": "smoke", "to": 0,
                 "incendiaries": [{"tile": "blowtorch-blue", "r": 0, "x": 0}], "sent": [],
                 "out": []}, {}, names) == \
        "Fire Die: 6, only smoke. Nothing burns and blue blowtorch stays."
    assert line({"kind": "curse", "to": 2, "sent": [{"tile": "wood-green-20", "r": 1, "x": 1},
                                                    {"tile": "wood-red-20", "r": 0, "x": 0},
                                                    {"tile": "wood-blue-20", "r": 0, "x": 2}],
                 "out": []}, {}, names) == (
        "The Curse! Three 20 in a mini-pyramid: green wood 20, red wood 20 and blue wood 20 go "
        "under Cy's pile, the previous player.")
    assert line({"kind": "draw", "seat": 1, "count": 2, "known": ["stone-red-60"]}, {}, names) == \
        "Bo drew 2 tiles, among them red stone 60 from the known bottom of the pile."
    assert line({"kind": "draw", "seat": 1, "count": 1, "known": [], "tiles": ["wood-red-30"]},
                {}, names) == "You drew red wood 30."
    assert line({"kind": "win", "seat": 2, "turn": 40}, {}, names) == "Cy has no tiles left and wins!"
    with translation.override("es"):
        assert display.tile_name("wood-red-20") != ""  # the catalogue may come later


def test_every_move_has_a_label():
    s = RULES.new_game(players=3, seed=4, options={"curse": True})
    rng = Rng.from_seed(4)
    kinds = set()
    for _n in range(300):
        if s["winner"] is not None:
            break
        for seat in sorted(RULES.to_move(s)):
            view = RULES.view(s, seat)
            for move in RULES.legal_moves(s, seat):
                label = display.move_label(move, view)
                assert label and "%(" not in label and label != move["type"], move
                kinds.add(move["type"])
        seat = min(RULES.to_move(s))
        s = RULES.apply(s, seat, rng.choice(RULES.legal_moves(s, seat)))
    assert kinds == {"place", "fall"}


def test_tile_names_cover_every_tile():
    names = {english_name(t) for t in TILE_IDS}
    assert len(names) == 45
    assert {"yellow coal", "red blowtorch", "the Millstone", "blue stone 120", "green straw 2"} <= names


# -- whole games --------------------------------------------------------------------------------

def _play_against_bots(make_user, *, players: int, options: dict, seed: int, limit: int = 300):
    ana = make_user("ana")
    with fixed_seed(seed):
        table = actions.check_create_table(creator=ana, game="flaming-pyramids", players=players,
                                           options=options,
                                           bots={i: "fast" for i in range(1, players)})
    table.refresh_from_db()
    me = table.seats.get(user=ana).position
    client = client_for(ana)
    html = page(client, table)
    decisions = 0
    kinds = set()
    while True:
        forms = forms_in(board_part(html))
        if not forms:
            break
        assert decisions < limit, "the game did not end"
        table.refresh_from_db()
        move = fast_choice(current_state(table), me)
        assert keys([move]) <= keys(m for m, _b in forms), "the move is not on the board"
        response = post_form(client, table, move, forms[0][1], HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        html = response.content.decode()
        assert 'role="alert"' not in html, html[:500]
        # The htmx answer carries the board out of band, with the bots' moves made.
        decisions += 1
        kinds.add(move["type"])
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED, (table.status, table.to_move, me)
    return table, me, page(client, table), kinds


@pytest.mark.django_db(transaction=True)
def test_a_whole_two_player_game_against_the_fast_bot_through_the_pages(make_user):
    table, me, html, kinds = _play_against_bots(make_user, players=2, options={}, seed=7)
    winner = table.outcome["winners"][0]
    state = current_state(table)
    assert state["winner"] == winner and not state["hands"][winner] and not state["piles"][winner]
    assert "has no tiles left and wins!" in html or "You have no tiles left: you win!" in html
    assert "place" in kinds
    assert not forms_in(html)


@pytest.mark.django_db(transaction=True)
def test_a_whole_six_player_game_with_both_variants_against_bots(make_user):
    table, me, html, kinds = _play_against_bots(
        make_user, players=6, options={"curse": True, "fire_die": True}, seed=2)
    assert table.outcome["reason"] == "no_tiles_left"
    assert "The Curse" in html and "The Fire Die" in html
    assert html.count('data-testid="fp-seat-') == 6

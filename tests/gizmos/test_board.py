"""The Gizmos table page: drawn from each viewer's view, no secrets, every log kind in
words, moves through the page's own forms, and a whole game against bots over HTTP."""

from __future__ import annotations

import json
import re
import secrets

import pytest
from django.utils import translation

from games.engine import Rng
from games.gizmos import display
from games.gizmos.rules import CARDS, COLORS
from games.tables import actions
from games.tables.models import Table
from games.tables.replay import current_state

from .helpers import RULES
from tests.pages import client_for, fixed_seed, forms_in, page, post_form

CARD_ID = re.compile(r"L[0-3]-[0-9]{2}")
LOG_KINDS = {"start", "turn", "file", "pick", "build", "row_refill", "research", "research_draw",
             "decline", "research_end", "use", "stop", "pass", "end_triggered", "end_turn", "game_end"}


def humans_table(make_user, players: int, seed: int | None = None) -> tuple[Table, dict[int, object]]:
    """A running table of people only; returns it and position -> user.

    The seed is drawn at random unless given; a failing secrecy check prints it, and
    `seed=` replays that game."""
    users = [make_user(f"p{i}") for i in range(players)]
    with fixed_seed(secrets.randbits(62) if seed is None else seed):
        table = actions.check_create_table(creator=users[0], game="gizmos", players=players)
    for user in users[1:]:
        actions.check_join_table(table_id=table.pk, user=user)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    return table, {s.position: s.user for s in table.seats.select_related("user")}


def secrets_for(state: dict, seat: int | None) -> set[str]:
    """Card ids the viewer must not see: deck contents, removed cards, another's research."""
    hidden = set(state["removed"]) | set(state["box"])
    for deck in state["decks"].values():
        hidden |= set(deck)
    if state["research"] and seat != state["current"]:
        hidden |= set(state["research"]["cards"])
    if state["phase"] == "pay":
        hidden.discard(state["pending"]["card"])  # public from the choice on (docs/games/gizmos.md)
    return hidden


def seen_ids(html: str) -> set[str]:
    return set(CARD_ID.findall(html)) & set(CARDS)


def where(state: dict, cid: str) -> str:
    """Where a card is in `state`, in words (for a failure's message)."""
    places = [f"level {lvl} deck, {deck.index(cid)} from the top of {len(deck)}"
              for lvl, deck in state["decks"].items() if cid in deck]
    places += [f"level {lvl} display" for lvl, row in state["display"].items() if cid in row]
    places += [name for name in ("removed", "box") if cid in state[name]]
    places += [f"seat {q}'s {part}" for q, p in enumerate(state["seats"])
               for part in ("gizmos", "archive") if cid in p[part]]
    if state["research"] and cid in state["research"]["cards"]:
        places.append(f"seat {state['current']}'s research")
    return " and ".join(places) or "nowhere"


def assert_no_secrets(table, state, pages: dict) -> None:
    """`pages`: seat (None for a spectator) -> html."""
    # The pages must show the state the secrets were read from: nothing moved meanwhile.
    seq = table.seq
    table.refresh_from_db()
    assert table.seq == seq, f"table {table.pk} moved from seq {seq} to {table.seq} under the pages"
    for seat, html in pages.items():
        leak = seen_ids(html) & secrets_for(state, seat)
        assert not leak, (
            f"seat {seat} sees hidden cards {sorted(leak)} (table seed {table.seed}, seq "
            f"{table.seq}, {state['players']} players, phase {state['phase']}, seat "
            f"{state['current']} to move; "
            + "; ".join(f"{cid}: {where(state, cid)}" for cid in sorted(leak)) + ")")
        if state["research"] and seat != state["current"]:
            for cid in state["research"]["cards"]:
                assert f'data-card="{cid}"' not in html


def choose(moves: list[dict]) -> dict:
    """A simple, deterministic player: builds, then picks, uses and pays; never stalls."""
    order = ("build", "spend", "convert", "use", "pick", "file", "bottom", "end_turn", "decline",
             "stop", "research", "pass")
    return min(moves, key=lambda m: (order.index(m["type"]) if m["type"] in order else 99,
                                      json.dumps(m, sort_keys=True)))


# -- pages -----------------------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 3, 4])
def test_page_renders_for_every_seat_and_a_spectator_without_secrets(make_user, players):
    table, users = humans_table(make_user, players)
    spectator = make_user("sam")
    assert seen_ids(page(client_for(), table)) <= seen_ids(page(client_for(spectator), table))
    # Play the page's own forms for a while (a research included); look at every page.
    for step in range(7):
        state = current_state(table)
        pages = {seat: page(client_for(user), table) for seat, user in users.items()}
        pages[None] = page(client_for(spectator), table)
        assert_no_secrets(table, state, pages)
        for seat, html in pages.items():
            assert 'data-testid="gz-board"' in html
            moves = {json.dumps(m, sort_keys=True) for m, _b in forms_in(html)}
            if seat == state["current"]:
                assert moves == {json.dumps(m, sort_keys=True) for m in RULES.legal_moves(state, seat)}
            else:
                assert not moves
        seat = state["current"]
        forms = forms_in(pages[seat])
        research = [m for m, _b in forms if m["type"] == "research"]
        move = research[0] if research and step == 2 else choose([m for m, _b in forms])
        assert post_form(client_for(users[seat]), table, move, forms[0][1]).status_code == 303
        table.refresh_from_db()


@pytest.mark.django_db
def test_research_draws_show_only_to_the_researcher(make_user):
    table, users = humans_table(make_user, 3)
    state = current_state(table)
    seat = state["current"]
    html = page(client_for(users[seat]), table)
    move, based_on = next((m, b) for m, b in forms_in(html) if m == {"type": "research", "level": 2})
    post_form(client_for(users[seat]), table, move, based_on)
    table.refresh_from_db()
    state = current_state(table)
    drawn = state["research"]["cards"]
    assert len(drawn) == 3
    mine = page(client_for(users[seat]), table)
    for cid in drawn:
        assert f'data-card="{cid}"' in mine
    assert "You drew:" in mine
    others = {q: page(client_for(u), table) for q, u in users.items() if q != seat}
    others[None] = page(client_for(make_user("sam")), table)
    assert_no_secrets(table, state, others)
    for html in others.values():
        assert "You drew:" not in html
        assert html.count('class="gz-card gz-back"') == 3
    # The researcher's clickable choices are on the drawn cards.
    assert re.search(r'data-card="%s".*?gz-act-file' % drawn[0], mine, re.S)


@pytest.mark.django_db
def test_moves_posted_through_the_board_forms_work(make_user):
    table, users = humans_table(make_user, 2)
    state = current_state(table)
    seat = state["current"]
    html = page(client_for(users[seat]), table)
    # The Energy Row spheres are buttons on the board.
    assert 'gz-sphbtn' in html
    pick = next((m, b) for m, b in forms_in(html) if m["type"] == "pick")
    response = post_form(client_for(users[seat]), table, *pick)
    assert response.status_code == 303
    table.refresh_from_db()
    state = current_state(table)
    assert any(e["kind"] == "pick" and e["seat"] == seat for e in state["log"])
    assert table.events.filter(kind="move").count() == 1
    # A stale form is refused without a write.
    again = post_form(client_for(users[seat]), table, *pick)
    assert again.status_code == 303
    assert table.events.filter(kind="move").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_against_bots_through_the_pages(make_user):
    ana = make_user("ana")
    table = actions.check_create_table(creator=ana, game="gizmos", players=3,
                                       bots={1: "fast", 2: "random"})
    table.refresh_from_db()
    me = table.seats.get(user=ana).position
    client = client_for(ana)
    html = page(client, table)
    decisions = 0
    while True:
        forms = forms_in(html)
        if not forms:
            break
        assert decisions < 1500, "the game did not end"
        move = choose([m for m, _b in forms])
        # htmx posts answer with the play area and the board for this viewer, after the bots.
        response = client.post(f"/tables/{table.pk}/move", {
            "move": json.dumps(move), "based_on": forms[0][1]}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        html = response.content.decode()
        assert 'role="alert"' not in html, html[:500]
        decisions += 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED, (table.status, table.to_move, me)
    html = page(client, table)
    assert 'data-testid="results"' in html and "Game over" in html
    assert not forms_in(html)
    assert current_state(table)["over"] and table.outcome["winners"]


# -- words ------------------------------------------------------------------------------------

def _sample_games():
    """Log entries of every kind (with the view they were logged in) from seeded playouts."""
    found: dict[str, tuple[dict, dict]] = {}
    for game in range(8):
        players = 2 + game % 3
        s = RULES.new_game(players=players, seed=4000 + game)
        rng = Rng.from_seed(game)
        while not s["over"]:
            seat = s["current"]
            legal = RULES.legal_moves(s, seat)
            stops = [m for m in legal if m["type"] in ("stop", "decline")]
            builds = [m for m in legal if m["type"] in ("build", "spend", "convert", "use")]
            if stops and rng.random() < 0.3:
                move = rng.choice(stops)
            elif builds and rng.random() < 0.85:
                move = rng.choice(builds)
            else:
                move = rng.choice(legal)
            s = RULES.apply(s, seat, move)
        for seat in range(players):
            view = RULES.view(s, seat)
            for entry in view["log"]:
                found.setdefault(entry["kind"], (entry, view))
    return found


def test_every_log_kind_has_words_in_english_and_spanish():
    found = _sample_games()
    # A pass needs a position with no legal action at all; its entry is tiny, so make one.
    s = RULES.new_game(players=2, seed=1)
    view = RULES.view(s, 0)
    found.setdefault("pass", ({"kind": "pass", "seat": 0}, view))
    found.setdefault("stop", ({"kind": "stop", "seat": 0, "gizmo": "L1-01"}, view))
    # The row is only short after a build when the dispenser ran dry.
    found.setdefault("row_refill", ({"kind": "row_refill", "colors": ["red", "blue"]}, view))
    assert LOG_KINDS <= set(found), sorted(LOG_KINDS - set(found))
    names = ["Ana", "Bo", "Cy", "Di"]
    for lang in ("en", "es"):
        with translation.override(lang):
            for kind, (entry, view) in found.items():
                line = display.log_line(entry, view, names)
                assert line.strip(), kind
                assert "%(" not in line and "{{" not in line, line


def test_log_tells_the_chain_of_a_turn():
    s = RULES.new_game(players=2, seed=3)
    view = RULES.view(s, 0)
    log = [
        {"kind": "turn", "seat": 0, "round": 2},
        {"kind": "build", "seat": 0, "card": "L2-17", "source": "archive", "paid": {"red": 3},
         "converters": [], "refill": None, "armed": ["L2-05"]},
        {"kind": "use", "seat": 0, "gizmo": "L2-05", "effect": "pick", "count": 1},
        {"kind": "pick", "seat": 0, "color": "yellow", "refill": ["red"], "armed": ["L1-07"],
         "gizmo": "L2-05"},
        {"kind": "use", "seat": 0, "gizmo": "L1-07", "effect": "draw", "colors": ["blue"]},
    ]
    view = dict(view, log=log)
    lines = [display.log_line(e, view, ["Ana", "Bo"]) for e in log]
    assert "from the Archive" in lines[1] and "triggers" in lines[1]
    assert lines[2].startswith("→ Ana used") and "Pick" in lines[2]
    assert lines[3].startswith("↳ Ana picked yellow")
    assert "drew 1 random energy: blue" in lines[4]


def test_every_move_has_a_label():
    s = RULES.new_game(players=3, seed=11)
    rng = Rng.from_seed(5)
    kinds = set()
    for _ in range(600):
        if s["over"]:
            break
        seat = s["current"]
        view = RULES.view(s, seat)
        legal = RULES.legal_moves(s, seat)
        for move in legal:
            label = display.move_label(move, view)
            assert label and "{" not in label, move
            kinds.add(move["type"])
        builds = [m for m in legal if m["type"] in ("build", "spend", "convert", "use", "research",
                                                     "bottom")]
        s = RULES.apply(s, seat, rng.choice(builds) if builds and rng.random() < 0.8 else rng.choice(legal))
    assert {"file", "pick", "build", "research", "spend", "use", "end_turn", "bottom"} <= kinds


def test_card_texts_are_short_and_cover_every_card():
    for cid in CARDS:
        text = display.card_text(cid)
        assert text and len(text) < 60, (cid, text)
        if CARDS[cid]["type"] != "upgrade":
            assert "→" in text, (cid, text)


# -- the payment helper in the view ------------------------------------------------------------

def test_payment_plans_match_the_legal_builds_and_leave_the_right_energy():
    for game in range(6):
        s = RULES.new_game(players=2 + game % 3, seed=700 + game)
        rng = Rng.from_seed(game)
        while not s["over"]:
            seat = s["current"]
            legal = RULES.legal_moves(s, seat)
            view = RULES.view(s, seat)
            plans = view["turn"].get("plans", {})
            if s["phase"] in ("main", "research"):
                assert set(plans) == {m["card"] for m in legal if m["type"] == "build"}
            if s["phase"] == "pay":
                assert list(plans) == [s["pending"]["card"]]
            energy = s["seats"][seat]["energy"]
            for cid, plan in plans.items():
                spent = dict(plan.get("spent_before", {}))
                for c in COLORS:
                    assert (plan["spend"].get(c, 0) + spent.get(c, 0) + plan["left"].get(c, 0)
                            == energy[c]), (cid, plan)
                assert set(plan["converters"]) <= set(s["seats"][seat]["gizmos"])
            for other in range(s["players"]):
                if other != seat:
                    assert "plans" not in RULES.view(s, other)["turn"]
            builds = [m for m in legal if m["type"] in ("build", "spend", "convert", "use")]
            s = RULES.apply(s, seat, rng.choice(builds) if builds and rng.random() < 0.8
                            else rng.choice(legal))

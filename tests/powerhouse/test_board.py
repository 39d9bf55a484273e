"""The Powerhouse table page: drawn from each viewer's view, nothing hidden on it, every log
kind in words, moves through the board's own forms (reactor, player, piece to take), the
meltdown asking every seat at once, and whole games against bots over HTTP."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone, translation

from games.engine import Rng
from games.powerhouse import bot, display
from games.powerhouse.rules import RULES
from games.tables import actions
from games.tables.models import Table
from games.tables.replay import current_state
from tests.pages import client_for, fixed_seed, forms_in, keys, page, post_form

CELL = re.compile(r'<td class="ph-cell[^"]*" data-piece="([a-z]+-[SML])" data-count="(\d)">')
LOG_KINDS = {"setup", "draw", "meltdown", "discard", "dice_return", "major_dump", "give",
             "take", "vapor", "end", "win"}
# 2 players, people choosing like the fast bot: a short game (31 decisions) with reactors
# fired with takes and vapor, a battery, and a meltdown that wins it for seat 0. The fast
# bot keeps its networks small, so its games have no Major Dump: that is made by hand below.
SHORT_SEED = 1030
# The same, where the fast bot in seat 1 wins on its own draw (14 decisions).
BOT_WINS_SEED = 488
# The person plays like the fast bot but sets off a meltdown that leaves the bot clean:
# the bot wins during the person's turn (16 decisions).
OFF_TURN_SEED = 1215


def humans_table(make_user, players: int, seed: int | None = None):
    """A running table of people only; returns it and position -> user."""
    users = [make_user(f"p{i}") for i in range(players)]
    if seed is None:
        table = actions.check_create_table(creator=users[0], game="powerhouse", players=players)
    else:
        with fixed_seed(seed):
            table = actions.check_create_table(creator=users[0], game="powerhouse",
                                               players=players)
    for user in users[1:]:
        actions.check_join_table(table_id=table.pk, user=user)
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    return table, {s.position: s.user for s in table.seats.select_related("user")}


def fast_choice(state: dict, seat: int) -> dict:
    """What the fast bot would do: a sensible, deterministic player."""
    legal = RULES.legal_moves(state, seat)
    return bot.choose(RULES.view(state, seat), legal, level="fast", rng=Rng.from_seed(0))


def reckless_choice(state: dict, seat: int) -> dict:
    """Like the fast bot, but draws a die whenever the meltdown would leave another clean."""
    k = state["centre"] + 1
    for other, net in enumerate(state["networks"]):
        rows = [net[z * 5:(z + 1) * 5] for z in range(3)]
        if (other != seat and state["phase"] == "draw" and state["bag_dice"]
                and any(min(row) for row in rows) and sum(net) - 5 == k):
            return {"type": "draw", "kind": "die"}
    return fast_choice(state, seat)


def net_html(html: str, seat: int) -> str:
    start = html.index(f'data-testid="ph-net-{seat}"')
    return html[start:html.index("</section>", start)]


def cell_html(net: str, piece: str) -> str:
    start = net.index(f'data-piece="{piece}"')
    return net[start:net.index("</td>", start)]


def assert_board_matches(html: str, state: dict) -> None:
    """Every network on the page holds what the state says, cell by cell."""
    colors, sizes = ("red", "yellow", "green", "blue", "purple"), ("S", "M", "L")
    for seat, net in enumerate(state["networks"]):
        drawn = {p: int(n) for p, n in CELL.findall(net_html(html, seat))}
        expected = {f"{c}-{z}": net[zi * 5 + ci] for zi, z in enumerate(sizes)
                    for ci, c in enumerate(colors)}
        assert drawn == expected, seat
    assert f"{sum(state['bag'])} pyramids" in html


def assert_no_secrets(html: str, table, state) -> None:
    """Nothing is hidden in Powerhouse but the bag's order: the seed and generator."""
    assert str(table.seed) not in html
    assert str(state["rng"]) not in html
    assert '"rng"' not in html and "stamps" not in html


# -- pages -----------------------------------------------------------------------------------

@pytest.mark.django_db
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_page_renders_for_every_seat_and_a_spectator_without_secrets(make_user, players):
    # A long seed, so its digits cannot turn up on the page by chance.
    table, users = humans_table(make_user, players, seed=7_340_033_101 * players)
    spectator = make_user("sam")
    for _step in range(10 if players < 4 else 6):
        state = current_state(table)
        if state["winner"] is not None:
            break
        pages = {seat: page(client_for(user), table) for seat, user in users.items()}
        pages[None] = page(client_for(spectator), table)
        pages["anonymous"] = page(client_for(), table)
        for seat, html in pages.items():
            assert 'data-testid="ph-board"' in html
            assert_board_matches(html, state)
            assert_no_secrets(html, table, state)
            moves = keys(m for m, _b in forms_in(html))
            if isinstance(seat, int):
                assert moves == keys(RULES.legal_moves(state, seat)), seat
            else:
                assert not moves
        seat = min(RULES.to_move(state))
        move = fast_choice(state, seat)
        based_on = forms_in(pages[seat])[0][1]
        assert post_form(client_for(users[seat]), table, move, based_on).status_code == 303
        table.refresh_from_db()
    assert table.events.filter(kind="move").exists()


@pytest.mark.django_db
def test_spanish_page_renders(make_user):
    table, users = humans_table(make_user, 3, seed=9)
    html = page(client_for(users[0], HTTP_ACCEPT_LANGUAGE="es"), table)
    assert 'data-testid="ph-board"' in html and 'lang="es"' in html


@pytest.mark.django_db
def test_the_meltdown_limitation_option_shows_the_die_draws_left(make_user):
    users = [make_user("p0"), make_user("p1")]
    table = actions.check_create_table(creator=users[0], game="powerhouse", players=2,
                                       options={"meltdown_limit": True})
    actions.check_join_table(table_id=table.pk, user=users[1])
    html = page(client_for(users[0]), table)
    assert html.count("3 die draws left") == 2


@pytest.mark.django_db
def test_a_resignation_lets_the_others_play_on_and_the_board_says_so(make_user):
    table, users = humans_table(make_user, 3)
    response = client_for(users[1]).post(f"/tables/{table.pk}/resign", {"confirm": "1"})
    assert response.status_code == 303
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING and 1 not in table.to_move
    html = page(client_for(users[0]), table)
    assert "left the game" in html and "back into the bag" in html
    # The second resignation leaves one player: they win, and the board says the game ended.
    response = client_for(users[2]).post(f"/tables/{table.pk}/resign", {"confirm": "1"})
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and table.outcome["winners"] == [0]
    for user in users.values():
        html = page(client_for(user), table)
        assert "Everyone else left the game" in html and not forms_in(html)
        assert "draws from the bag" not in html


@pytest.mark.django_db
def test_a_reactor_is_fired_on_the_board_piece_then_player_then_take(make_user):
    table, users = humans_table(make_user, 2, seed=SHORT_SEED)
    seen = set()
    for _step in range(200):
        state = current_state(table)
        assert state["winner"] is None, "the game ended before a reactor was fired with a take"
        seat = min(RULES.to_move(state))
        client = client_for(users[seat])
        html = page(client, table)
        forms = forms_in(html)
        pending = state["pending"] or {}
        mine = net_html(html, seat)
        fires = [m for m, _b in forms if m["type"] == "fire"]
        if fires and "fire" not in seen:
            # The obligation in words, and the button on the reactor's own cell.
            piece = fires[0]["piece"]
            color, size = piece.split("-")
            assert "You must fire your %s %s reactor." % (
                color, {"S": "small", "M": "medium", "L": "large"}[size]) in html
            assert "ph-act-fire" in cell_html(mine, piece)
            seen.add("fire")
            move = fires[0]
        elif pending.get("stage") == "give" and pending.get("action") == "fire" and seen == {"fire"}:
            other = 1 - seat
            assert "ph-act-give" in net_html(html, other)
            assert "Give your" in html and "click their network" in html
            seen.add("give")
            move = {"type": "give", "to": other}
        elif pending.get("stage") == "take" and seen == {"fire", "give"} and any(
                m["type"] == "take" for m, _b in forms):
            target = net_html(html, pending["to"])
            take = next(m for m, _b in forms if m["type"] == "take")
            assert "ph-act-take" in cell_html(target, take["piece"])
            assert "Vapor: take nothing back" in html
            seen.add("take")
            move = take
        else:
            move = fast_choice(state, seat)
        response = post_form(client, table, move, forms[0][1], HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and 'role="alert"' not in response.content.decode()
        table.refresh_from_db()
        if "take" in seen:
            break
    assert seen == {"fire", "give", "take"}
    log = [e["kind"] for e in current_state(table)["log"]]
    assert "give" in log and "take" in log


@pytest.mark.django_db
def test_moves_posted_through_the_board_forms_work(make_user):
    table, users = humans_table(make_user, 2, seed=3)
    state = current_state(table)
    seat = state["active"]
    html = page(client_for(users[seat]), table)
    assert "Your turn: feel in the bag" in html
    draws = [(m, b) for m, b in forms_in(html) if m["type"] == "draw"]
    assert {m["kind"] for m, _b in draws} == {"S", "M", "L", "die"}
    assert html.count("ph-act-draw") == 4  # on the bag's tiles
    response = post_form(client_for(users[seat]), table, *draws[2])
    assert response.status_code == 303
    table.refresh_from_db()
    entry = next(e for e in current_state(table)["log"] if e["kind"] == "draw")
    assert entry["seat"] == seat and entry["size"] == "L"
    names = [users[0].name, users[1].name]
    line = display.log_line(entry, {}, names)
    assert re.fullmatch(r"%s drew a large (red|yellow|green|blue|purple) pyramid\." % names[seat], line)
    other_page = page(client_for(users[1 - seat]), table)
    assert line in other_page, re.findall(r"<li>[^<]*drew[^<]*</li>", other_page)
    # A stale form is refused without a write.
    before = table.events.count()
    assert post_form(client_for(users[seat]), table, *draws[0]).status_code == 303
    assert table.events.count() == before


@pytest.mark.django_db
def test_a_meltdown_asks_every_seat_at_once_in_the_page_and_by_mail(
        make_user, django_capture_on_commit_callbacks):
    table, users = humans_table(make_user, 3, seed=77)
    state = current_state(table)
    drawer = state["active"]
    html = page(client_for(users[drawer]), table)
    die = next((m, b) for m, b in forms_in(html) if m == {"type": "draw", "kind": "die"})
    mail.outbox.clear()
    # The others took their seats a while ago and left the page: a new decision is mailed.
    later = time_machine.travel(timezone.now() + timedelta(minutes=10))
    with later, django_capture_on_commit_callbacks(execute=True):
        assert post_form(client_for(users[drawer]), table, *die).status_code == 303
    table.refresh_from_db()
    state = current_state(table)
    assert state["phase"] == "meltdown"
    # Every seat owes one discard (three different pieces each), all at the same time.
    assert sorted(table.to_move) == [0, 1, 2]
    for seat in table.seats.all():
        assert seat.owes_since is not None, seat.position
    # The seats that newly owe a decision get a "your turn" mail.
    mailed = {m.to[0] for m in mail.outbox if "Your turn" in m.subject}
    assert mailed == {users[p].email for p in range(3) if p != drawer}
    for seat, user in users.items():
        html = page(client_for(user), table)
        assert "Meltdown! Everyone discards 1." in html
        assert "You must discard 1 more pyramid" in html
        discards = [m for m, _b in forms_in(html)]
        assert discards and all(m["type"] == "discard" for m in discards)
        assert keys(discards) == keys(RULES.legal_moves(state, seat))
        mine = net_html(html, seat)
        for m in discards:
            assert "ph-act-discard" in cell_html(mine, m["piece"])
    # They answer in any order; the turn passes once the last one has discarded.
    order = [(drawer + 2) % 3, drawer, (drawer + 1) % 3]
    for i, seat in enumerate(order):
        html = page(client_for(users[seat]), table)
        move, based_on = forms_in(html)[0]
        assert post_form(client_for(users[seat]), table, move, based_on).status_code == 303
        table.refresh_from_db()
        if i < 2:
            html = page(client_for(users[seat]), table)
            assert "Your discards are made." in html and not forms_in(html)
    state = current_state(table)
    assert state["phase"] == "draw" and state["active"] == (drawer + 1) % 3
    assert sum(1 for e in state["log"] if e["kind"] == "discard") == 3
    html = page(client_for(users[drawer]), table)
    assert "Meltdown! Everyone discards 1." in html  # the log tells it


def _play_against_bots(make_user, *, seed: int, bots: dict[int, str], limit: int = 400,
                       choose=fast_choice):
    ana = make_user("ana")
    with fixed_seed(seed):
        table = actions.check_create_table(creator=ana, game="powerhouse",
                                           players=len(bots) + 1, bots=bots)
    table.refresh_from_db()
    me = table.seats.get(user=ana).position
    client = client_for(ana)
    html = page(client, table)
    decisions = 0
    while True:
        forms = forms_in(html)
        if not forms:
            break
        assert decisions < limit, "the game did not end"
        table.refresh_from_db()
        state = current_state(table)
        move = choose(state, me)
        assert keys([move]) <= keys(m for m, _b in forms)
        # htmx posts answer with the play area and the board for this viewer, after the bots.
        response = post_form(client, table, move, forms[0][1], HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        html = response.content.decode()
        assert 'role="alert"' not in html, html[:500]
        decisions += 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED, (table.status, table.to_move, me)
    return table, me, page(client, table)


@pytest.mark.django_db(transaction=True)
def test_a_whole_game_against_a_bot_through_the_pages(make_user):
    table, me, html = _play_against_bots(make_user, seed=SHORT_SEED, bots={1: "fast"})
    assert table.outcome["winners"] == [me]
    assert "You have a clean powerhouse: you win!" in html
    assert "ana won!" in html
    assert "has a clean powerhouse and wins!" in html  # the log
    assert not forms_in(html)


@pytest.mark.django_db(transaction=True)
def test_a_bot_can_win_and_the_loser_sees_it(make_user):
    table, me, html = _play_against_bots(make_user, seed=BOT_WINS_SEED, bots={1: "fast"})
    assert table.outcome["winners"] == [1 - me]
    assert "Bot (fast) has a clean powerhouse and wins." in html
    assert "Winner: clean powerhouse" in net_html(html, 1 - me)


@pytest.mark.django_db(transaction=True)
def test_an_off_turn_win_ends_the_game_in_the_other_players_turn(make_user):
    table, me, html = _play_against_bots(make_user, seed=OFF_TURN_SEED, bots={1: "fast"},
                                         choose=reckless_choice)
    state = current_state(table)
    win = state["log"][-1]
    assert win == {"kind": "win", "seat": 1 - me, "turn_of": me}
    assert table.outcome["winners"] == [1 - me]
    assert "Bot (fast) has a clean powerhouse and wins, during ana&#x27;s turn!" in html
    assert "ana drew a die. Meltdown! Everyone discards" in html
    assert "It happened during your turn." in html
    assert "Winner: clean powerhouse" in net_html(html, 1 - me)


# -- words ------------------------------------------------------------------------------------

def _sample_entries() -> dict[str, list[dict]]:
    """Log entries of every kind: from fast-bot games, and the rare ones made by hand."""
    found: dict[str, list[dict]] = {}
    for seed in (SHORT_SEED, BOT_WINS_SEED):
        s = RULES.new_game(players=2, seed=seed)
        while s["winner"] is None:
            seat = min(RULES.to_move(s))
            s = RULES.apply(s, seat, fast_choice(s, seat))
        for entry in RULES.view(s, None)["log"]:
            found.setdefault(entry["kind"], []).append(entry)
    found.setdefault("dice_return", []).append({"kind": "dice_return"})
    found.setdefault("major_dump", []).append({"kind": "major_dump", "seat": 1, "size": "L"})
    found["discard"] += [
        {"kind": "discard", "seat": 0, "piece": "red-S", "reason": "meltdown", "forced": True},
        {"kind": "discard", "seat": 1, "piece": "blue-M", "reason": "battery"},
        {"kind": "discard", "seat": 1, "piece": "blue-L", "reason": "major_dump"}]
    found["end"] += [{"kind": "end", "seat": 0, "auto": True}, {"kind": "end", "seat": 1,
                                                                 "auto": False}]
    found["win"] += [{"kind": "win", "seat": 1, "turn_of": 0}]
    found.setdefault("vapor", []).append({"kind": "vapor", "seat": 0, "to": 1})
    return found


def test_every_log_kind_has_words_in_english_and_spanish():
    found = _sample_entries()
    assert LOG_KINDS <= set(found), sorted(LOG_KINDS - set(found))
    assert set(found) <= LOG_KINDS, sorted(set(found) - LOG_KINDS)
    view = RULES.view(RULES.new_game(players=2, seed=1), None)
    for lang in ("en", "es"):
        with translation.override(lang):
            for kind, entries in found.items():
                for entry in entries:
                    line = display.log_line(entry, view, ["Ana", "Bo"])
                    assert line.strip(), entry
                    assert "%(" not in line and "?" not in line, line


def test_the_log_tells_the_story():
    names = ["Ana", "Bo"]
    line = display.log_line
    assert line({"kind": "draw", "seat": 0, "size": "L", "piece": "red-L"}, {}, names) == \
        "Ana drew a large red pyramid."
    assert line({"kind": "meltdown", "seat": 1, "dice": 2}, {}, names) == \
        "Bo drew a die. Meltdown! Everyone discards 2."
    assert line({"kind": "give", "seat": 0, "to": 1, "piece": "green-M"}, {}, names) == \
        "Ana gave a medium green pyramid to Bo."
    assert line({"kind": "take", "seat": 0, "from": 1, "piece": "blue-S"}, {}, names) == \
        "Ana took a small blue pyramid from Bo."
    assert "during Ana's turn" in line({"kind": "win", "seat": 1, "turn_of": 0}, {}, names)
    setup = line({"kind": "setup", "networks": [["red-S", "green-M", "blue-L"],
                                                ["purple-S", "yellow-M", "red-L"]], "first": 1},
                 {}, names)
    assert "Ana: red small, green medium, blue large" in setup and "Bo plays first." in setup


def test_every_move_has_a_label():
    kinds = set()
    for seed in (SHORT_SEED, BOT_WINS_SEED):
        s = RULES.new_game(players=2, seed=seed)
        while s["winner"] is None:
            for seat in sorted(RULES.to_move(s)):
                view = RULES.view(s, seat)
                for move in RULES.legal_moves(s, seat):
                    label = display.move_label(move, view)
                    assert label and "%(" not in label and label != move["type"], move
                    kinds.add(move["type"])
            seat = min(RULES.to_move(s))
            s = RULES.apply(s, seat, fast_choice(s, seat))
    # a battery and a transform, made by hand
    from tests.powerhouse import scenario
    s = scenario.table({0: ["yellow-S", "yellow-M", "yellow-L", "red-S"], 1: ["green-L"]},
                       phase="reaction")
    view = RULES.view(s, 0)
    assert display.move_label({"type": "battery", "color": "yellow"}, view) == \
        "Use your yellow battery"
    s = RULES.apply(s, 0, {"type": "battery", "color": "yellow"})
    labels = {display.move_label(m, RULES.view(s, 0)) for m in RULES.legal_moves(s, 0)}
    assert "Battery: discard the yellow small" in labels
    s = RULES.apply(s, 0, {"type": "discard", "piece": "yellow-S"})
    labels = {display.move_label(m, RULES.view(s, 0)) for m in RULES.legal_moves(s, 0)}
    assert "Battery: give away the yellow large" in labels
    # a Major Dump, made by hand (fast-bot games keep their networks too small for one)
    s = scenario.table({0: [f"{c}-{z}" for z in "SM" for c in ("red", "yellow", "green",
                                                               "blue", "purple")]},
                       phase="reaction")
    view = RULES.view(s, 0)
    for move in RULES.legal_moves(s, 0):
        label = display.move_label(move, view)
        assert label and "%(" not in label and label != move["type"], move
        kinds.add(move["type"])
    assert {"draw", "fire", "give", "take", "vapor", "end", "discard", "dump"} <= kinds

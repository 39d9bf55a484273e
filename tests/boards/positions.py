"""Board positions for page-level tests: seeded playouts of each game, and each board
rendered for a seat or a spectator without the database (the same TableView the table
page builds, from `rules.view` and `rules.legal_moves` only)."""

from __future__ import annotations

import json

from django.template.loader import render_to_string

from games.engine import Rng, get_rules
from games.tables.models import Table
from games.tables.plugins import game_config
from games.tables.selectors import TableView, Viewer

GAMES = ("powerhouse", "gizmos", "flaming-pyramids")


def playout(game: str, *, players: int, seed: int, steps: tuple[int, ...],
            max_decisions: int = 3000, choose=None) -> list[tuple[str, dict]]:
    """States of one seeded game: after each decision count in `steps`, and the last one.

    `choose(state, seat, legal, rng)` picks a move (uniformly at random by default).
    Returns [(label, state)]; the last is the finished game when it ended in time.
    """
    rules = get_rules(game)
    rng = Rng.from_seed(seed)
    state = rules.new_game(players=players, seed=seed)
    out = []
    for n in range(max_decisions + 1):
        if n in steps:
            out.append((f"{game}-{players}p-s{seed}-d{n}", state))
        seats = sorted(rules.to_move(state))
        if not seats:
            break
        seat = seats[0]
        legal = rules.legal_moves(state, seat)
        move = choose(state, seat, legal, rng) if choose else rng.choice(legal)
        state = rules.apply(state, seat, move)
    out.append((f"{game}-{players}p-s{seed}-end", state))
    return out


def seat_rows(players: int, viewer: int | None, state, rules) -> list[dict]:
    """Seat rows as `selectors.seat_rows` makes them, for people named Ana, Bruno, ..."""
    names = ["Ana", "Bruno", "Carmen", "David", "Elena", "Fátima"]
    to_move = rules.to_move(state)
    return [{"position": p, "name": names[p], "is_bot": False, "is_free": False,
             "is_you": p == viewer, "to_move": p in to_move, "resigned": False,
             "owes_since": None, "user": None, "on_vacation": False, "taken_over": False,
             "muted": False, "deadline": None} for p in range(players)]


def table_view(game: str, state, viewer: int | None) -> TableView:
    """The TableView the table page would build for `viewer` (None: a spectator)."""
    rules = get_rules(game)
    config = game_config(game)
    players = len(rules.view(state, None).get("seats") or []) or state_players(state)
    over = not rules.to_move(state)
    table = Table(pk=1, game=game, players=players, seq=7,
                  status=Table.Status.FINISHED if over else Table.Status.RUNNING,
                  outcome=rules.outcome(state))
    view = rules.view(state, viewer)
    seats = seat_rows(players, viewer, state, rules)
    names = [row["name"] for row in seats]
    tv = TableView(table=table, viewer=Viewer(seat=viewer), view=view, seats=seats,
                   board_template=config.template, game_name=str(rules.name),
                   outcome=table.outcome)
    tv.log = [{"text": config.log_line(e, view, names), "entry": e} for e in view.get("log", [])]
    if viewer is not None and not over:
        tv.moves = [{"move": m, "json": json.dumps(m, sort_keys=True),
                     "label": config.move_label(m, view, names)}
                    for m in rules.legal_moves(state, viewer)]
    return tv


def state_players(state) -> int:
    for key in ("players", "networks", "hands", "seats"):
        value = state.get(key) if isinstance(state, dict) else None
        if isinstance(value, int):
            return value
        if isinstance(value, list):
            return len(value)
    raise AssertionError("cannot tell the number of players")


def render_board(game: str, state, viewer: int | None) -> str:
    """The board's HTML for `viewer`, in the active language."""
    tv = table_view(game, state, viewer)
    return render_to_string(tv.board_template, {"tv": tv, "table": tv.table, "based_on": 7,
                                                "csrf_token": "test-token"})


def bot_choice(game: str, level: str | None = None):
    """A `choose` for `playout` that plays like the game's bot (games end sooner)."""
    rules = get_rules(game)
    config = game_config(game)

    def choose(state, seat, legal, rng):
        return config.choose_bot_move(rules.view(state, seat), legal,
                                      level=level or config.takeover_level, rng=rng)
    return choose

"""Play tables of any game through the real write path, quickly."""

from __future__ import annotations

import itertools
from datetime import timedelta

from django.utils import timezone

from games.engine import Rng, get_rules
from games.tables import actions
from games.tables.models import Table
from games.tables.plugins import game_config
from games.tables.replay import current_state

GAMES = ["high-card", "powerhouse", "gizmos", "flaming-pyramids"]
_seeds = itertools.count(7001)


def new_table(users, game: str, *, bots=None, rated=False, options=None, players=None,
              seed: int | None = None, **extra):
    """A running table: users[0] creates it, the others join; bots fill `bots` positions.

    Seeds are fixed (7001, 7002... in creation order) so every run plays the same games.
    """
    from tests.pages import fixed_seed

    bots = dict(bots or {})
    players = players or len(users) + len(bots)
    if extra.get("is_private"):
        extra.setdefault("invitees", [u.username for u in users[1:]])
    with fixed_seed(next(_seeds) if seed is None else seed):
        table = actions.check_create_table(creator=users[0], game=game, players=players,
                                           bots=bots, options=options, rated=rated, **extra)
    for user in users[1:]:
        actions.check_join_table(table_id=table.pk, user=user)
    table.refresh_from_db()
    return table


def play(table, *, decisions: int = 20_000, until=None) -> Table:
    """Every owing seat plays the game's fast bot move, through check_submit_move.

    Stops when the table is over, after `decisions`, or when `until(table)` says so.
    """
    config = game_config(table.game)
    rules = get_rules(table.game)
    level = config.takeover_level
    for _ in range(decisions):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING or (until and until(table)):
            break
        seat = min(table.to_move)
        row = table.seats.select_related("user").get(position=seat)
        state = current_state(table)
        legal = rules.legal_moves(state, seat)
        move = config.choose_bot_move(rules.view(state, seat), legal, level=level,
                                      rng=Rng.from_seed(f"{table.pk}:{table.seq}:{seat}"))
        if row.is_bot:
            actions.check_submit_move(table_id=table.pk, seat=seat, move=move,
                                      based_on=table.seq, bot=True)
        else:
            actions.check_submit_move(table_id=table.pk, seat=seat, move=move,
                                      based_on=table.seq, actor=row.user)
    table.refresh_from_db()
    return table


def end_by(table, how: str, *, seat: int | None = None):
    """End a running table: "finish", "resign" or "timeout" (seat `seat`), or "abandon"."""
    if how == "finish":
        return play(table)
    if how == "resign":
        user = table.seats.get(position=seat).user
        actions.check_resign(table_id=table.pk, user=user)
    elif how == "timeout":
        # The seat must owe a decision for its clock to run: play until it does.
        play(table, until=lambda t: seat in t.to_move)
        result = actions.check_time_out_seat(table_id=table.pk, seat=seat,
                                             now=timezone.now() + timedelta(days=400))
        assert result in ("dropped", "ended"), result
    elif how == "abandon":
        assert actions.check_end_abandoned(table_id=table.pk, now=timezone.now() + timedelta(days=31))
    table.refresh_from_db()
    return table

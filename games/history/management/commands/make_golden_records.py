"""Play the bots against each other and store the games as golden records.

tests/history/test_golden.py replays every file: a change to a rules engine
that would fold a stored game differently fails CI.
"""

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from games.engine import Rng, get_rules
from games.history.records import record_from_moves
from games.tables.plugins import game_config

# (game, players, options, seed): several player counts and every option.
GOLDEN = [
    ("high-card", 2, {}, 11), ("high-card", 4, {"double_last": True}, 12),
    ("powerhouse", 2, {}, 21), ("powerhouse", 4, {"meltdown_limit": True}, 22),
    ("gizmos", 2, {}, 31), ("gizmos", 4, {}, 32),
    ("flaming-pyramids", 2, {}, 41), ("flaming-pyramids", 4, {"curse": True}, 42),
    ("flaming-pyramids", 6, {"curse": True, "fire_die": True}, 43),
]


def play(game: str, players: int, options: dict, seed: int, level: str, limit: int = 20_000):
    rules = get_rules(game)
    config = game_config(game)
    state = rules.new_game(players=players, seed=seed, options=rules.clean_options(options))
    moves = []
    for n in range(limit):
        owing = sorted(rules.to_move(state))
        if not owing:
            return moves
        seat = owing[0]
        move = config.choose_bot_move(rules.view(state, seat), rules.legal_moves(state, seat),
                                      level=level, rng=Rng.from_seed(f"{seed}:{n}"))
        moves.append((seat, move))
        state = rules.apply(state, seat, move)
    raise RuntimeError(f"{game} seed {seed}: no end after {limit} decisions")


class Command(BaseCommand):
    help = "Write golden records (bot games of every game) to tests/golden/."

    def add_arguments(self, parser):
        parser.add_argument("--out", default="tests/golden")
        parser.add_argument("--game", action="append", help="only these games")

    def handle(self, *args, out, game=None, **options):
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        for slug, players, opts, seed in GOLDEN:
            if game and slug not in game:
                continue
            try:
                config = game_config(slug)
            except KeyError:
                self.stdout.write(f"skipped {slug}: not installed")
                continue
            level = config.takeover_level
            moves = play(slug, players, opts, seed, level)
            seats = [{"position": p, "name": f"Bot {p + 1} ({level})", "username": None,
                      "bot": level} for p in range(players)]
            record = record_from_moves(game=slug, players=players, seed=seed, options=opts,
                                       seats=seats, moves=moves)
            suffix = "-".join(sorted(k for k, v in record["options"].items() if v)) or "base"
            path = folder / f"{slug}-{players}p-{suffix}.json"
            path.write_text(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")
            self.stdout.write(f"{path}: {len(moves)} decisions")

"""manage.py checkgame SLUG: everything a game author should know before players do."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from games.tables.kit import check_game
from games.tables.plugins import installed_games


class Command(BaseCommand):
    # It reports a broken board itself, with the rest of its findings; the system checks
    # (tables.E003) would stop it before it starts.
    requires_system_checks = []

    help = ("Check an installed game: the shared property harness, every bot level against "
            "every other, the board for every seat and a spectator at many positions, and the "
            "purity scan of its package. Prints each problem with the file to look at; exits "
            "1 if there is any.")

    def add_arguments(self, parser):
        parser.add_argument("slug", help="the game's slug, e.g. nim")
        parser.add_argument("--games", type=int, default=20,
                            help="random playouts of the property harness, spread over every "
                                 "player count and option value (default 20)")
        parser.add_argument("--bot-games", type=int, default=2,
                            help="seeded games per pair of bot levels (default 2)")
        parser.add_argument("--board-games", type=int, default=2,
                            help="seeded games per player count whose boards are drawn, each at "
                                 "about 12 positions (default 2)")
        parser.add_argument("--move-seconds", type=float, default=10.0,
                            help="a bot decision taking more CPU seconds than this is a problem "
                                 "(default 10)")
        parser.add_argument("--expert-budget", type=float, default=0.05,
                            help="scale of an expert level's search budget during the check "
                                 "(default 0.05; 1 is the budget tables use)")

    def handle(self, *args, slug, **options):
        games = installed_games()
        if slug not in games:
            known = ", ".join(sorted(games)) or "none"
            raise CommandError(f"no installed game {slug!r} (installed: {known}). A game "
                               "outside this tree needs its 'boardgames.games' entry point "
                               "(pip install it) or GAME_APPS; `manage.py check` says why one "
                               "did not load.")
        started = time.monotonic()

        def progress(step, found, seconds):
            self.stdout.write(f"{slug}: {step}: {found or 'no'} problem(s) ({seconds:.0f} s)")
            self.stdout.flush()

        problems = check_game(slug, harness_games=options["games"],
                              games_per_pair=options["bot_games"],
                              board_games=options["board_games"],
                              move_seconds=options["move_seconds"],
                              expert_budget=options["expert_budget"], progress=progress)
        for problem in problems:
            self.stderr.write(f"{problem.file}: [{problem.check}] {problem.message}")
        spent = time.monotonic() - started
        if problems:
            self.stderr.write(self.style.ERROR(
                f"{slug}: {len(problems)} problem(s) ({spent:.0f} s)"))
            raise SystemExit(1)
        self.stdout.write(self.style.SUCCESS(f"{slug}: no problems ({spent:.0f} s)"))

"""The game author's kit: everything `manage.py checkgame` checks, as functions.

Each check returns a list of `Problem`s (empty: all good), each naming the file to
look at. In a game's own test suite:

    from games.tables.kit import assert_no_problems, check_bots, check_boards
    def test_bots():
        assert_no_problems(check_bots("nim"))

`check_game(slug)` runs them all: the shared property harness
(`games.engine.testing.check_rules`), every bot level against every other for a
few seeded games (a refused, failing or slow move is a problem), the board drawn
for every seat and a spectator at many positions of seeded games (with the
display module's words for every move and log entry), and the purity scan of the
game's package (`games.engine.purity`).
"""

from __future__ import annotations

import inspect
import json
import time
import traceback
from dataclasses import dataclass
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

from django.template.loader import get_template, render_to_string
from django.test.utils import override_settings

from games.engine import Rng, canonical_move, get_rules
from games.engine.botplay import DECISION_BOUNDS
from games.engine.purity import impure_imports
from games.engine.testing import check_rules, random_playout

from .models import Table
from .plugins import GameAppConfig, game_config
from .selectors import TableView, Viewer

SEAT_NAMES = ["Ana", "Bruno", "Carmen", "David", "Elena", "Fátima", "Gustavo", "Hana"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a game: which check, the file to look at, and what."""

    check: str
    file: str
    message: str

    def __str__(self) -> str:
        return f"[{self.check}] {self.file}: {self.message}"


def assert_no_problems(problems: list[Problem]) -> None:
    """Fail a test with every problem listed (one per line)."""
    assert not problems, "\n".join(str(p) for p in problems)


def _file_of(obj: Any) -> str:
    try:
        return inspect.getsourcefile(obj) or "?"
    except TypeError:
        return "?"


def rules_file(slug: str) -> str:
    return _file_of(type(get_rules(slug)))


def bot_file(config: GameAppConfig) -> str:
    return _file_of(config.bot) if config.bot else f"{config.name}/bot.py (missing)"


def display_file(config: GameAppConfig) -> str:
    return _file_of(config.display) if config.display else f"{config.name}/display.py (missing)"


def template_file(config: GameAppConfig) -> str:
    try:
        return str(get_template(config.template).origin.name)
    except Exception:  # noqa: BLE001 - a broken template is reported by the caller
        return f"{Path(config.path) / 'templates' / config.template}"


def _first_line(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}".splitlines()[0][:500]


def _where_in(exc: BaseException, files: tuple[str, ...]) -> str | None:
    """The innermost traceback frame inside one of `files` ("path:line")."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if frame.filename in files:
            return f"{frame.filename}:{frame.lineno}"
    return None


# -- the harness ------------------------------------------------------------------

def option_sets(rules) -> list[dict]:
    """The defaults, then each option's other values one at a time."""
    sets: list[dict] = [{}]
    for option in rules.options:
        values = [True] if option.kind == "bool" else [c[0] for c in option.choices]
        sets += [{option.key: v} for v in values if v != option.default]
    return sets


def check_harness(slug: str, *, games: int = 20, checked_states: int = 40,
                  **kwargs) -> list[Problem]:
    """The shared property harness on the game's rules, at every player count and option.

    Long games are thinned so each playout checks about `checked_states` states (every
    decision of a short game; every Nth of a long one, N from a first random playout).
    A random playout need not end (uniformly random players can go round in circles, as
    in Powerhouse); every state it reaches is checked all the same, and `check_bots`
    checks that games between the game's bots end.
    """
    rules = get_rules(slug)
    where = rules_file(slug)
    try:
        if "check_every" not in kwargs:
            probe = random_playout(rules, players=rules.min_players, seed=424_242,
                                   max_decisions=kwargs.get("max_decisions", 5000),
                                   must_end=False)
            kwargs["check_every"] = max(1, len(probe.moves) // checked_states)
        kwargs.setdefault("option_sets", option_sets(rules))
        kwargs.setdefault("require_finish", False)
        check_rules(rules, games=games, **kwargs)
    except AssertionError as exc:
        return [Problem("harness", _where_in(exc, (where,)) or where,
                        str(exc).splitlines()[0][:1000])]
    except Exception as exc:  # noqa: BLE001 - a crash inside the rules
        return [Problem("harness", _where_in(exc, (where,)) or where, _first_line(exc))]
    return []


# -- bots ------------------------------------------------------------------------------

def level_pairs(levels: tuple[str, ...]) -> list[tuple[str, str]]:
    """Every level against every other (and itself)."""
    return list(combinations_with_replacement(levels, 2))


def check_bots(slug: str, *, games_per_pair: int = 2, first_seed: int = 7_001,
               move_seconds: float = 10.0, max_decisions: int | None = None,
               expert_budget: float | None = None) -> list[Problem]:
    """Every bot level against every other for a few seeded games.

    Seats alternate the two levels (the second game of a pair swaps them); each
    seat's generator is seeded as a real bot turn is. A move that is not among the
    legal moves, a bot that raises, a decision taking more than `move_seconds` of CPU
    time and a game
    that does not end within `max_decisions` (the game's bound of issue 15, else
    5000) are problems. `expert_budget` scales an expert level's search
    (settings.BOT_EXPERT_BUDGET) so the check does not take hours.
    """
    config = game_config(slug)
    rules = get_rules(slug)
    where = bot_file(config)
    bound = max_decisions or DECISION_BOUNDS.get(slug, 5_000)
    problems: list[Problem] = []
    settings = {} if expert_budget is None else {"BOT_EXPERT_BUDGET": expert_budget}
    with override_settings(**settings):
        for index, (a, b) in enumerate(level_pairs(config.bot_levels)):
            for g in range(games_per_pair):
                players = rules.min_players
                pair = (a, b) if g % 2 == 0 else (b, a)
                levels = [pair[i % 2] for i in range(players)]
                seed = first_seed + 1_000 * g + index
                problem = _bot_game(slug, config, levels, seed, bound, move_seconds, where)
                if problem:
                    problems.append(problem)
                    break  # one problem per pair is enough to look at
    return problems


def _bot_game(slug, config, levels, seed, bound, move_seconds, where) -> Problem | None:
    rules = get_rules(slug)
    state = rules.new_game(players=len(levels), seed=seed)
    what = " vs ".join(levels) + f", seed {seed}"
    for n in range(bound):
        owing = sorted(rules.to_move(state))
        if not owing:
            return None
        seat = owing[0]
        legal = rules.legal_moves(state, seat)
        view = rules.view(state, seat)
        started = time.process_time()  # CPU time: a busy machine does not make a bot slow
        try:
            move = config.choose_bot_move(view, legal, level=levels[seat],
                                          rng=Rng.from_seed(f"{seed}:{n}:{seat}"))
        except Exception as exc:  # noqa: BLE001 - the property under test
            return Problem("bots", _where_in(exc, (where,)) or where,
                           f"level {levels[seat]!r} raised at decision {n} ({what}): "
                           f"{_first_line(exc)}")
        spent = time.process_time() - started
        if canonical_move(move) not in {canonical_move(m) for m in legal}:
            return Problem("bots", where, f"level {levels[seat]!r} chose an illegal move "
                           f"{json.dumps(move, default=repr)[:200]} at decision {n} ({what})")
        if spent > move_seconds:
            return Problem("bots", where, f"level {levels[seat]!r} took {spent:.1f} CPU s at "
                           f"decision {n} ({what}; the limit is {move_seconds:g} s)")
        state = rules.apply(state, seat, move)
    if rules.to_move(state):
        return Problem("bots", where, f"no end after {bound} decisions ({what})")
    return None


# -- boards ------------------------------------------------------------------------------

def table_view(slug: str, state, viewer: int | None, players: int) -> TableView:
    """The TableView the table page builds for `viewer` (None: a spectator), without the
    database: the same data, from `rules.view` and `rules.legal_moves` only."""
    rules = get_rules(slug)
    config = game_config(slug)
    over = not rules.to_move(state)
    table = Table(pk=1, game=slug, players=players, seq=7,
                  status=Table.Status.FINISHED if over else Table.Status.RUNNING,
                  outcome=rules.outcome(state))
    view = rules.view(state, viewer)
    to_move = rules.to_move(state)
    seats = [{"position": p, "name": SEAT_NAMES[p % len(SEAT_NAMES)], "is_bot": False,
              "is_free": False, "is_you": p == viewer, "to_move": p in to_move,
              "resigned": False, "owes_since": None, "user": None, "on_vacation": False,
              "taken_over": False, "muted": False, "paused": False, "deadline": None}
             for p in range(players)]
    names = [row["name"] for row in seats]
    tv = TableView(table=table, viewer=Viewer(seat=viewer), view=view, seats=seats,
                   board_template=config.template, game_name=str(rules.name),
                   outcome=table.outcome, board_controls=config.board_controls)
    entries = view.get("log", [])
    tv.log_total = len(entries)
    tv.log = [{"text": config.log_line(e, view, names), "entry": e, "n": n}
              for n, e in enumerate(entries, 1)]
    if viewer is not None and not over:
        tv.moves = [{"move": m, "json": json.dumps(m, sort_keys=True),
                     "label": config.move_label(m, view, names)}
                    for m in rules.legal_moves(state, viewer)]
    return tv


def render_board(slug: str, state, viewer: int | None, players: int) -> str:
    """The board's HTML for `viewer` in the active language, as the table page draws it."""
    tv = table_view(slug, state, viewer, players)
    return render_to_string(tv.board_template, {"tv": tv, "table": tv.table, "based_on": 7,
                                                "csrf_token": "kit-token"})


def positions(slug: str, *, players: int, seed: int, samples: int = 12,
              max_decisions: int = 5_000) -> list[tuple[int, Any]]:
    """(decision number, state) of one seeded random game: the start, the end and about
    `samples` positions evenly spread between them."""
    rules = get_rules(slug)
    rng = Rng.from_seed(seed)
    state = rules.new_game(players=players, seed=seed)
    states = [state]
    for _ in range(max_decisions):
        owing = sorted(rules.to_move(state))
        if not owing:
            break
        seat = owing[0]
        state = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
        states.append(state)
    step = max(1, len(states) // samples)
    picked = sorted(set(range(0, len(states), step)) | {len(states) - 1})
    return [(n, states[n]) for n in picked]


def check_boards(slug: str, *, games: int = 2, samples: int = 12, first_seed: int = 9_001,
                 languages: tuple[str, ...] = ("en", "es")) -> list[Problem]:
    """The board, move labels and log lines for every seat and a spectator at many
    positions of seeded games, at every player count, in every language."""
    from django.utils import translation

    rules = get_rules(slug)
    config = game_config(slug)
    files = (template_file(config), display_file(config))
    try:
        get_template(config.template)
    except Exception as exc:  # noqa: BLE001 - reported
        return [Problem("boards", files[0], f"the board template {config.template!r} does "
                        f"not load: {_first_line(exc)}")]
    problems: list[Problem] = []
    for players in range(rules.min_players, rules.max_players + 1):
        for g in range(games):
            seed = first_seed + 31 * g + players
            for n, state in positions(slug, players=players, seed=seed, samples=samples):
                for viewer in [None, *range(players)]:
                    for language in languages:
                        try:
                            with translation.override(language):
                                html = render_board(slug, state, viewer, players)
                        except Exception as exc:  # noqa: BLE001 - the property under test
                            where = _where_in(exc, files) or files[0]
                            who = "a spectator" if viewer is None else f"seat {viewer}"
                            problems.append(Problem(
                                "boards", where, f"drawing the board for {who} ({players} "
                                f"players, seed {seed}, decision {n}, {language}) failed: "
                                f"{_first_line(exc)}"))
                            return problems
                        if not html.strip():
                            problems.append(Problem("boards", files[0], "the board is empty"))
                            return problems
    return problems


# -- purity ------------------------------------------------------------------------------

def check_purity(slug: str) -> list[Problem]:
    """The purity scan on the game's own package."""
    config = game_config(slug)
    return [Problem("purity", f"{p.path}:{p.line}", f"imports {p.name} (rules and bots "
                    "must be pure: no Django, Channels, Celery, clock or global random)")
            for p in impure_imports(Path(config.path))]


def check_game(slug: str, *, harness_games: int = 20, games_per_pair: int = 2,
               board_games: int = 2, move_seconds: float = 10.0,
               expert_budget: float | None = 0.05, progress=None) -> list[Problem]:
    """Every check of `manage.py checkgame`; `progress(name, problems, seconds)` is told
    after each step."""
    problems: list[Problem] = []
    steps = [
        ("purity", lambda: check_purity(slug)),
        ("harness", lambda: check_harness(slug, games=harness_games)),
        ("bots", lambda: check_bots(slug, games_per_pair=games_per_pair,
                                    move_seconds=move_seconds, expert_budget=expert_budget)),
        ("boards", lambda: check_boards(slug, games=board_games)),
    ]
    for name, step in steps:
        started = time.monotonic()
        found = step()
        problems += found
        if progress:
            progress(name, len(found), time.monotonic() - started)
    return problems

"""Per game: playout speed, each bot level's time per decision, and a strength matrix. Not a test.

    .venv/bin/python bench/bench_bots.py [--games N] [--decisions N] [--game SLUG] [--players N]
        [--budget ITERATIONS] [--levels a,b] [--pairs a:b,c:d] [--ceiling FACTOR]
        [--playout N] [--repeat N] [--no-times] [--times-players N] [--no-strength]
        [--progress N] [--first N]
    .venv/bin/python bench/bench_bots.py --combine OUTPUT...

For each game it prints
- random playout speed with the checked `apply` (legal moves generated each step),
  and, when the game has one (`games.<pkg>.sim.SIMULATOR`), through its simulator
  (from_rules once per game, then to_move, legal_moves, play in place, outcome): the best
  of --repeat runs, with the load average, since other work slows every run;
- for every level, seconds per decision (mean, p99, max) over 2-player games
  against the fast bot (only decisions with a choice are timed; --times-players N
  times it at N seats, the others fast bots);
- a strength matrix at 2 players: row level's share of wins against column
  level over N seeded games with alternating starts, with a 95 % Wilson
  interval; and, with --players > 2, each level's wins against fast bots only
  compared with its fair share.
--budget sets the expert's iterations per decision (default: the game's
expert.ITERATIONS, about a second a decision); it is printed with every figure
that depends on it. --ceiling F adds expert at F times the budget against expert
at the budget: where luck caps what any policy reaches, that match shows it.
--first N plays games N.. of each match, so one match can be split over processes
(disjoint seeds; the wins of the parts add up to the whole match's); --combine
OUTPUT... adds up the parts' printed results and prints the totals with their interval.
Games come from games.engine.botplay (each decision seeded "<seed>:<seq>:<seat>",
as a real table seeds its bot turns), so the figures repeat exactly.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import math
import os
import re
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Rng, get_rules  # noqa: E402
from games.engine.botplay import DECISION_BOUNDS, bot_module, play  # noqa: E402

GAMES = ("powerhouse", "gizmos", "flaming-pyramids")
PROGRESS = 0   # --progress N: a running tally every N games of a match
FIRST = 0      # --first N: start at game N of each match (split a match over processes)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def _load() -> str:
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def simulator(game: str):
    """The game's simulator (games.<pkg>.sim.SIMULATOR), or None if it has none."""
    try:
        module = importlib.import_module(f"games.{game.replace('-', '_')}.sim")
    except ModuleNotFoundError:
        return None
    return getattr(module, "SIMULATOR", None)


def _checked_run(game: str, decisions: int) -> float:
    rules = get_rules(game)
    done, seed = 0, 1
    state = rules.new_game(players=2, seed=seed)
    chooser = Rng.from_seed(seed)
    start = time.perf_counter()
    while done < decisions:
        owing = sorted(rules.to_move(state))
        if not owing or rules.outcome(state) is not None:
            seed += 1
            state = rules.new_game(players=2, seed=seed)
            continue
        seat = owing[0]
        state = rules.apply(state, seat, chooser.choice(rules.legal_moves(state, seat)))
        done += 1
    return done / (time.perf_counter() - start)


def _sim_run(game: str, sim, decisions: int) -> float:
    rules = get_rules(game)
    done, seed = 0, 1
    state = sim.from_rules(rules.new_game(players=2, seed=seed))
    chooser = Rng.from_seed(seed)
    start = time.perf_counter()
    while done < decisions:
        owing = sim.to_move(state)
        if not owing or sim.outcome(state) is not None:
            seed += 1
            state = sim.from_rules(rules.new_game(players=2, seed=seed))
            continue
        seat = min(owing)
        sim.play(state, seat, chooser.choice(sim.legal_moves(state, seat)))
        done += 1
    return done / (time.perf_counter() - start)


def playout_speed(game: str, decisions: int, repeat: int = 3) -> None:
    runs = [_checked_run(game, decisions) for _ in range(repeat)]
    print(f"  random playouts, checked apply: {decisions:,} decisions, best of {repeat} "
          f"{max(runs):,.0f} decisions/s (runs {', '.join(f'{r:,.0f}' for r in runs)}; "
          f"{_load()})")
    sim = simulator(game)
    if sim is None:
        print("  (no simulator: games.<pkg>.sim.SIMULATOR not found)")
        return
    runs = [_sim_run(game, sim, decisions) for _ in range(repeat)]
    print(f"  random playouts, simulator:     {decisions:,} decisions, best of {repeat} "
          f"{max(runs):,.0f} decisions/s (runs {', '.join(f'{r:,.0f}' for r in runs)}; "
          f"{_load()})", flush=True)


def chooser(game: str, budget: int | None):
    """The game's bot.choose with the expert's iterations fixed at `budget` (None: default)."""
    bot = bot_module(game)
    return bot.choose if budget is None else functools.partial(bot.choose, iterations=budget)


def budget_note(game: str, budget: int | None) -> str:
    default = getattr(importlib.import_module(f"games.{game.replace('-', '_')}.expert"),
                      "ITERATIONS", None)
    return f"expert budget {budget if budget is not None else default} iterations/decision" + (
        " (the default)" if budget is None or budget == default else f" (default {default})")


def decision_times(game: str, level: str, decisions: int, budget: int | None = None,
                   timed=None, players: int = 2) -> None:
    """`level`'s seconds per decision against fast bots, `players` seats (2 by default),
    its seat rotating.

    Only decisions with a choice are timed, and only those `timed(view)` accepts (all
    of them by default; Gizmos' bench times the phases its expert searches)."""
    rules = get_rules(game)
    players = min(players, rules.max_players)
    choose = chooser(game, budget)
    times: list[float] = []
    cpu: list[float] = []
    g = 0
    while len(times) < decisions:
        seed = 5_000 + g
        state = rules.new_game(players=players, seed=seed)
        me = g % players
        for n in range(DECISION_BOUNDS[game]):
            if rules.outcome(state) is not None or len(times) >= decisions:
                break
            seat = min(rules.to_move(state))
            legal = rules.legal_moves(state, seat)
            view = rules.view(state, seat)
            lv = level if seat == me else "fast"
            t0, c0 = time.perf_counter(), time.process_time()
            move = choose(view, legal, level=lv, rng=Rng.from_seed(f"{seed}:{n}:{seat}"))
            took, took_cpu = time.perf_counter() - t0, time.process_time() - c0
            if seat == me and len(legal) > 1 and (timed is None or timed(view)):
                times.append(took)
                cpu.append(took_cpu)
            state = rules.apply(state, seat, move)
        g += 1
    times.sort()
    cpu.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    cpu99 = cpu[min(len(cpu) - 1, int(len(cpu) * 0.99))]
    note = f"; {budget_note(game, budget)}" if level == "expert" else ""
    if players != 2:
        note += f"; {players} players"
    # CPU seconds of this process too: on a loaded machine they stay near the quiet-core time
    print(f"  {level:>6}: {len(times)} decisions, wall mean {statistics.mean(times) * 1000:,.1f} ms, "
          f"p99 {p99 * 1000:,.1f} ms, max {times[-1] * 1000:,.1f} ms; CPU mean "
          f"{statistics.mean(cpu) * 1000:,.1f} ms, p99 {cpu99 * 1000:,.1f} ms, max "
          f"{cpu[-1] * 1000:,.1f} ms ({_load()}{note})", flush=True)


def match(game: str, a: str, b: str, games: int, seed0: int, choose=None,
          choose_a=None) -> tuple[float, int]:
    """Row `a`'s wins against `b` over `games` seeded games, and the longest game's decisions."""
    wins = 0.0
    longest = 0
    for g in range(FIRST, FIRST + games):
        levels = [a, b] if g % 2 == 0 else [b, a]
        me = levels.index(a)
        pick = choose
        if choose_a is not None:
            pick = _per_seat(choose_a if me == 0 else choose, choose if me == 0 else choose_a)
        result = play(game, levels, seed0 + g, choose=pick)
        longest = max(longest, result.decisions)
        if result.winners:
            wins += (me in result.winners) / len(result.winners)
        done = g + 1 - FIRST
        if PROGRESS and done % PROGRESS == 0 and done < games:
            lo, hi = wilson(wins, done)
            print(f"      ... {a} vs {b}: {wins:g}/{done} = {wins / done:.0%} "
                  f"[{lo:.0%}, {hi:.0%}] so far (games {FIRST}-{g})", flush=True)
    return wins, longest


def _per_seat(first, second):
    """A chooser that asks `first` for seat 0's decisions and `second` for the others."""
    def choose(view, legal, *, level, rng):
        seat = view.get("you", {}).get("seat") if isinstance(view.get("you"), dict) else None
        if seat is None:
            seat = view.get("seat", view.get("you"))
        return (first if seat == 0 else second)(view, legal, level=level, rng=rng)
    return choose


def _line(a: str, b: str, w: float, games: int, longest: int, t0: float) -> str:
    lo, hi = wilson(w, games)
    return (f"    {a:>6} vs {b:<6} {w:g}/{games} = {w / games:.0%} [{lo:.0%}, {hi:.0%}]"
            f"  (longest game {longest:,} decisions; {time.perf_counter() - t0:.0f} s)")


def strength(game: str, games: int, budget: int | None = None, pairs=None) -> None:
    levels = bot_module(game).LEVELS
    choose = chooser(game, budget)
    print(f"  strength, 2 players, {games} games per pair, alternating starts "
          f"(row's wins against column, 95 % Wilson interval; {budget_note(game, budget)}):")
    for i, a in enumerate(levels):
        for b in levels[:i]:
            if a == b or (pairs is not None and (a, b) not in pairs):
                continue
            t0 = time.perf_counter()
            w, longest = match(game, a, b, games, 200_000 + 1_000 * i, choose=choose)
            print(_line(a, b, w, games, longest, t0), flush=True)


def ceiling(game: str, games: int, budget: int | None, factor: int) -> None:
    """Expert at `factor` times the budget against expert at the budget."""
    base = budget if budget is not None else importlib.import_module(
        f"games.{game.replace('-', '_')}.expert").ITERATIONS
    big = chooser(game, base * factor)
    t0 = time.perf_counter()
    w, longest = match(game, "expert", "expert", games, 400_000, choose=chooser(game, base),
                       choose_a=big)
    print(f"  ceiling, 2 players: expert at {base * factor} iterations/decision (row) against "
          f"expert at {base}, {games} games, alternating starts:")
    print(_line("expert", "expert", w, games, longest, t0), flush=True)


def multi(game: str, players: int, games: int, budget: int | None = None, levels=None) -> None:
    rules = get_rules(game)
    players = min(players, rules.max_players)
    bot = bot_module(game)
    choose = chooser(game, budget)
    print(f"  at {players} players against fast bots only, {games} games, the level's seat rotating"
          f" ({budget_note(game, budget)}):")
    for level in bot.LEVELS:   # fast only when named: five fast bots and one more
        if (level == "fast" and levels is None) or (levels is not None and level not in levels):
            continue
        wins = 0.0
        t0 = time.perf_counter()
        for g in range(FIRST, FIRST + games):
            seats = ["fast"] * players
            me = g % players
            seats[me] = level
            result = play(game, seats, 300_000 + g, choose=choose)
            if result.winners:
                wins += (me in result.winners) / len(result.winners)
            if PROGRESS and (g + 1 - FIRST) % PROGRESS == 0 and g + 1 - FIRST < games:
                print(f"      ... {level}: {wins:g}/{g + 1 - FIRST} so far (games {FIRST}-{g})",
                      flush=True)
        lo, hi = wilson(wins, games)
        print(f"    {level:>6}: {wins:g}/{games} = {wins / games:.0%} [{lo:.0%}, {hi:.0%}]; "
              f"fair share {1 / players:.0%}, ratio {wins / games * players:.2f} "
              f"[{lo * players:.2f}, {hi * players:.2f}] ({time.perf_counter() - t0:.0f} s)",
              flush=True)


_RESULT = re.compile(r"^\s+(\w+) vs (\w+)\s+([\d.]+)/(\d+) = ")
_MULTI = re.compile(r"^\s+(\w+): ([\d.]+)/(\d+) = .*fair share (\d+) ?%")


def combine(paths: list[str]) -> None:
    """Add up the final lines of matches split with --first (their outputs in `paths`)."""
    pairs: dict = {}
    shares: dict = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if "so far" in line:
                    continue
                m = _RESULT.match(line)
                if m:
                    key = (m[1], m[2])
                    w, n = pairs.get(key, (0.0, 0))
                    pairs[key] = (w + float(m[3]), n + int(m[4]))
                m = _MULTI.match(line)
                if m:
                    w, n, _ = shares.get(m[1], (0.0, 0, 0))
                    shares[m[1]] = (w + float(m[2]), n + int(m[3]), int(m[4]))
    print(f"  combined from {len(paths)} outputs:")
    for (a, b), (w, n) in sorted(pairs.items()):
        lo, hi = wilson(w, n)
        print(f"    {a:>6} vs {b:<6} {w:g}/{n} = {w / n:.1%} [{lo:.1%}, {hi:.1%}]")
    for level, (w, n, share) in sorted(shares.items()):
        lo, hi = wilson(w, n)
        players = round(100 / share)
        print(f"    {level:>6}: {w:g}/{n} = {w / n:.1%} [{lo:.1%}, {hi:.1%}]; fair share {share} %, "
              f"ratio {w / n * players:.2f} [{lo * players:.2f}, {hi * players:.2f}]")


def _pairs(text: str | None):
    if not text:
        return None
    return {tuple(p.split(":")) for p in text.split(",")}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=40, help="games per pair of levels")
    # 300, not 30: Gizmos' slowest expert decisions (a player with five to seven converters,
    # late in a game) first showed up after about 100 timed decisions
    parser.add_argument("--decisions", type=int, default=300, help="timed decisions per level")
    # 50,000 and 5 runs, not 5,000 and 3: on a busy machine the shorter runs swung by a third
    # within seconds (docs/games/*.md quote 50,000-decision runs); all of them take under a
    # minute per game
    parser.add_argument("--playout", type=int, default=50_000, help="random playout decisions")
    parser.add_argument("--repeat", type=int, default=5, help="playout runs (the best is printed)")
    parser.add_argument("--players", type=int, default=0, help="also a many-player table")
    parser.add_argument("--game", choices=GAMES)
    parser.add_argument("--budget", "--iterations", type=int, default=None,
                        help="the expert's iterations per decision (default: expert.ITERATIONS)")
    parser.add_argument("--levels", help="comma-separated levels to time (default: all)")
    parser.add_argument("--pairs", help="only these strength pairs, row:column,... "
                                        "(e.g. expert:strong,expert:fast)")
    parser.add_argument("--multi-levels", help="levels for the many-player table (default: all)")
    parser.add_argument("--ceiling", type=int, default=0,
                        help="also expert at this many times the budget against expert")
    parser.add_argument("--no-times", action="store_true", help="skip the time per decision")
    parser.add_argument("--times-players", type=int, default=2,
                        help="seats of the games the time per decision is taken in (default 2)")
    parser.add_argument("--no-strength", action="store_true", help="skip the 2-player matrix")
    parser.add_argument("--no-playout", action="store_true", help="skip the playout speed")
    parser.add_argument("--progress", type=int, default=0,
                        help="print a running tally every N games of a match")
    parser.add_argument("--combine", nargs="+", metavar="OUTPUT",
                        help="only add up the results in these outputs of split matches")
    parser.add_argument("--first", type=int, default=0,
                        help="start each match at this game (seeds and starts as in one run)")
    args = parser.parse_args()
    PROGRESS = args.progress
    FIRST = args.first
    if args.combine:
        combine(args.combine)
        sys.exit(0)
    for game in [args.game] if args.game else GAMES:
        print(f"{game} (python {sys.version.split()[0]}, one process)", flush=True)
        if not args.no_playout:
            playout_speed(game, args.playout, args.repeat)
        if not args.no_times:
            timed = args.levels.split(",") if args.levels else bot_module(game).LEVELS
            for level in timed:
                decision_times(game, level, args.decisions, args.budget,
                               players=args.times_players)
        if not args.no_strength:
            strength(game, args.games, args.budget, _pairs(args.pairs))
        if args.ceiling:
            ceiling(game, args.games, args.budget, args.ceiling)
        if args.players:
            multi(game, args.players, args.games, args.budget,
                  args.multi_levels.split(",") if args.multi_levels else None)
        sys.stdout.flush()

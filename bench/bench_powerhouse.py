"""Powerhouse benchmark: random-playout speed and bot decision times. Not a test.

    .venv/bin/python bench/bench_powerhouse.py [--quick]
    .venv/bin/python bench/bench_powerhouse.py --apply-check [RUNS]

Uniformly random Powerhouse games are very long (random players rarely build a
clean powerhouse), so the playout figures run a fixed number of decisions from
fresh games at every player count rather than whole games. Bot games are played
whole: how long fast-vs-fast and strong-vs-strong games run, in decisions and in
draw turns (a person at a table waits through the turns).

--apply-check times 2-player random playouts (20,000 decisions a run, RUNS runs of
each, alternating so a change in the machine's load hits all three alike) with the
checked `apply` as it was (the submitted move looked up in the generated legal
list), as it is (`game.check_move`), and through the bots' simulator (sim.py).
"""

from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from games.engine import Rng  # noqa: E402
from games.powerhouse import bot  # noqa: E402
from games.powerhouse.rules import RULES, game  # noqa: E402


def apply_check(runs: int) -> None:
    """The checked apply before and after the direct move check, and the simulator."""
    sys.argv = sys.argv[:1]
    from bench.bench_bots import _checked_run, _sim_run, simulator
    from games.engine import IllegalMove, require_move_dict
    from games.powerhouse.rules import PowerhouseRules

    current = PowerhouseRules.apply

    def listed_apply(self, state, seat, move):   # the checked apply before the direct check
        self.require_seat(state, seat, state["players"])
        require_move_dict(move, game.MOVE_TYPES)
        move = game.find_legal(game.legal_moves(state, seat), move)
        if move is None:
            raise IllegalMove("That move is not allowed now.", code="illegal")
        new = game.copy_state(state)
        game.play(new, seat, move)
        return new

    sim = simulator("powerhouse")
    res = {"checked apply, legal list (before)": [], "checked apply, check_move (now)": [],
           "simulator": []}
    for _ in range(runs):
        PowerhouseRules.apply = listed_apply
        res["checked apply, legal list (before)"].append(_checked_run("powerhouse", 20_000))
        PowerhouseRules.apply = current
        res["checked apply, check_move (now)"].append(_checked_run("powerhouse", 20_000))
        res["simulator"].append(_sim_run("powerhouse", sim, 20_000))
    PowerhouseRules.apply = current
    for label, v in res.items():
        print(f"{label:36} best {max(v):,.0f} decisions/s (runs {', '.join(f'{x:,.0f}' for x in v)})")
    print("load average", " ".join(f"{x:.2f}" for x in os.getloadavg()))


def playout_speed(decisions_per_count: int) -> None:
    """Decisions per second of uniformly random play, legal-move generation included."""
    for label, apply in (("checked apply", None), ("unchecked copy and play, as bots simulate", game.play)):
        done = 0
        start = time.perf_counter()
        for players in (2, 3, 4, 5):
            seed = players
            s = RULES.new_game(players=players, seed=seed)
            chooser = Rng.from_seed(seed)
            for _ in range(decisions_per_count):
                owing = sorted(RULES.to_move(s))
                if not owing:
                    seed += 100
                    s = RULES.new_game(players=players, seed=seed)
                    continue
                seat = chooser.choice(owing)
                move = chooser.choice(RULES.legal_moves(s, seat))
                if apply is None:
                    s = RULES.apply(s, seat, move)
                else:
                    s = game.copy_state(s)
                    apply(s, seat, move)
                done += 1
        took = time.perf_counter() - start
        print(f"random play ({label}): {done} decisions, {done / took:,.0f} decisions/s")


def random_game_lengths(games: int) -> None:
    """How long whole random games run (decisions), per player count."""
    for players in (2, 3, 4, 5):
        lengths = []
        for g in range(games):
            s = RULES.new_game(players=players, seed=500 + g)
            chooser = Rng.from_seed(g)
            n = 0
            while RULES.to_move(s) and n < 400_000:
                seat = chooser.choice(sorted(RULES.to_move(s)))
                s = game.copy_state(s)
                game.play(s, seat, chooser.choice(game.legal_moves(s, seat)))
                n += 1
            lengths.append(n)
        print(f"random games, {players} players: median {statistics.median(lengths):,.0f} "
              f"decisions, max {max(lengths):,}")


def bot_game_lengths(games: int) -> None:
    """Decisions and turns of whole games between bots of one level (capped at 5,000)."""
    cap = 5_000
    for level, counts in (("fast", (2, 3, 4, 5)), ("strong", (2, 3))):
        for players in counts:
            decisions, turns, unfinished = [], [], 0
            for g in range(games):
                s = RULES.new_game(players=players, seed=1000 + g)
                rngs = [Rng.from_seed((1000 + g) * 10 + i) for i in range(players)]
                n = 0
                while RULES.to_move(s) and n < cap:
                    seat = min(RULES.to_move(s))
                    move = bot.choose(RULES.view(s, seat), RULES.legal_moves(s, seat),
                                      level=level, rng=rngs[seat])
                    s = game.copy_state(s)
                    game.play(s, seat, move)
                    n += 1
                decisions.append(n)
                turns.append(s["turn"])
                unfinished += s["winner"] is None
            print(f"{level} vs {level}, {players} players: decisions median "
                  f"{statistics.median(decisions):,.0f} max {max(decisions):,}; turns median "
                  f"{statistics.median(turns):,.0f} max {max(turns):,}; "
                  f"unfinished within {cap:,}: {unfinished} of {games}")


def bot_times(games: int) -> None:
    """Mean and max decision time per level, in 2-player games against the fast bot."""
    for level in bot.LEVELS:
        times = []
        for g in range(games):
            s = RULES.new_game(players=2, seed=100 + g)
            rngs = [Rng.from_seed(g), Rng.from_seed(g + 1)]
            while RULES.to_move(s) and s["turn"] < 400:
                seat = min(RULES.to_move(s))
                legal = RULES.legal_moves(s, seat)
                view = RULES.view(s, seat)
                lv = level if seat == 0 else "fast"
                start = time.perf_counter()
                move = bot.choose(view, legal, level=lv, rng=rngs[seat])
                if seat == 0:
                    times.append(time.perf_counter() - start)
                s = RULES.apply(s, seat, move)
        print(f"bot {level:>6}: {len(times)} decisions, mean {statistics.mean(times) * 1000:.2f} ms, "
              f"max {max(times) * 1000:.1f} ms")


if __name__ == "__main__":
    if "--apply-check" in sys.argv:
        i = sys.argv.index("--apply-check")
        apply_check(int(sys.argv[i + 1]) if len(sys.argv) > i + 1 else 3)
        sys.exit(0)
    quick = "--quick" in sys.argv
    playout_speed(2_000 if quick else 20_000)
    random_game_lengths(2 if quick else 8)
    bot_game_lengths(4 if quick else 20)
    bot_times(3 if quick else 20)

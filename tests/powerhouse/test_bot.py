"""Powerhouse bots: legal moves from the view alone, determinism, speed and strength."""

from __future__ import annotations

import json
import time

import pytest

from games.engine import Rng
from games.powerhouse import bot
from games.powerhouse.rules import RULES, game, state_from_view

from .playouts import light_playout


def play_match(levels, seed, *, options=None, max_turns=400):
    """One game between bot levels (seat i plays levels[i]): winner's level and slowest move."""
    s = RULES.new_game(players=len(levels), seed=seed, options=options)
    rngs = [Rng.from_seed(seed * 10 + i) for i in range(len(levels))]
    slowest = 0.0
    while game.to_move(s) and s["turn"] <= max_turns:
        seat = min(game.to_move(s))
        legal = RULES.legal_moves(s, seat)
        started = time.perf_counter()
        move = bot.choose(RULES.view(s, seat), legal, level=levels[seat], rng=rngs[seat])
        slowest = max(slowest, time.perf_counter() - started)
        assert move in legal
        s = game.copy_state(s)
        game.play(s, seat, move)
    winner = s["winner"]
    return (None if winner is None else levels[winner]), slowest


@pytest.mark.parametrize("players", (2, 3, 4, 5))
def test_every_level_plays_legal_moves_to_the_end(players):
    levels = ["strong", "fast", "random", "strong", "fast"][:players]
    for seed in range(3):
        winner, _ = play_match(levels, 300 + 10 * players + seed,
                               options={"meltdown_limit": seed == 1})
        assert winner in levels


def test_bot_needs_only_a_json_view_and_is_deterministic():
    s = RULES.new_game(players=3, seed=5)
    for _ in range(150):
        owing = sorted(game.to_move(s))
        if not owing:
            break
        seat = owing[0]
        view = json.loads(json.dumps(RULES.view(s, seat)))
        legal = RULES.legal_moves(s, seat)
        # (the expert's determinism, at its full budget, is tested in tests/bots/)
        for level in [lv for lv in bot.LEVELS if lv != "expert"]:
            a = bot.choose(view, legal, level=level, rng=Rng.from_seed(1))
            b = bot.choose(json.loads(json.dumps(view)), legal, level=level, rng=Rng.from_seed(1))
            assert a == b and a in legal
        s = RULES.apply(s, seat, bot.choose(view, legal, level="fast", rng=Rng.from_seed(2)))


def test_state_rebuilt_from_a_view_has_the_same_legal_moves():
    """What the bot simulates is the real game: every seat's moves agree at every step."""
    seen = 0

    class Recorder:
        def step(self, before, seat, move, after):
            nonlocal seen
            for p in range(after["players"]):
                rebuilt = state_from_view(RULES.view(after, p), 99)
                for q in range(after["players"]):
                    assert game.legal_moves(rebuilt, q) == game.legal_moves(after, q)
                assert RULES.view(rebuilt, p)["networks"] == RULES.view(after, p)["networks"]
            seen += 1

    for seed in range(6):
        light_playout(700 + seed, 2 + seed % 4, {"meltdown_limit": seed % 2 == 1},
                      decisions=250, bot_share=0.5, checker=Recorder())
    assert seen > 500


def test_unknown_level_refused():
    with pytest.raises(ValueError):
        bot.choose({}, [{"type": "end"}, {"type": "vapor"}], level="genius", rng=Rng(1))


def test_strong_takes_a_meltdown_win():
    from .scenario import table
    s = table({0: ["red-S", "yellow-S", "green-S", "blue-S", "purple-S", "red-L"],
               1: ["red-M", "red-M", "blue-L"]}, centre=0)
    legal = RULES.legal_moves(s, 0)
    move = bot.choose(RULES.view(s, 0), legal, level="strong", rng=Rng(3))
    assert move == {"type": "draw", "kind": "die"}


FAST_GAME_DECISIONS = 1_000  # fast-vs-fast games run 50-70 decisions (median), 390 at most seen


def play_to_the_end(levels, seed, *, bound):
    """A whole game between bot levels; the number of decisions it took (at most `bound`)."""
    s = RULES.new_game(players=len(levels), seed=seed)
    rngs = [Rng.from_seed(seed * 10 + i) for i in range(len(levels))]
    decisions = 0
    while game.to_move(s) and decisions < bound:
        seat = min(game.to_move(s))
        move = bot.choose(RULES.view(s, seat), RULES.legal_moves(s, seat), level=levels[seat],
                          rng=rngs[seat])
        game.play(s, seat, move)
        decisions += 1
    return decisions, s["winner"]


@pytest.mark.parametrize("players, games", ((2, 20), (3, 4), (4, 4), (5, 4)))
def test_fast_bot_games_end(players, games):
    """The fast bot plays toward its own clean powerhouse: its games end within a bound.

    (A bot that only drifts leaves the games of a person against it, and of a seat it took
    over, running for thousands of decisions.)
    """
    for g in range(games):
        decisions, winner = play_to_the_end(["fast"] * players, 1000 + g,
                                            bound=FAST_GAME_DECISIONS)
        assert winner is not None, (players, 1000 + g, decisions)


@pytest.mark.slow
def test_strength_over_seeded_two_player_games():
    """Strong beats random in at least 90% and fast in a clear majority.

    Measured: strong beat random 150/150 and fast 99/150 (66%); fast beats random 150/150
    on the same seeds. Slowest strong move about 0.1 s.
    """
    results = {}
    slowest = 0.0
    for rival, games in (("random", 150), ("fast", 150)):
        wins = 0
        for g in range(games):
            levels = ["strong", rival] if g % 2 == 0 else [rival, "strong"]
            winner, slow = play_match(levels, 40_000 + g)
            wins += winner == "strong"
            slowest = max(slowest, slow)
        results[rival] = (wins, games)
    print(f"strong vs random {results['random']}, vs fast {results['fast']}, "
          f"slowest strong move {slowest:.3f}s")
    wins, games = results["random"]
    assert wins >= 0.9 * games
    wins, games = results["fast"]
    assert wins > 0.5 * games
    assert slowest < 2.0


def test_remembered_reaction_values_are_the_computed_ones(monkeypatch):
    """The fast draw's remembered reaction values (bot._reaction_value) equal a fresh
    computation from the networks, the seat and the centre alone (a state holding nothing
    else), also once the table has been emptied for being full."""
    monkeypatch.setattr(bot, "REACTION_VALUES_MAX", 50)
    monkeypatch.setattr(bot, "_reaction_values", {})
    checked = 0
    for players, seed in ((2, 41), (3, 42), (5, 43)):
        s = RULES.new_game(players=players, seed=seed)
        rng = Rng.from_seed(seed)
        while game.to_move(s) and s["turn"] <= 60:
            seat = min(game.to_move(s))
            legal = RULES.legal_moves(s, seat)
            if s["phase"] == "draw":
                nets = [list(n) for n in s["networks"]]
                bare = {"centre": s["centre"]}   # nothing else of the state may be read
                for t in range(len(nets[seat])):
                    nets[seat][t] += 1
                    for _ in range(2):   # computed, then (usually) remembered
                        assert bot._reaction_value(s, nets, seat) == \
                            bot._fast_reaction_value(bare, nets, seat)
                    nets[seat][t] -= 1
                    checked += 1
                assert nets == s["networks"]
                assert len(bot._reaction_values) <= 50
            s = game.copy_state(s)
            game.play(s, seat, bot.choose(RULES.view(s, seat), legal, level="fast", rng=rng))
    assert checked > 500

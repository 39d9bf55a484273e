"""Invariants of Powerhouse and cheap playouts that check them at every step."""

from __future__ import annotations

from games.engine import Rng
from games.powerhouse import bot
from games.powerhouse.rules import RULES, game
from games.powerhouse.rules.pieces import TYPE_INDEX, is_clean, is_protected, powerhouse_count

# Uniformly random play can chain reactions for a while; the safeguard of Q6 makes
# every phase finite, and no phase in thousands of playouts came near this bound.
REACTION_DECISIONS_BOUND = 400


def invariant(s: dict) -> None:
    """Checks on one state: conservation (9.2), dice (9.3), wins (section 8)."""
    errors = game.conservation_errors(s)
    assert not errors, errors
    clean = [p for p in range(s["players"]) if is_clean(s["networks"][p])]
    if s["phase"] == "over":
        winner = s["winner"]
        assert winner in clean, "the winner's network is not clean"
        n = s["players"]
        order = [(s["active"] + i) % n for i in range(n)]
        assert winner == next(p for p in order if p in clean), "wrong tie-break"
        assert RULES.outcome(s)["winners"] == [winner]
    else:
        assert s["winner"] is None and RULES.outcome(s) is None
        # outside a meltdown's discards a clean network has always ended the game
        assert s["phase"] == "meltdown" or not clean, f"clean {clean} but the game goes on"
    if s["phase"] == "meltdown":
        assert s["centre"] >= 1 and s["meltdown"]["k"] == s["centre"]
    if s["pending"] is not None and s["pending"].get("stage") == "take":
        theirs = s["networks"][s["pending"]["to"]]
        for move in game.legal_moves(s, s["active"]):
            if move["type"] == "take":
                t = TYPE_INDEX[move["piece"]]
                assert not is_protected(theirs, t), f"{move} would break a powerhouse"
        assert {"type": "vapor"} in game.legal_moves(s, s["active"])


class TransitionChecker:
    """Checks on each step of one game: takes, phase length, first-event wins."""

    def __init__(self) -> None:
        self.phase_decisions = 0
        self.longest_phase = 0
        self.off_turn_wins = 0

    def step(self, before: dict, seat: int, move: dict, after: dict) -> None:
        """Check one applied decision."""
        invariant(after)
        if move["type"] == "take":
            frm = before["pending"]["to"]
            assert powerhouse_count(after["networks"][frm]) == powerhouse_count(
                before["networks"][frm]), "a take broke another player's powerhouse"
        if after["phase"] == "reaction" and after["turn"] == before["turn"]:
            self.phase_decisions += 1
            assert self.phase_decisions <= REACTION_DECISIONS_BOUND, "endless reaction phase"
            self.longest_phase = max(self.longest_phase, self.phase_decisions)
        else:
            self.phase_decisions = 0
        # Q6: no position recorded in a Reaction phase comes back in it
        assert len(set(after["positions"])) == len(after["positions"]), "a position repeated"
        if after["phase"] == "over" and before["phase"] != "over":
            # the event that made someone clean ended the game; it need not be their turn
            self.off_turn_wins += after["winner"] != after["active"]


def light_playout(seed: int, players: int, options: dict, *, decisions: int,
                  bot_share: float = 0.0, checker: TransitionChecker | None = None) -> dict:
    """Random legal moves (a share of them by the fast bot) for `decisions` at most."""
    options = RULES.clean_options(options)
    chooser = Rng.from_seed(seed ^ 0x5EED)
    s = RULES.new_game(players=players, seed=seed, options=options)
    checker = checker or TransitionChecker()
    invariant(s)
    for _ in range(decisions):
        owing = sorted(game.to_move(s))
        if not owing:
            break
        seat = chooser.choice(owing)
        legal = game.legal_moves(s, seat)
        if bot_share and chooser.random() < bot_share:
            move = bot.choose(RULES.view(s, seat), legal, level="fast", rng=chooser)
        else:
            move = chooser.choice(legal)
        after = game.copy_state(s)
        game.play(after, seat, move)
        checker.step(s, seat, move, after)
        s = after
    return s

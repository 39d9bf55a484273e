"""Build hand-made Powerhouse positions for scenario tests."""

from __future__ import annotations

from games.engine import Rng
from games.powerhouse.rules import RULES, game
from games.powerhouse.rules.pieces import COPIES, DICE, NTYPES, TYPE_INDEX, TYPE_NAMES, position_key

SEAT_A, SEAT_B, SEAT_C = 0, 1, 2


def table(networks: dict[int, list[str]], *, players: int = 2, active: int = 0,
          phase: str = "draw", centre: int = 0, options: dict | None = None,
          tracking: list[int] | None = None) -> dict:
    """A state with the given networks; everything else is in the bag."""
    state = game.new_state(players=players, seed=7, options=RULES.clean_options(options))
    nets = [[0] * NTYPES for _ in range(players)]
    for seat, pieces in networks.items():
        for name in pieces:
            nets[seat][TYPE_INDEX[name]] += 1
    bag = [COPIES - sum(net[t] for net in nets) for t in range(NTYPES)]
    assert min(bag) >= 0, "more than three of a type"
    state.update(networks=nets, bag=bag, centre=centre, bag_dice=DICE - centre, active=active,
                 phase=phase, pending=None, meltdown=None, positions=[], log=[], log_count=0,
                 stamps=[[None] * 9 for _ in range(players)], clock=0, turn=1)
    if tracking is not None:
        state["tracking"] = list(tracking)
    for seat in range(players):
        game._restamp(state, seat)
    if phase == "reaction":
        state["positions"] = [position_key(nets)]
    return state


def rigged(state: dict, kind: str, piece: str) -> dict:
    """The same state with a generator state whose next draw of `kind` gives `piece`."""
    for n in range(10_000):
        trial = game.copy_state(dict(state, rng=Rng.from_seed(n).state, log=[]))
        game.play(trial, trial["active"], {"type": "draw", "kind": kind})
        if any(e["kind"] == "draw" and e["piece"] == piece for e in trial["log"]):
            return dict(state, rng=Rng.from_seed(n).state)
    raise AssertionError(f"no generator state draws {piece}")


def net(state: dict, seat: int) -> dict[str, int]:
    """A seat's network as {type name: count}."""
    return {TYPE_NAMES[t]: n for t, n in enumerate(state["networks"][seat]) if n}


def play(state: dict, seat: int, *moves: dict) -> dict:
    """Apply `moves` in turn through the public `apply` (so each is checked)."""
    for move in moves:
        state = RULES.apply(state, seat, move)
    return state


def moves(state: dict, seat: int) -> list[dict]:
    return RULES.legal_moves(state, seat)

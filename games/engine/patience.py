"""Bots that tire in a very long game (pure, no Django).

A bot sees no history beyond its view, but the view has the turn number. Two
deterministic bots can repeat one cycle of positions for ever, and two random ones
can wander for thousands of decisions; so past a game-specific number of turns a
bot changes how it plays with a chance that grows over a ramp of turns. Before
that turn `tired` draws nothing from the generator, so shorter games are played
exactly as they would be without it, and a replayed turn repeats its choice.
"""

from __future__ import annotations

from .rng import Rng


def tired(turn: int, rng: Rng, after: int, ramp: int, top: float = 1.0) -> bool:
    """True with a chance rising from 0 past turn `after` to `top` `ramp` turns later."""
    if turn <= after:
        return False
    return rng.random() < top * min(1.0, (turn - after) / ramp)
